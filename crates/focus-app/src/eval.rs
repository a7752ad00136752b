//! Evaluations on a real, labelled corpus replayed on loopback
//! (`cargo xtask eval wikispeedia`): the training split every crawler and
//! classifier shares (`eval/split.rs`) and the classifier evaluation on it
//! (`eval/classify.rs`).

pub mod classify;
pub mod split;
