//! Evaluations on a real, labelled corpus replayed on loopback
//! (`cargo xtask eval wikispeedia`): the training split every crawler and
//! classifier shares (`eval/split.rs`).

pub mod split;
