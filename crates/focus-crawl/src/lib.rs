//! The focused-crawl engine and its policies: fetch → analyse → featurise →
//! classify → policy → frontier/store, with periodic distillation and
//! stagnation diagnosis.
//!
//! A crawler's personality is a [`policy::Policy`] plus a classifier and
//! the frontier discipline the policy asks for; adding a crawler never
//! touches the engine. The engine pops batches (as the 1999 crawler did) and
//! runs each through stages joined by bounded channels: fetch (tokio) →
//! analyse and classify (rayon) → apply to frontier and store, in pop order
//! through a reorder buffer — so the same seed gives the same crawl however
//! the fetches interleave.
//!
//! This crate must not depend on `focus-websim` (ground truth reaches it
//! only as an evaluation callback, [`Truth`]) and holds no command-line
//! parsing (that is `focus-cli`) and no terminal UI (an [`Observer`]).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod apply;
mod distill_step;
mod engine;
mod judge;
pub mod link_value;
mod output;
mod pipeline;
pub mod policy;
pub mod stagnation;
mod tally;

pub use engine::{run, CrawlConfig, CrawlError, Observer, Parts, Progress, Truth, TruthFn};
/// The featurizer moved to `focus-classify`, next to the classifiers it
/// feeds; re-exported here for callers of the engine.
pub use focus_classify::Featurizer;
