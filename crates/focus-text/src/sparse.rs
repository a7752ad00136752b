//! Sparse term vectors: the currency between the featurizer, the
//! classifiers and the centroids. Entries are kept sorted by term id with no
//! duplicates and no zeros, so dot products are a linear merge.

use serde::{Deserialize, Serialize};

/// A term's id in a vocabulary (or a hashed feature index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TermId(pub u32);

/// A sparse vector of `(term, weight)` entries sorted by term id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SparseVec {
    entries: Vec<(TermId, f64)>,
}

impl SparseVec {
    /// The empty vector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds a vector from entries in any order; weights of repeated terms
    /// are added and zero weights dropped.
    pub fn from_unsorted(mut entries: Vec<(TermId, f64)>) -> Self {
        entries.sort_by_key(|&(t, _)| t);
        let mut out: Vec<(TermId, f64)> = Vec::with_capacity(entries.len());
        for (t, w) in entries {
            match out.last_mut() {
                Some((last, acc)) if *last == t => *acc += w,
                _ => out.push((t, w)),
            }
        }
        out.retain(|&(_, w)| w != 0.0);
        Self { entries: out }
    }

    /// Term counts as a vector (each occurrence weighs 1).
    pub fn from_terms<I: IntoIterator<Item = TermId>>(terms: I) -> Self {
        // Every weight is 1, so the order among equal ids cannot change a
        // sum: the bare ids are sorted (unstable, a third the bytes of
        // the pairs) and counted in runs.
        let mut ids: Vec<u32> = terms.into_iter().map(|t| t.0).collect();
        ids.sort_unstable();
        let mut entries: Vec<(TermId, f64)> = Vec::new();
        for run in ids.chunk_by(|a, b| a == b) {
            entries.push((TermId(run[0]), run.len() as f64));
        }
        Self { entries }
    }

    /// The entries, sorted by term id.
    pub fn entries(&self) -> &[(TermId, f64)] {
        &self.entries
    }

    /// Number of non-zero entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no non-zero entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The weight of `term` (0 when absent).
    pub fn get(&self, term: TermId) -> f64 {
        self.entries
            .binary_search_by_key(&term, |&(t, _)| t)
            .map_or(0.0, |i| self.entries[i].1)
    }

    /// Sum of weights (the document length for a count vector).
    pub fn sum(&self) -> f64 {
        self.entries.iter().map(|&(_, w)| w).sum()
    }

    /// Largest weight (0 for the empty vector).
    pub fn max(&self) -> f64 {
        self.entries.iter().map(|&(_, w)| w).fold(0.0, f64::max)
    }

    /// Euclidean norm.
    pub fn norm(&self) -> f64 {
        self.entries.iter().map(|&(_, w)| w * w).sum::<f64>().sqrt()
    }

