//! The crawler's fetcher: a polite, hardened HTTP(S) client.
//!
//! * [`FetchConfig`] — every knob, with real-web defaults, the
//!   [`FetchConfig::loopback`] and [`FetchConfig::replay`] presets; curl-style
//!   [`ConnectTo`] rules.
//! * [`Fetcher::fetch`] — robots.txt (RFC 9309, cached), per-host and
//!   per-domain politeness, redirects with loop detection, size/type/time
//!   limits enforced while streaming (a minimum transfer rate among
//!   them), decompression with a cap on the *decoded* size, charset
//!   decoding to UTF-8, `Retry-After`, and slow/bad host tagging that
//!   counts only the host's own faults and re-probes a host it set aside.
//!   Every outcome is a typed [`FetchOutcome`]; [`FetchError::retry`] says
//!   whether another attempt may succeed (a crawler retries through its
//!   frontier).
//! * [`Fetcher::robots_rules`] — robots.txt as already fetched
//!   ([`RobotsRules`]), read without a request, so a crawler can leave out
//!   the links it may not fetch instead of queueing them.
//! * [`DuplicateDetector`] — URL id, (IP, path), exact content hash and
//!   SimHash near-duplicates.
//!
//! This crate does network I/O and nothing else of the crawl: it must not
//! depend on the analysers, classifiers, frontier, store or websim.
//!
//! # Example
//!
//! Fetch a page of the synthetic web served on loopback (curl-style
//! `--connect-to` sends every host to the local listener):
//!
//! ```
//! use std::sync::Arc;
//! use focus_core::Canonicalizer;
//! use focus_fetch::{Body, ConnectTo, FetchConfig, Fetcher};
//! use focus_websim::{Web, WebConfig};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let web = Arc::new(Web::new(WebConfig::small(), 1)?);
//! let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse()?).await?;
//! let rule = ConnectTo::parse(&server.connect_to())?;
//! let fetcher = Fetcher::new(FetchConfig::loopback(vec![rule]))?;
//! let url = Canonicalizer::default().canonicalize(&web.page_url(0).unwrap())?;
//! let page = fetcher.fetch(&url).await?;
//! assert_eq!(page.status, 200);
//! assert!(matches!(page.body, Body::Text(_)));
//! server.shutdown().await;
//! # Ok(())
//! # }
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod body;
mod config;
mod connect;
mod dedup;
mod fetcher;
mod hosts;
mod outcome;
mod robots;
mod stats;

pub use config::{ConnectTo, ConnectToError, FetchConfig};
pub use dedup::{simhash, DuplicateDetector, DuplicateKind, Fingerprint};
pub use fetcher::Fetcher;
pub use hosts::HostStatus;
pub use outcome::{
    Body, FetchError, FetchOutcome, Fetched, Retry, RobotsDirectives, TimeoutPhase,
    ROBOTS_DISALLOWED,
};
pub use robots::{origin_of as robots_origin, RobotsRules};
pub use stats::FetchStats;
