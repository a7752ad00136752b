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
//! the fetches interleave. How the analyse-and-classify stage reads one
//! page is public ([`reading::read_page`]), for programs that must read
//! pages exactly as the crawl does.
//!
//! Why a URL was fetched when it was is traced at `trace` level under the
//! target [`PRIORITY_TRACE`] (`RUST_LOG=focus_crawl::priority=trace`): each
//! link offered to the frontier (from which page, at which priority, and
//! whether it queued, raised or left the URL), each re-score (its cause,
//! the priority before and after), each hub citation's raise, each
//! root ascent, and each fetch with the priority it was popped at. Off, the
//! events cost a level check.
//!
//! This crate must not depend on `focus-websim` (ground truth reaches it
//! only as an evaluation callback, [`Truth`]) and holds no command-line
//! parsing (that is `focus-cli`) and no terminal UI (an [`Observer`]).
//!
//! # Example
//!
//! A soft-focus crawl of 40 pages of the synthetic web, assembled by hand
//! (the binaries do this through `focus-app`):
//!
//! ```
//! use std::sync::Arc;
//! use focus_classify::{Example, Featurizer, HierNb, HierNbConfig};
//! use focus_core::Canonicalizer;
//! use focus_crawl::policy::SoftFocus;
//! use focus_crawl::{CrawlConfig, Observer, Parts, Progress};
//! use focus_fetch::{ConnectTo, FetchConfig, Fetcher};
//! use focus_websim::{Web, WebConfig};
//!
//! struct Quiet;
//! impl Observer for Quiet {
//!     fn page(&mut self, _: &Progress) {}
//!     fn note(&mut self, _: &str) {}
//! }
//!
//! # #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let web = Arc::new(Web::new(WebConfig::small(), 1)?);
//! let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse()?).await?;
//! let mut taxonomy = web.taxonomy().clone();
//! let good = taxonomy.lookup("recreation/outdoors/cycling")?;
//! taxonomy.mark_good(good)?;
//! let (canon, featurizer) = (Canonicalizer::default(), Featurizer::default());
//! let mut examples = Vec::new();
//! for leaf in taxonomy.leaves() {
//!     for p in web.sample(leaf, 10) {
//!         let doc = focus_html::analyze(&web.page_html(p.id).unwrap(), &canon.canonicalize(&p.url)?, &canon);
//!         examples.push(Example { counts: featurizer.document(&doc), topic: leaf });
//!     }
//! }
//! let parts = Parts {
//!     fetcher: Fetcher::new(FetchConfig::loopback(vec![ConnectTo::parse(&server.connect_to())?]))?,
//!     classifier: Arc::new(HierNb::train(&taxonomy, &examples, HierNbConfig::default())?),
//!     taxonomy,
//!     featurizer,
//!     policy: Box::new(SoftFocus::VLDB),
//!     seeds: web.seed_urls(good, 3).iter().map(|u| canon.canonicalize(u)).collect::<Result<_, _>>()?,
//!     truth: None,
//!     parents: None,
//!     similarity: None,
//! };
//! let out = tempfile::tempdir()?;
//! let mut cfg = CrawlConfig::new(out.path().to_path_buf());
//! cfg.max_pages = 40;
//! let summary = focus_crawl::run(parts, cfg, &mut Quiet).await?;
//! assert_eq!(summary.pages_fetched, 40);
//! assert!(out.path().join("pages.jsonl").is_file());
//! server.shutdown().await;
//! # Ok(())
//! # }
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

/// The `tracing` target of the events that follow each URL's priority
/// (see the crate's docs).
pub const PRIORITY_TRACE: &str = "focus_crawl::priority";

mod apply;
pub mod apprentice;
pub mod ascent;
pub mod bingo;
mod cited;
pub mod collections;
mod compaction;
mod config;
pub mod context_graph;
mod crawl_graph;
mod dispatch;
mod distill_step;
mod engine;
mod error;
pub mod host_health;
mod judge;
mod lessons;
pub mod link_value;
mod loop_steps;
mod observer;
mod output;
pub mod parents;
mod parts;
mod pipeline;
pub mod policy;
mod priority_trace;
pub mod reading;
mod rescore;
mod resume;
mod robots_known;
mod scorer;
mod siblings;
pub mod stagnation;
mod stored_form;
mod stream;
mod tally;

pub use compaction::compact_finished;
pub use config::CrawlConfig;
pub use engine::{check_config, file_on_the_way, run};
pub use error::CrawlError;
/// The featurizer moved to `focus-classify`, next to the classifiers it
/// feeds; re-exported here for callers of the engine.
pub use focus_classify::Featurizer;
pub use observer::{Observer, Progress};
pub use parts::Parts;
pub use scorer::{Truth, TruthFn};
