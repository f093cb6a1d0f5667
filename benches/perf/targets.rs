//! The targets of docs/PERFORMANCE.md, each printed with the figure this run measured and its
//! ratio to the target. A missed target is printed as such; nothing fails on a figure.

/// Which side of its bound a figure must stay.
#[derive(Debug, Clone, Copy)]
pub enum Bound {
    AtLeast(f64),
    AtMost(f64),
}

/// One target and the figure measured for it.
#[derive(Debug, Clone)]
pub struct Target {
    pub what: String,
    pub measured: f64,
    pub unit: &'static str,
    pub bound: Bound,
}

impl Target {
    pub fn new(what: impl Into<String>, measured: f64, unit: &'static str, bound: Bound) -> Self {
        Self {
            what: what.into(),
            measured,
            unit,
            bound,
        }
    }

    fn met(&self) -> bool {
        match self.bound {
            Bound::AtLeast(bound) => self.measured >= bound,
            Bound::AtMost(bound) => self.measured <= bound,
        }
    }

    /// How far the figure is from its bound, 1 or more when met: measured / bound for a floor,
    /// bound / measured for a ceiling.
    fn ratio(&self) -> f64 {
        match self.bound {
            Bound::AtLeast(bound) => self.measured / bound,
            Bound::AtMost(bound) => bound / self.measured.max(f64::MIN_POSITIVE),
        }
    }

    fn line(&self) -> String {
        let (sign, bound) = match self.bound {
            Bound::AtLeast(bound) => ("≥", bound),
            Bound::AtMost(bound) => ("≤", bound),
        };
        format!(
            "  {:<58} {:>8.1} {:<6} target {sign} {bound} {:<6} {:>5.2}× {}",
            self.what,
            self.measured,
            self.unit,
            self.unit,
            self.ratio(),
            if self.met() { "met" } else { "MISSED" }
        )
    }
}

/// Every target, one line each (the ratio is 1 or more when the target is met).
pub fn print(targets: &[Target]) {
    if targets.is_empty() {
        return;
    }
    println!("targets (ratio: how far past the target; below 1.00 is missed)");
    for target in targets {
        println!("{}", target.line());
    }
}
