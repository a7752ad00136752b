//! Page analysis for crawlers, on html5ever's spec-compliant tokenizer:
//! title, visible text (script, style, template and noscript removed),
//! navigation/header/footer/aside boilerplate kept apart, headings, every
//! link (`a`, `area`, `frame`, `iframe`) with anchor text, `rel=nofollow`
//! and the text around it, `<base href>`, meta robots and meta charset.
//! Links come out resolved and canonical.
//!
//! No tree is built and nothing recurses, so depth and size cost only
//! linear time: a 100,000-deep nesting is as safe as a flat page. This crate
//! does no I/O; it depends on `focus-core` and html5ever and must not depend
//! on the fetcher, text features or classifiers.
//!
//! # Example
//!
//! ```
//! use focus_core::Canonicalizer;
//!
//! let canon = Canonicalizer::default();
//! let base = canon.canonicalize("http://example.com/dir/page.html")?;
//! let html = r#"<html><head><title>Tours</title></head><body>
//!   <nav><a href="/">Home</a></nav>
//!   <p>Read about <a href="alps.html">the Alps by bike</a>.</p></body></html>"#;
//! let doc = focus_html::analyze(html, &base, &canon);
//! assert_eq!(doc.title, "Tours");
//! let alps = doc.links.iter().find(|l| l.anchor_text == "the Alps by bike").unwrap();
//! assert_eq!(alps.url.as_str(), "http://example.com/dir/alps.html");
//! # Ok::<(), focus_core::CanonError>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod analyze;
mod document;
mod sink;

pub use analyze::analyze;
pub use document::{Document, Link, LinkKind, MetaRobots};
