//! Crawl metrics and plots: harvest rate (overall, moving average, last N)
//! from estimated relevance and from ground truth, recall, the crawl
//! summary of the output contract, and SVG plots written by hand (no font
//! or system library needed).
//!
//! Deterministic and I/O-free: functions return numbers and SVG strings;
//! callers write files. Depends on no other `focus-*` crate.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod harvest;
mod overlap;
mod svg;

pub use harvest::{Agreement, HarvestTracker, Summary, JUDGED_RELEVANT};
pub use overlap::{link_distances, overlap_curve};
pub use svg::{harvest_plot, histogram, line_chart, Series};
