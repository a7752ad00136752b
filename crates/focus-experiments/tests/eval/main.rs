//! Tests of the real-corpus evaluation (`focus_experiments::eval`): the
//! classifier evaluation and crawls of the replayed Wikispeedia corpus
//! (skipped when it is absent), and the evaluation of a labelled
//! multi-host folder with dead links. One test binary, so the workspace
//! links one instead of three. `tests/after_stop.rs` stays a binary of its
//! own: a stop is for the whole process and would stop every crawl here.

mod common;

mod classify_corpus;
mod corpus_crawl;
mod eval_labelled;
