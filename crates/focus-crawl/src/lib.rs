//! The focused-crawl engine and its policies: fetch → analyse → featurise →
//! classify → policy → frontier/store, with periodic distillation and
//! stagnation diagnosis.
//!
//! A crawler's personality is a [`policy::Policy`] plus a classifier and
//! the frontier discipline the policy asks for; adding a crawler never
//! touches the engine. The engine works in bulk-synchronous batches (as the
//! 1999 crawler did): a batch is popped, fetched concurrently on tokio,
//! analysed and classified in parallel on rayon, then applied to the
//! frontier and the store in pop order — so the same seed gives the same
//! crawl however the fetches interleave.
//!
//! This crate must not depend on `focus-websim` (ground truth reaches it
//! only as an evaluation callback, [`Truth`]) and holds no command-line
//! parsing (that is `focus-cli`) and no terminal UI (an [`Observer`]).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod distill_step;
mod engine;
mod featurize;
mod output;
pub mod policy;
pub mod stagnation;

pub use engine::{run, CrawlConfig, CrawlError, Observer, Parts, Progress, Truth, TruthFn};
pub use featurize::Featurizer;
