//! Helpers the evaluation tests share.

use std::path::PathBuf;

use focus_websim::Corpus;

/// The Wikispeedia corpus beside the checkout (`../shared/corpora/wikispeedia`,
/// or env `FOCUS_WIKISPEEDIA`), or `None` with a "skipped" message: it is
/// not part of this repository.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    Corpus::beside_checkout(env!("CARGO_MANIFEST_DIR"), "wikispeedia")
        .map_err(|why| eprintln!("skipped: {why}"))
        .ok()
}
