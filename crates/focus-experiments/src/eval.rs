//! Evaluations on a real, labelled corpus replayed on loopback
//! (`cargo xtask eval wikispeedia`, `cargo xtask eval corpus --corpus
//! PATH`): the training split every crawler and
//! classifier shares (`eval/split.rs`), the classifier evaluation on it
//! (`eval/classify/`: evaluation, report, svmlight export), the crawlers and seed protocols it names (`eval/crawler.rs`), the crawls (`eval/crawls.rs`; their scores and the oracle's bound, `eval/scoring.rs`; BINGO! and the
//! context-graph crawlers through their own compositions, `eval/own_app.rs`),
//! the optional scikit-learn reference crawler (`eval/reference.rs`), the
//! report with its curves (`eval/report.rs`; its lines comparing the
//! crawlers, `eval/comparisons.rs`) and the comparison with the
//! reference repeated on several training splits (`eval/splits.rs`), with
//! its paired statistics (`eval/paired.rs`), each split's scores saved
//! beside its crawls (`eval/saved.rs`) and a new build's default crawl
//! paired with a saved run's (`eval/against.rs`).

mod against;
pub mod classify;
mod comparisons;
mod crawler;
pub mod crawls;
mod own_app;
mod paired;
pub mod reference;
mod report;
mod saved;
mod scoring;
pub mod split;
mod splits;

pub use against::against;
pub use report::crawl_report;
pub use splits::splits;
