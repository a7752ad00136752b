//! BINGO!'s per-topic queues: a small outgoing queue (URLs of the topic
//! that dispatch may hand out) and a large incoming queue behind it, both
//! bounded; the best incoming URL moves up whenever the outgoing queue has
//! room.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::discipline::Key;

/// Bounds of one topic's queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicCaps {
    /// Parked URLs waiting behind the outgoing queue (25,000 in BINGO!).
    pub incoming: usize,
    /// Dispatchable URLs (1,000 in BINGO!).
    pub outgoing: usize,
}

impl TopicCaps {
    /// The paper's bounds: 25,000 incoming, 1,000 outgoing.
    pub const BINGO: TopicCaps = TopicCaps {
        incoming: 25_000,
        outgoing: 1_000,
    };
}

/// One topic's queues.
#[derive(Debug, Default)]
pub(crate) struct TopicQueue {
    /// Dispatchable URLs of the topic (they sit in their hosts' queues).
    pub(crate) outgoing: usize,
    /// Parked URLs, best first.
    pub(crate) incoming: BTreeSet<(Key, u32)>,
}
