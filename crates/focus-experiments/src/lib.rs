//! The experiments: the papers' reproductions on the websim ([`repro`],
//! `cargo xtask repro`) and the evaluations on real, labelled corpora
//! replayed on loopback ([`eval`], `cargo xtask eval`). Every crawl goes
//! through [`focus_app::run`], exactly as the binaries run it, and every
//! figure is computed from the crawls' own outputs.
//!
//! This crate owns no crawler logic and no composition: it depends on
//! `focus-app` for that, and only `focus-repro` (the binary) and tests
//! depend on it. It must not depend on a binary or on `xtask`, and needs no
//! Python: the scikit-learn reference is an optional script it runs when
//! one is installed.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bergmark;
pub mod bingo;
pub mod diligenti;
pub mod eval;
pub mod repro;

pub use focus_app::AppError;

/// A message as the experiments' input error.
pub(crate) fn input(e: impl std::fmt::Display) -> AppError {
    AppError::Input(e.to_string())
}

/// Every line of a `pages.jsonl` (or the reference's JSON lines): a line
/// that does not parse is an error, since the experiments read only files
/// their own crawls wrote.
pub(crate) fn page_lines(path: &std::path::Path) -> Result<Vec<focus_core::PageLine>, AppError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            focus_core::PageLine::parse(l).map_err(|e| input(format!("{}: {e}", path.display())))
        })
        .collect()
}

/// Refuses to write `path`, a result of crawls, once a stop was asked for
/// (Ctrl-C, SIGTERM, [`focus_app::request_stop`]): the crawl running then
/// ended early, and a result from it would pass a cut-short crawl for a
/// finished one.
pub(crate) fn unless_stopped(path: &std::path::Path) -> Result<(), AppError> {
    if focus_app::stop_requested() {
        return Err(AppError::Stopped(format!(
            "{} not written: a stop was asked for, so a crawl it reports on may have been cut short",
            path.display()
        )));
    }
    Ok(())
}

/// Writes a report or figure, naming the file on failure; refuses after a
/// stop ([`unless_stopped`]).
pub(crate) fn write(path: &std::path::Path, body: &str) -> Result<(), AppError> {
    unless_stopped(path)?;
    std::fs::write(path, body).map_err(|e| input(format!("{}: {e}", path.display())))
}
