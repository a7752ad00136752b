//! The focused-crawl engine and its policies: fetch → analyse → featurise →
//! classify → policy → frontier/store, with periodic distillation and
//! stagnation diagnosis.
//!
//! A crawler's personality is a [`policy`] plus a classifier and a frontier
//! discipline; adding a crawler never touches the engine. This crate must
//! not depend on `focus-websim` (ground truth is for evaluation only) and
//! holds no command-line parsing (that is `focus-cli`).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod policy;
pub mod stagnation;
