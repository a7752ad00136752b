//! Tunnelling (Bergmark 2002, BINGO! 2003): how many off-topic pages a path
//! has crossed since its last relevant page. Each off-topic step halves the
//! priority; past the cutoff the path is abandoned.

use serde::{Deserialize, Serialize};

/// Off-topic steps since the last relevant page on the path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TunnelState {
    /// 0 right after a relevant page.
    pub off_topic_steps: u8,
}

/// Priority decay per off-topic step.
pub const DECAY: f64 = 0.5;

impl TunnelState {
    /// The state of a link found on a page whose own state is `self`:
    /// reset when the page was relevant, one more step otherwise. `None`
    /// when the new count exceeds `cutoff` (the path is dropped).
    pub fn child(self, parent_relevant: bool, cutoff: u8) -> Option<TunnelState> {
        if parent_relevant {
            return Some(TunnelState::default());
        }
        let steps = self.off_topic_steps.saturating_add(1);
        (steps <= cutoff).then_some(TunnelState {
            off_topic_steps: steps,
        })
    }

    /// `priority` decayed by 0.5 per off-topic step.
    pub fn decay(self, priority: f64) -> f64 {
        priority * DECAY.powi(i32::from(self.off_topic_steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_reset_on_relevant_pages_and_stop_at_the_cutoff() {
        let s = TunnelState::default();
        let one = s.child(false, 2).unwrap();
        let two = one.child(false, 2).unwrap();
        assert_eq!(two.off_topic_steps, 2);
        assert_eq!(two.child(false, 2), None);
        assert_eq!(two.child(true, 2), Some(TunnelState::default()));
        assert_eq!(two.decay(0.8), 0.2);
        assert_eq!(s.decay(0.8), 0.8);
    }
}
