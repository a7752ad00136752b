//! TF-IDF exactly as each paper defines it, behind one trait.
//!
//! * [`Bergmark`]: d_t = f_t · log(N/df_t), L2-normalised (N and df from
//!   the centroid corpus, or re-estimated from crawled pages by passing
//!   other statistics).
//! * [`Diligenti`]: d_t = f_t/f_max · log(N/f(t)), truncated to the
//!   `top_k` (40) largest components — "reduced TF-IDF".
//! * [`Bingo`]: d_t = f_t · log(N/df_t) with statistics of the local
//!   database (recomputed on retraining by passing fresh statistics),
//!   L2-normalised for the SVM.
//!
//! Terms with df = 0 are dropped (they cannot be weighed).

use crate::docfreq::CorpusStats;
use crate::sparse::SparseVec;

/// A weighting of term counts against corpus statistics.
pub trait Weighting: Send + Sync {
    /// Weighs a term-count vector.
    fn weigh(&self, counts: &SparseVec, stats: &dyn CorpusStats) -> SparseVec;
}

fn idf(stats: &dyn CorpusStats, df: u64) -> Option<f64> {
    (df > 0 && stats.num_docs() > 0).then(|| (stats.num_docs() as f64 / df as f64).ln())
}

fn tf_idf(counts: &SparseVec, stats: &dyn CorpusStats, scale: f64) -> SparseVec {
    SparseVec::from_unsorted(
        counts
            .entries()
            .iter()
            .filter_map(|&(t, f)| idf(stats, stats.doc_freq(t)).map(|i| (t, f * scale * i)))
            .collect(),
    )
}

/// Bergmark 2002.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bergmark;

impl Weighting for Bergmark {
    fn weigh(&self, counts: &SparseVec, stats: &dyn CorpusStats) -> SparseVec {
        let mut v = tf_idf(counts, stats, 1.0);
        v.l2_normalize();
        v
    }
}

/// Diligenti et al. 2000 (reduced TF-IDF).
#[derive(Debug, Clone, Copy)]
pub struct Diligenti {
    /// Components kept (the paper: 40).
    pub top_k: usize,
}

impl Default for Diligenti {
    fn default() -> Self {
        Self { top_k: 40 }
    }
}

impl Weighting for Diligenti {
    fn weigh(&self, counts: &SparseVec, stats: &dyn CorpusStats) -> SparseVec {
        let f_max = counts.max();
        if f_max <= 0.0 {
            return SparseVec::new();
        }
        let mut v = tf_idf(counts, stats, 1.0 / f_max);
        v.truncate_top_k(self.top_k);
        v
    }
}

/// BINGO! 2003.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bingo;

impl Weighting for Bingo {
    fn weigh(&self, counts: &SparseVec, stats: &dyn CorpusStats) -> SparseVec {
        let mut v = tf_idf(counts, stats, 1.0);
        v.l2_normalize();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docfreq::DocFreq;
    use crate::sparse::TermId;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    /// N = 4; df(1) = 1, df(2) = 2, df(3) = 4.
    fn stats() -> DocFreq {
        let mut d = DocFreq::new();
        for doc in [
            v(&[(1, 1.0), (2, 1.0), (3, 1.0)]),
            v(&[(2, 1.0), (3, 1.0)]),
            v(&[(3, 1.0)]),
            v(&[(3, 1.0)]),
        ] {
            d.add_document(&doc);
        }
        d
    }

    #[test]
    fn bergmark_hand_worked() {
        // d = {1: 2, 2: 1, 3: 5}: 2·ln4, 1·ln2, 5·ln1 = 0 → normalised.
        let w = Bergmark.weigh(&v(&[(1, 2.0), (2, 1.0), (3, 5.0), (9, 1.0)]), &stats());
        let (a, b) = (2.0 * 4f64.ln(), 2f64.ln());
        let n = (a * a + b * b).sqrt();
        assert!((w.get(TermId(1)) - a / n).abs() < 1e-12);
        assert!((w.get(TermId(2)) - b / n).abs() < 1e-12);
        assert_eq!(w.len(), 2, "idf 0 and unknown terms vanish");
    }

    #[test]
    fn diligenti_hand_worked_and_truncated() {
        // f_max = 4: {1: 2/4·ln4, 2: 4/4·ln2}.
        let w = Diligenti::default().weigh(&v(&[(1, 2.0), (2, 4.0)]), &stats());
        assert!((w.get(TermId(1)) - 0.5 * 4f64.ln()).abs() < 1e-12);
        assert!((w.get(TermId(2)) - 2f64.ln()).abs() < 1e-12);
        let one = Diligenti { top_k: 1 }.weigh(&v(&[(1, 2.0), (2, 4.0)]), &stats());
        assert_eq!(one.len(), 1);
        assert!(
            one.get(TermId(1)) > 0.0,
            "0.5·ln4 = ln2 ties with ln2; the smaller id wins"
        );
    }

    #[test]
    fn bingo_recomputes_with_new_statistics() {
        let d = v(&[(1, 1.0), (2, 1.0)]);
        let before = Bingo.weigh(&d, &stats());
        let mut more = stats();
        more.add_document(&v(&[(1, 1.0)]));
        let after = Bingo.weigh(&d, &more);
        assert!((before.norm() - 1.0).abs() < 1e-12);
        assert_ne!(before, after);
    }
}
