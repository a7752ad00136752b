//! The frontier tests' candidates: `cand(host, path, depth, priority)` is
//! `http://h{host}.example/p{path}`, and `drain` pops everything. Each
//! test file uses some of them.

#![allow(dead_code)]

use focus_core::Canonicalizer;
use focus_frontier::{Candidate, Frontier};

pub(crate) fn cand(host: u8, path: u16, depth: u32, priority: f64) -> Candidate {
    let url = Canonicalizer::default()
        .canonicalize(&format!("http://h{host}.example/p{path}"))
        .unwrap();
    Candidate::new(url, depth, None, priority)
}

/// Pushes, then pops everything with every host done immediately.
pub(crate) fn drain(f: &mut Frontier) -> Vec<Candidate> {
    let mut out = Vec::new();
    while let Some(c) = f.pop_ready(0) {
        f.host_done(&c.host, 0);
        out.push(c);
    }
    out
}
