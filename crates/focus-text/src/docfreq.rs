//! Document-frequency statistics: updated incrementally, frozen when a
//! model is trained, and read by weightings through [`CorpusStats`].

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::sparse::{SparseVec, TermId};

/// What a weighting needs to know about a corpus.
pub trait CorpusStats {
    /// Documents in the corpus (N).
    fn num_docs(&self) -> u64;
    /// Documents containing the term.
    fn doc_freq(&self, term: TermId) -> u64;
}

/// Incremental document frequencies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocFreq {
    n: u64,
    df: HashMap<TermId, u64>,
    frozen: bool,
}

impl DocFreq {
    /// Empty statistics.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts a document (ignored once frozen).
    pub fn add_document(&mut self, counts: &SparseVec) {
        if self.frozen {
            return;
        }
        self.n += 1;
        for &(t, w) in counts.entries() {
            if w > 0.0 {
                *self.df.entry(t).or_insert(0) += 1;
            }
        }
    }

    /// Stops updates (statistics of a trained model).
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    /// True when frozen.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }
}

impl CorpusStats for DocFreq {
    fn num_docs(&self) -> u64 {
        self.n
    }
    fn doc_freq(&self, term: TermId) -> u64 {
        self.df.get(&term).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_then_frozen() {
        let mut d = DocFreq::new();
        d.add_document(&SparseVec::from_terms([TermId(1), TermId(1), TermId(2)]));
        d.add_document(&SparseVec::from_terms([TermId(1)]));
        assert_eq!(
            (
                d.num_docs(),
                d.doc_freq(TermId(1)),
                d.doc_freq(TermId(2)),
                d.doc_freq(TermId(3))
            ),
            (2, 2, 1, 0)
        );
        d.freeze();
        d.add_document(&SparseVec::from_terms([TermId(3)]));
        assert_eq!(d.num_docs(), 2);
    }
}
