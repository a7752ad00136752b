//! Crawl and classifier metrics and plots: harvest rate (overall, moving
//! average, last N) from estimated relevance and from ground truth, recall,
//! the crawl summary of the output contract; ROC AUC, Brier score,
//! reliability bins, and accuracy / macro-F1 against multi-label truth for
//! classifiers; and SVG plots written by hand (no font or system library
//! needed).
//!
//! Deterministic and I/O-free: functions return numbers and SVG strings;
//! callers write files. Depends on no `focus-*` crate but `focus-core` (for
//! the `summary.json` struct, [`Summary`]).
//!
//! # Example
//!
//! ```
//! use focus_eval::{brier, roc_auc, HarvestTracker};
//!
//! // Relevance scores that rank every relevant page above every other one.
//! let (scores, truth) = ([0.9, 0.8, 0.3, 0.1], [true, true, false, false]);
//! assert_eq!(roc_auc(&scores, &truth), Some(1.0));
//! assert!(brier(&scores, &truth).unwrap() < 0.1);
//!
//! let mut h = HarvestTracker::new(2);
//! for (r, t) in [(1.0, true), (0.0, false)] {
//!     h.push(r, Some(t));
//! }
//! assert_eq!(h.harvest_true(), Some(0.5));
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod brier;
mod harvest;
mod multilabel;
mod overlap;
mod reliability;
mod roc;
mod svg;

pub use brier::brier;
pub use focus_core::Summary;
pub use harvest::{Agreement, HarvestTracker, JUDGED_RELEVANT};
pub use multilabel::{multilabel_scores, LabelScores};
pub use overlap::{link_distances, overlap_curve};
pub use reliability::{reliability_bins, ReliabilityBin};
pub use roc::roc_auc;
pub use svg::{harvest_plot, histogram, line_chart, reliability_plot, scatter, Series};
