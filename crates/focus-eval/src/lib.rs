//! Crawl and classifier metrics and plots: harvest rate (overall, moving
//! average, last N) from estimated relevance and from ground truth, recall,
//! the crawl summary of the output contract; ROC AUC, Brier score,
//! reliability bins, and accuracy / macro-F1 against multi-label truth for
//! classifiers; and SVG plots written by hand (no font or system library
//! needed).
//!
//! Deterministic and I/O-free: functions return numbers and SVG strings;
//! callers write files. Depends on no other `focus-*` crate.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod brier;
mod harvest;
mod multilabel;
mod overlap;
mod reliability;
mod roc;
mod svg;

pub use brier::brier;
pub use harvest::{Agreement, HarvestTracker, Summary, JUDGED_RELEVANT};
pub use multilabel::{multilabel_scores, LabelScores};
pub use overlap::{link_distances, overlap_curve};
pub use reliability::{reliability_bins, ReliabilityBin};
pub use roc::roc_auc;
pub use svg::{harvest_plot, histogram, line_chart, reliability_plot, Series};