    /// Dot product by a linear merge over the sorted entries.
    pub fn dot(&self, other: &SparseVec) -> f64 {
        let (mut i, mut j, mut acc) = (0, 0, 0.0);
        let (a, b) = (&self.entries, &other.entries);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    acc += a[i].1 * b[j].1;
                    i += 1;
                    j += 1;
                }
            }
        }
        acc
    }

    /// Number of terms present in both vectors.
    pub fn overlap(&self, other: &SparseVec) -> usize {
        let (mut i, mut j, mut n) = (0, 0, 0);
        let (a, b) = (&self.entries, &other.entries);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    n += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        n
    }

    /// Cosine similarity (0 when either vector is zero).
    pub fn cosine(&self, other: &SparseVec) -> f64 {
        let d = self.norm() * other.norm();
        if d == 0.0 {
            0.0
        } else {
            self.dot(other) / d
        }
    }

    /// Scales every weight by `factor`.
    pub fn scale(&mut self, factor: f64) {
        if factor == 0.0 {
            self.entries.clear();
        } else {
            for e in &mut self.entries {
                e.1 *= factor;
            }
        }
    }

    /// Scales to unit Euclidean norm (the zero vector stays zero).
    pub fn l2_normalize(&mut self) {
        let n = self.norm();
        if n > 0.0 {
            self.scale(1.0 / n);
        }
    }

    /// Keeps the `k` entries of largest weight (ties broken by smaller term
    /// id, so the result is deterministic).
    pub fn truncate_top_k(&mut self, k: usize) {
        if self.entries.len() <= k {
            return;
        }
        let mut by_weight = std::mem::take(&mut self.entries);
        by_weight.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        by_weight.truncate(k);
        by_weight.sort_by_key(|&(t, _)| t);
        self.entries = by_weight;
    }

    /// Maps every weight through `f`, dropping results that are zero.
    pub fn map_weights(&mut self, mut f: impl FnMut(TermId, f64) -> f64) {
        for e in &mut self.entries {
            e.1 = f(e.0, e.1);
        }
        self.entries.retain(|&(_, w)| w != 0.0);
    }

    /// Adds `factor * other` to this vector.
    pub fn add_scaled(&mut self, other: &SparseVec, factor: f64) {
        let mut merged = Vec::with_capacity(self.entries.len() + other.entries.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.entries, &other.entries);
        while i < a.len() || j < b.len() {
            let take_a = j >= b.len() || (i < a.len() && a[i].0 < b[j].0);
            let take_b = i >= a.len() || (j < b.len() && b[j].0 < a[i].0);
            if take_a {
                merged.push(a[i]);
                i += 1;
            } else if take_b {
                merged.push((b[j].0, b[j].1 * factor));
                j += 1;
            } else {
                merged.push((a[i].0, a[i].1 + b[j].1 * factor));
                i += 1;
                j += 1;
            }
        }
        merged.retain(|&(_, w)| w != 0.0);
        self.entries = merged;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    #[test]
    fn construction_sorts_merges_and_drops_zeros() {
        let x = v(&[(5, 1.0), (2, 2.0), (5, 3.0), (7, 0.0)]);
        assert_eq!(x.entries(), &[(TermId(2), 2.0), (TermId(5), 4.0)]);
        assert_eq!(
            SparseVec::from_terms([TermId(3), TermId(1), TermId(3)]).get(TermId(3)),
            2.0
        );
    }

    proptest::proptest! {
        /// Counting runs of sorted ids is the general construction with
        /// every weight 1, to the bit.
        #[test]
        fn term_counts_are_the_weighted_construction(ids in proptest::collection::vec(0u32..50, 0..200)) {
            let counted = SparseVec::from_terms(ids.iter().map(|&t| TermId(t)));
            let general = SparseVec::from_unsorted(ids.iter().map(|&t| (TermId(t), 1.0)).collect());
            proptest::prop_assert_eq!(counted, general);
        }
    }

    #[test]
    fn hand_worked_products() {
        let a = v(&[(1, 1.0), (2, 2.0), (4, 2.0)]);
        let b = v(&[(2, 3.0), (3, 5.0), (4, 1.0)]);
        assert_eq!(a.dot(&b), 8.0);
        assert_eq!(a.norm(), 3.0);
        assert_eq!(a.overlap(&b), 2);
        assert!((a.cosine(&b) - 8.0 / (3.0 * 35f64.sqrt())).abs() < 1e-12);
        let mut c = a.clone();
        c.add_scaled(&b, -1.0);
        assert_eq!(c, v(&[(1, 1.0), (2, -1.0), (3, -5.0), (4, 1.0)]));
    }

    #[test]
    fn top_k_is_deterministic_on_ties() {
        let mut a = v(&[(9, 1.0), (3, 2.0), (1, 1.0), (4, 2.0)]);
        a.truncate_top_k(3);
        assert_eq!(a, v(&[(1, 1.0), (3, 2.0), (4, 2.0)]));
    }

    #[test]
    fn normalisation() {
        let mut a = v(&[(1, 3.0), (2, 4.0)]);
        a.l2_normalize();
        assert!((a.norm() - 1.0).abs() < 1e-12);
        let mut z = SparseVec::new();
        z.l2_normalize();
        assert!(z.is_empty());
    }
}
