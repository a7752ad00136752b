//! Helpers the end-to-end tests share.

use std::path::Path;

use focus_core::PageLine;

/// Every line of a crawl's `pages.jsonl` in `out`.
pub(crate) fn lines(out: &Path) -> Vec<PageLine> {
    std::fs::read_to_string(out.join("pages.jsonl"))
        .unwrap()
        .lines()
        .map(|l| PageLine::parse(l).unwrap())
        .collect()
}

/// The URLs of the crawl's `pages.jsonl` in `out`, in order.
pub(crate) fn urls(out: &Path) -> Vec<String> {
    lines(out).into_iter().map(|l| l.url).collect()
}
