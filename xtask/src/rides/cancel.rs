//! `ride_cancel`: free while a ride has not really started, a fee once the captain has been
//! waiting, and production's refusals for rides on their trip, completed or cancelled.

use super::markdown::{Block, empty_ride_id, money, quoted, ride_id_required, scenario};
use super::world::{PRODUCTS, RIDES, Stage, aed, lifecycle};

pub const PATH: &str = "tools/rides/ride_cancel.md";

pub fn scenarios() -> Vec<String> {
    let mut out = vec![empty_ride_id()];
    for (id, _, ride) in &RIDES {
        let rule = format!("{{\"rideId\": \"{id}\"}}");
        let refusal = |name: &str, prose: &str, why: &str| {
            scenario(
                name,
                prose,
                Some(&rule),
                Block::Response,
                &format!(
                    "{{\"error\": {}}}",
                    quoted(&format!("failed to cancel ride: ride {id} {why}"))
                ),
            )
        };
        match ride.stage {
            Stage::Arrived { .. } => {
                let fee = PRODUCTS[ride.product].cancellation_fee;
                out.push(scenario(
                    &format!("ride-{id}-captain-waiting"),
                    &format!(
                        "Ride {id}: the captain is already waiting at the pickup, so the {} \
                         cancellation fee applies.",
                        PRODUCTS[ride.product].name
                    ),
                    Some(&rule),
                    Block::Response,
                    &cancelled(
                        &format!("\"{id}\""),
                        fee,
                        "your captain had already arrived",
                    ),
                ));
            }
            Stage::OnTrip { .. } => out.push(refusal(
                &format!("ride-{id}-on-trip"),
                &format!("Ride {id} is on its trip: production refuses to cancel it."),
                "is on its trip and can no longer be cancelled",
            )),
            Stage::Completed { .. } => out.push(refusal(
                &format!("ride-{id}-completed"),
                &format!("Ride {id} is completed: there is nothing to cancel."),
                "is already completed",
            )),
            Stage::CancelledByCaptain { .. } => out.push(refusal(
                &format!("ride-{id}-already-cancelled"),
                &format!("Ride {id} was already cancelled by the captain."),
                "is already cancelled",
            )),
            Stage::Searching | Stage::Scheduled | Stage::OnTheWay { .. } => {}
        }
    }
    out.push(scenario(
        "free-cancellation",
        "Any other ride id (a ride `ride_book` just booked is still looking for a captain): \
         cancelled at no charge; echoes the id.",
        Some("{\"rideId\": \"*\"}"),
        Block::Response,
        &cancelled("\"{{args.rideId}}\"", 0, ""),
    ));
    out.push(ride_id_required());
    let story = &lifecycle()[0].1;
    out.push(scenario(
        "cancellation-fee",
        &format!(
            "Forced only. The captain of the forced lifecycle's {} had been on the way for more \
             than 5 minutes, so its cancellation fee is charged; echoes the id.",
            PRODUCTS[story.product].name
        ),
        None,
        Block::Response,
        &cancelled(
            "\"{{args.rideId}}\"",
            PRODUCTS[story.product].cancellation_fee,
            "your captain had been on the way for more than 5 minutes",
        ),
    ));
    out.push(scenario(
        "already-completed",
        "Forced only. The ride has already ended, so it cannot be cancelled.",
        None,
        Block::Response,
        "{\"error\": \"failed to cancel ride: ride is already completed\"}",
    ));
    out
}

/// A cancelled ride; `because` says why a fee applies.
fn cancelled(id: &str, fee: u32, because: &str) -> String {
    let message = if fee == 0 {
        "Your ride has been cancelled. You were not charged.".to_string()
    } else {
        format!(
            "Your ride has been cancelled. A cancellation fee of AED {} applies because {because}.",
            aed(fee)
        )
    };
    [
        "{".to_string(),
        "  \"cancelled\": true,".to_string(),
        format!("  \"rideId\": {id},"),
        format!("  \"cancellationFee\": {},", money(fee)),
        "  \"cancelledAt\": \"{{now}}\",".to_string(),
        format!("  \"message\": {}", quoted(&message)),
        "}".to_string(),
    ]
    .join("\n")
}
