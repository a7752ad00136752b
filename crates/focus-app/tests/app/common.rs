//! Helpers the end-to-end tests share.

use std::path::{Path, PathBuf};

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

/// The bytes of a closed store's files (sled's `db` and its blobs), as
/// `summary.json`'s `store_bytes` gives them.
pub(crate) fn store_files(store: &Path) -> u64 {
    let file = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let blobs: u64 = std::fs::read_dir(store.join("blobs")).map_or(0, |d| {
        d.filter_map(Result::ok).map(|e| file(&e.path())).sum()
    });
    file(&store.join("db")) + blobs
}

/// A file `notes.txt` holding "mine" in `dir`, for the tests that give a
/// crawl an `--out` under a file.
pub(crate) fn a_file(dir: &Path) -> PathBuf {
    let file = dir.join("notes.txt");
    std::fs::write(&file, "mine").unwrap();
    file
}
