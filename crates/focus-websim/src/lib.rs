//! The synthetic web (websim): a deterministic, seedable topical web with
//! ground truth, generated page by page from ids and served over HTTP/1.1 on
//! one loopback listener that dispatches on the `Host` header.
//!
//! * [`WebConfig`] (TOML, `fixtures/websim/*.toml`) and [`Web::new`] build
//!   the web: taxonomy, topic language models, hosts and their layout.
//! * [`Web::render`] answers one request without any network: pages, faults,
//!   robots.txt, the backlink and search services.
//! * [`Corpus::load`] reads a recorded, labelled corpus (the Wikispeedia
//!   folder, or `.html` files with a `labels.tsv`) to replay it instead.
//! * [`Site`] is what both are to the rest of the project: requests,
//!   services, seeds, samples and the evaluation-only truth; [`serve`] runs
//!   the HTTP server for any `Site` on the current tokio runtime.
//! * [`Web::truth`], [`Web::truth_share`] and [`Web::dump_truth`] are the
//!   ground truth: **evaluation only — no crawler may read them.**
//! * [`write_static_site`] writes a web out as files for a stock HTTP
//!   server (the peer benchmark); [`write_labelled_folder`] writes it as a
//!   labelled folder, to replay as a multi-host corpus; [`delay_proxy`]
//!   puts a [`Latency`] in front of any server (nginx serving those files).
//! * [`stats::calibrate`] measures the calibration figures of the issue.
//!
//! This crate depends on `focus-core` alone among the `focus-*` crates; it
//! must not depend on the fetcher, analysers, classifiers or crawlers (they
//! are what it judges).
//!
//! # Example
//!
//! ```
//! use focus_websim::{Site, Web, WebConfig};
//!
//! let web = Web::new(WebConfig::small(), 1)?;
//! let cycling = web.taxonomy().find("recreation/outdoors/cycling").unwrap();
//! let seed = &web.seed_urls(cycling, 1)[0];
//! let (host, path) = seed.trim_start_matches("http://").split_once('/').unwrap();
//! let page = web.render(host, &format!("/{path}"));
//! assert_eq!(page.status, 200);
//! // Ground truth, for evaluation only.
//! assert_eq!(web.truth(seed), Some(cycling));
//! # Ok::<(), focus_websim::WebsimError>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod config;
mod corpus;
mod delay_proxy;
mod faults;
mod hosts;
mod html;
mod index;
mod labelled_export;
mod latency;
mod links;
mod mixture;
mod response;
mod rng;
mod server;
mod site;
mod spread_export;
mod static_site;
pub mod stats;
mod stats_nb;
mod template;
mod text;
mod topics;
mod urls;
mod vocab;
mod web;

pub use config::{
    FaultKind, FaultSpec, LinkConfig, MixConfig, PageFault, TopicRole, TopicSpec, WebConfig,
};
pub use corpus::{Corpus, CORPUS_SEARCH_HOST, WIKISPEEDIA_HOST};
pub use delay_proxy::delay_proxy;
pub use labelled_export::write_labelled_folder;
pub use latency::Latency;
pub use links::{Link, LinkTarget};
pub use response::{Action, Response};
pub use server::{serve, serve_with, ServerHandle};
pub use site::{render_service, Site};
pub use spread_export::{write_spread_folder, Spread};
pub use static_site::{write_static_site, StaticSite};
pub use web::{PageRef, Web, SEED_POOL};

/// Why a web cannot be built, loaded or served.
#[derive(Debug, thiserror::Error)]
pub enum WebsimError {
    /// The configuration text is not valid TOML for a [`WebConfig`].
    #[error("invalid websim configuration {file}: {message}")]
    Config {
        /// Where the configuration came from.
        file: String,
        /// What the parser said.
        message: String,
    },
    /// The configuration parses but describes an impossible web.
    #[error("invalid websim configuration: {0}")]
    Invalid(String),
    /// A taxonomy path in the configuration is not usable.
    #[error("taxonomy: {0}")]
    Taxonomy(focus_core::TaxonomyError),
    /// Reading a file or writing the example set failed.
    #[error("{path}: {cause}")]
    Io {
        /// The file or folder.
        path: String,
        /// The underlying error.
        cause: std::io::Error,
    },
    /// A corpus folder is missing a file or holds a malformed line.
    #[error("corpus {path}: {message}")]
    Corpus {
        /// The folder or file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Binding or running the server failed.
    #[error("server: {0}")]
    Server(std::io::Error),
}

// By hand rather than `#[from]`, which would also make the cause the
// error's `source()`: the message already carries it, and a chain printed
// whole would repeat it.
impl From<focus_core::TaxonomyError> for WebsimError {
    fn from(e: focus_core::TaxonomyError) -> Self {
        Self::Taxonomy(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e = crate::site::io(std::path::Path::new("web.toml"))(std::io::Error::other("gone"));
        assert_eq!(e.to_string(), "web.toml: gone");
        assert!(std::error::Error::source(&e).is_none());
        let e = WebsimError::from(focus_core::TaxonomyError::UnknownTopic("x".into()));
        assert_eq!(e.to_string(), "taxonomy: unknown topic `x`");
        assert!(std::error::Error::source(&e).is_none());
    }
}
