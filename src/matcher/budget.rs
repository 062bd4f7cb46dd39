//! The hard work budget: an operation count, never a clock (there is no
//! clock in wasm32-unknown-unknown).
//!
//! Strategies charge roughly one unit per byte they scan and per cell of
//! any quadratic step *before* doing the work. When the budget runs out the
//! running strategy reports itself incomplete and the ladder stops as "not
//! found" (flagged `budgetExhausted`): an unfinished search never accepts
//! a match whose uniqueness it did not check.

#[derive(Clone, Debug)]
pub(crate) struct Budget {
    left: u64,
    exhausted: bool,
}

impl Budget {
    pub(crate) fn new(ops: u32) -> Self {
        Budget {
            left: u64::from(ops),
            exhausted: false,
        }
    }

    /// Takes `ops` units; false (and exhausted from now on) if they are not
    /// there.
    pub(crate) fn spend(&mut self, ops: usize) -> bool {
        if self.exhausted {
            return false;
        }
        let ops = u64::try_from(ops).unwrap_or(u64::MAX);
        if ops > self.left {
            self.left = 0;
            self.exhausted = true;
            return false;
        }
        self.left -= ops;
        true
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_past_the_budget_exhausts_it_for_good() {
        let mut b = Budget::new(10);
        assert!(b.spend(6));
        assert!(!b.spend(5));
        assert!(b.exhausted());
        assert!(!b.spend(0));
    }
}
