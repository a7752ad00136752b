//! The application layer: turns a validated [`focus_cli::CrawlPlan`] into a
//! running crawl — the embedded websim (or the user's example set and
//! seeds), training, the classifier, the policy, the fetcher, a progress
//! bar — so that every crawler binary is a few lines; [`websim_leaf_accuracy`]
//! calibrates the websim's text with the crawler's own classifier.
//!
//! With `focus-experiments` (which runs through it), this is the only
//! library that may depend on `focus-websim` *and* the crawler crates
//! together: it wires the synthetic web's ground truth into the engine as
//! an evaluation-only callback. Libraries below it must not depend on it,
//! and it must not depend on `focus-experiments` or `xtask`. The papers'
//! reproductions and the real-corpus evaluations run through it from
//! `focus-experiments`.
//!
//! # Example
//!
//! A whole crawl from a plan, as `focus-soft` runs it (the embedded websim,
//! its sampled examples and seeds, 30 pages):
//!
//! ```
//! use focus_app::run;
//! use focus_cli::{CrawlPlan, TopicSource};
//!
//! # #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let out = tempfile::tempdir()?;
//! let source = TopicSource::websim(vec![]); // the default websim and topic
//! let plan = CrawlPlan { max_pages: 30, ..CrawlPlan::new(source, out.path().join("crawl")) };
//! let summary = run(&plan).await?;
//! assert_eq!(summary.pages_fetched, 30);
//! assert!(summary.harvest_rate_true.is_some(), "the websim's truth is recorded");
//! # Ok(())
//! # }
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod bingo;
mod collections;
mod context_graph;
mod progress;
mod sample_pass;
mod setup;
mod stop;
mod user_input;
mod websim_text;

pub use bingo::{
    far_away_pages, run_bingo, search_crawl, Archetype, BingoOutcome, Cluster, SearchOutcome,
    OTHERS,
};
pub use collections::{
    collection_slug, collections_table, parse_topics, run_collections, Collection,
    CollectionsOutcome, CollectionsReport, Member, TopicSpec, CORPUS_TOPICS, RANKS, WEBSIM_TOPICS,
};
pub use context_graph::{run_context, ContextOutcome};
pub use focus_eval::Summary;
pub use progress::init_logging;
pub use setup::{example_classifier, run, AppError};
pub use stop::{request_stop, stop_requested};
pub use websim_text::{websim_leaf_accuracy, websim_pages};
