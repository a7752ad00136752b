//! The crawl frontier: what the crawler fetches next.
//!
//! * [`Discipline`] — the orders of the papers: the VLDB paper's
//!   lexicographic keys (numtries ↑, relevance ↓, serverload ↑), numtries
//!   then first-come, breadth-first, seeded random, best-first, and the
//!   context-graph crawler's layered queues (pop from the first non-empty
//!   layer, each sorted by likelihood); optional per-topic caps (BINGO!).
//! * [`Frontier`] — seen-set dedup, priority raises (the soft-focus rule
//!   takes the maximum over paths; hub citations can be raised to the
//!   maximum), and Mercator-style dispatch: one back queue per host and a
//!   heap of hosts by readiness, so a busy or cooling host never blocks a
//!   ready one and bad hosts are drained.
//! * [`tunnel`] — off-topic steps since the last relevant page, with a
//!   cutoff and a priority decay of 0.5 per step.
//!
//! * Memory — a compact slot per queued URL and one id map that is also the
//!   seen set. With a spill directory, URLs beyond a bound go to the cold
//!   tier: per-host sorted runs of records (URL included) in a temp file,
//!   merged on pop and compacted by size tiers (the only I/O, in `cold`;
//!   `spill` holds URL strings of topic-capped frontiers).
//!
//! Deterministic: time is passed in as milliseconds, random order is
//! seeded. Depends on `focus-core` only; it must not depend on the
//! fetcher, the store or the engine (they call it).
//!
//! # Example
//!
//! ```
//! use focus_core::Canonicalizer;
//! use focus_frontier::{Candidate, Discipline, Frontier};
//!
//! let canon = Canonicalizer::default();
//! let mut frontier = Frontier::new(Discipline::BestFirst);
//! for (url, priority) in [("http://a.test/low", 0.2), ("http://b.test/high", 0.9)] {
//!     frontier.push(Candidate::new(canon.canonicalize(url)?, 1, None, priority));
//! }
//! let best = frontier.pop_ready(0).unwrap();
//! assert_eq!(best.url.as_str(), "http://b.test/high");
//! frontier.host_done(&best.host, 0);
//! assert_eq!(frontier.len(), 1);
//! # Ok::<(), focus_core::CanonError>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod candidate;
mod cold;
mod discipline;
mod frontier;
mod host_queue;
mod index;
mod spill;
mod topics;
pub mod tunnel;

pub use candidate::Candidate;
pub use discipline::Discipline;
pub use frontier::{Frontier, FrontierStats, PushResult};
pub use topics::TopicCaps;
pub use tunnel::TunnelState;

/// What can go wrong in the frontier: only the spill file can fail.
#[derive(Debug, thiserror::Error)]
pub enum FrontierError {
    /// Reading or writing the spill file failed.
    #[error("frontier spill file: {0}")]
    Spill(std::io::Error),
    /// A spilled URL no longer parses.
    #[error("spilled URL is not canonical: {0}")]
    BadUrl(focus_core::CanonError),
    /// A URL is marked spilled but no spill file is configured.
    #[error("URL marked spilled without a spill file")]
    NoSpill,
}

// By hand rather than `#[from]`, which would also make the cause the
// error's `source()`: the message already carries it, and a chain printed
// whole would repeat it.
impl From<std::io::Error> for FrontierError {
    fn from(e: std::io::Error) -> Self {
        Self::Spill(e)
    }
}

impl From<focus_core::CanonError> for FrontierError {
    fn from(e: focus_core::CanonError) -> Self {
        Self::BadUrl(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e = FrontierError::from(std::io::Error::other("disk full"));
        assert_eq!(e.to_string(), "frontier spill file: disk full");
        assert!(std::error::Error::source(&e).is_none());
        let e = FrontierError::from(focus_core::CanonError::Parse("x".into()));
        assert_eq!(
            e.to_string(),
            "spilled URL is not canonical: not a valid URL: x"
        );
        assert!(std::error::Error::source(&e).is_none());
    }
}
