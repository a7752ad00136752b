//! Shared vocabulary of the focus crawlers: canonical URLs, page/host/domain
//! ids, topic ids, the taxonomy tree with the marks of the 1999 papers, the
//! names of crawl strategies with the crawl defaults, the output contract, and
//! how a page's bytes become its text (`charset`: one rule for fetched and
//! saved pages).
//!
//! This crate owns *names* and the few pure conversions every crate shares,
//! not crawl behaviour: it does no I/O (no files, no network, no clock) and
//! must not depend on any other `focus-*` crate.
//! Parsers here take text that a caller has already read, plus the name of
//! where it came from, so their errors can point at a file and line.
//!
//! # Example
//!
//! ```
//! use focus_core::{Canonicalizer, TaxonomyBuilder};
//!
//! let url = Canonicalizer::default().canonicalize("HTTP://WWW.Example.COM:80/a/../b?x=1#frag")?;
//! assert_eq!(url.as_str(), "http://www.example.com/b?x=1");
//! assert_eq!(url.host_key().as_str(), "www.example.com");
//!
//! let tax = TaxonomyBuilder::new()
//!     .topic("recreation/cycling")?
//!     .good("recreation/cycling")?
//!     .topic("business")?
//!     .build();
//! let cycling = tax.lookup("recreation/cycling")?;
//! assert_eq!(tax.good_topics(), vec![cycling]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod canon;
pub mod charset;
pub mod contract;
mod hash;
mod ids;
pub mod strategy;
mod taxonomy;
mod taxonomy_file;

pub use canon::{CanonError, CanonicalUrl, Canonicalizer, MAX_HOST_BYTES, MAX_URL_BYTES};
pub use contract::{Duplicate, DuplicateKind, PageLine, StopReason, Summary, TextLine};
pub use hash::{mix64, IdHasher, IdHashing};
pub use ids::{DomainKey, HostKey, PageId};
pub use strategy::{
    defaults, ChildPriority, Crawler, Dispatch, FeatureSpace, Flow, Relevance, SoftOrder, Strategy,
};
pub use taxonomy::{Mark, Taxonomy, TaxonomyBuilder, TaxonomyError, TopicId};
pub use taxonomy_file::{parse_taxonomy, FileErrorKind, TaxonomyFileError};
