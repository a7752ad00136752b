//! Command-line flags shared by every focus crawler binary (ripgrep's
//! pattern: raw flags → typed plan in one step, in a library, so the five
//! binaries do not copy flag parsing five times).
//!
//! This crate owns flag names, defaults and validation. It must not depend
//! on the engine, the fetcher or the websim (only on `focus-core`, whose
//! strategy names it fills in): the binaries hand the
//! [`CrawlPlan`] to the libraries that act on it.
//!
//! # Example
//!
//! ```
//! use clap::Parser;
//! use focus_cli::{CrawlArgs, Crawler, TopicSource};
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     crawl: CrawlArgs,
//! }
//!
//! let cli = Cli::parse_from(["focus-soft", "--max-pages", "100", "--baseline", "bfs"]);
//! let plan = cli.crawl.plan(Crawler::SOFT)?;
//! assert_eq!(plan.max_pages, 100);
//! assert_eq!(plan.strategy.crawler, Crawler::BreadthFirst);
//! assert!(matches!(plan.source, TopicSource::Websim { .. }));
//! # Ok::<(), focus_cli::PlanError>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod args;
mod bingo;
mod collections;
mod context;
mod plan;

pub use args::{
    parse_duration, BaselineArg, ChildPriorityArg, CrawlArgs, DispatchArg, FlowArg, OrderArg,
    RelevanceArg,
};
pub use bingo::{
    Admit, BingoArgs, BingoPlan, BingoPlanError, SearchArgs, DEFAULT_ARCHETYPES,
    DEFAULT_LEARNING_PAGES, DEFAULT_MAX_TUNNEL, DEFAULT_OTHERS, DEFAULT_SPACES,
};
pub use collections::{
    CollectionArgs, CollectionPlan, CollectionPlanError, IdfArg, IdfSource, DEFAULT_IDF_PAGES,
    DEFAULT_MIN_OVERLAP, DEFAULT_RESULTS, DEFAULT_TERMS, MIN_SEED_PAGES,
};
pub use context::{
    ContextArgs, ContextPlan, ContextPlanError, DEFAULT_DEPTH, DEFAULT_LAYER_CAP,
    DEFAULT_REFERENCE_PAGES, DEFAULT_TARGETS,
};
pub use focus_core::{ChildPriority, Crawler, Dispatch, Relevance, SoftOrder, Strategy};
pub use plan::{
    CrawlPlan, PlanError, TopicSource, DEFAULT_CONCURRENCY, DEFAULT_DISTILL_EVERY,
    DEFAULT_MAX_PAGES, DEFAULT_SEED,
};
