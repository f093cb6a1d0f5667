# The run's clock (docs/DATA_WORLD.md, "The run's epoch"). Call them with the call document as
# `.`.

# The run's epoch: its clock when its world was seeded (stateful mode), else now. The seed's
# times are fixed from it, so that they stand still while the run's clock moves on.
def clock_epoch: .state.seededAt // .now;
