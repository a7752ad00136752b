//! Choosing the number of clusters: the entropy-based [`impurity`] of a
//! clustering (its two-part MDL/BIC description length) and [`choose_k`],
//! which runs [`kmeans`] for each `k` in a range and keeps the least impure.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use focus_text::{SparseVec, TermId};

use super::kmeans::{kmeans, Clustering};

/// Entropy-based impurity of a clustering: the two-part description length
/// (minimum description length in its BIC form), in nats per term
/// occurrence, of the documents' terms coded cluster by cluster. Lower is
/// purer.
///
/// Each document `d` with positive mass is read as `L_d = |d|` term
/// occurrences (its number of distinct terms: TF-IDF vectors no longer carry
/// raw counts, and this keeps the measure independent of how the weights
/// are scaled) distributed as `p_d = w_d / Σ w_d` (negative weights count as
/// 0; documents without mass are skipped). Cluster `j` has `n_j` documents,
/// `L_j = Σ_{d∈j} L_d` occurrences and the term distribution
/// `P_j = Σ_{d∈j} L_d·p_d / L_j` over `s_j` distinct terms; `n = Σ n_j`,
/// `L = Σ L_j`, and `k` counts the non-empty clusters. Then
///
/// ```text
/// impurity = ( Σ_j L_j·H(P_j)                        the terms, given their cluster
///            + Σ_j n_j·ln(n / n_j)                    each document's cluster
///            + ½·(Σ_j (s_j − 1) + k − 1)·ln L ) / L   the clusters' parameters
/// ```
///
/// with `H` the Shannon entropy in nats. The first part over `L` is the
/// size-weighted mean entropy of the clusters' term distributions: what
/// clustering lowers, and on its own it only falls as `k` grows (singletons
/// reach the documents' own entropies). The other parts are what stating
/// the clustering costs: each document's cluster (`n` times the entropy of
/// the cluster sizes) and each free parameter of the cluster models (the
/// term probabilities and the mixing weights) at the BIC/MDL price of
/// `½·ln L` nats. Merging two groups with different vocabularies raises the
/// entropy part by about `ln 2` per occurrence of their own words;
/// splitting a homogeneous group lowers it by less than the price of
/// stating its shared vocabulary twice; `k = n` pays for every document's
/// terms as parameters. So the minimum sits where clusters are as specific
/// as the evidence (the number of term occurrences) supports, with no tuned
/// constant. BIC is an asymptotic approximation: with very few, very short
/// documents per group (about ten documents of ten terms) it can split a
/// group.
///
/// `clustering.assignment` and `docs` are paired by index (extra entries of
/// either are ignored).
pub fn impurity(docs: &[SparseVec], clustering: &Clustering) -> f64 {
    /// One cluster's term occurrences (`(t, L_d·p_d(t))` entries), `n_j`
    /// and `L_j`.
    #[derive(Default)]
    struct Tally {
        entries: Vec<(TermId, f64)>,
        docs: usize,
        occurrences: f64,
    }
    let mut clusters: BTreeMap<usize, Tally> = BTreeMap::new();
    for (d, &a) in docs.iter().zip(&clustering.assignment) {
        let mut p = d.clone();
        p.map_weights(|_, w| w.max(0.0));
        let mass = p.sum();
        if mass <= 0.0 {
            continue;
        }
        let occurrences = p.len() as f64;
        let tally = clusters.entry(a).or_default();
        tally.entries.extend(
            p.entries()
                .iter()
                .map(|&(t, w)| (t, w / mass * occurrences)),
        );
        tally.docs += 1;
        tally.occurrences += occurrences;
    }
    let n = clusters.values().map(|c| c.docs).sum::<usize>() as f64;
    let total: f64 = clusters.values().map(|c| c.occurrences).sum();
    if clusters.is_empty() || total <= 0.0 {
        return 0.0;
    }
    let mut code = 0.0;
    let mut params = clusters.len() as f64 - 1.0;
    for tally in clusters.into_values() {
        let l_j = tally.occurrences;
        let counts = SparseVec::from_unsorted(tally.entries);
        let entropy: f64 = counts
            .entries()
            .iter()
            .map(|&(_, c)| {
                let p = c / l_j;
                -p * p.ln()
            })
            .sum();
        code += l_j * entropy + tally.docs as f64 * (n / tally.docs as f64).ln();
        params += counts.len() as f64 - 1.0;
    }
    (code + 0.5 * params * total.ln()) / total
}

/// Runs [`kmeans`] for every `k` in `k_range` (clamped to
/// `1..=docs.len()`; an empty range after clamping tries only its start,
/// clamped) and returns the `k` with the lowest [`impurity`] and its
/// clustering; ties go to the smaller `k`. No documents give
/// `(0, Clustering::default())`.
pub fn choose_k(
    docs: &[SparseVec],
    k_range: RangeInclusive<usize>,
    seed: u64,
    max_iter: usize,
) -> (usize, Clustering) {
    let n = docs.len();
    if n == 0 {
        return (0, Clustering::default());
    }
    let lo = (*k_range.start()).clamp(1, n);
    let hi = (*k_range.end()).min(n).max(lo);
    let mut best: Option<(f64, usize, Clustering)> = None;
    for k in lo..=hi {
        let clustering = kmeans(docs, k, seed, max_iter);
        let score = impurity(docs, &clustering);
        if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
            best = Some((score, k, clustering));
        }
    }
    best.map_or_else(
        || (0, Clustering::default()),
        |(_, k, clustering)| (k, clustering),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::test_data::{same_partition, synthetic, zipf_groups};

    #[test]
    fn choose_k_finds_the_number_of_groups() {
        for (groups, seed) in [(3, 1), (2, 2), (1, 3), (5, 4)] {
            let (docs, truth, _) = synthetic(groups, 20, seed);
            let (k, c) = choose_k(&docs, 1..=8, seed, 50);
            assert_eq!(k, groups, "toy data with {groups} groups");
            assert!(same_partition(&c.assignment, &truth));
        }
        for groups in [2, 3] {
            let (docs, truth) = zipf_groups(groups, 15, 7);
            let (k, c) = choose_k(&docs, 1..=6, 0, 50);
            assert_eq!(k, groups, "zipf data with {groups} groups");
            assert!(same_partition(&c.assignment, &truth));
        }
    }

    #[test]
    fn impurity_is_lowest_at_the_true_k_not_at_an_extreme() {
        let (docs, truth, _) = synthetic(3, 20, 5);
        let at = |k| impurity(&docs, &kmeans(&docs, k, 0, 50));
        let truth_clustering = Clustering {
            assignment: truth,
            centroids: vec![SparseVec::new(); 3],
        };
        let three = impurity(&docs, &truth_clustering);
        assert!((at(3) - three).abs() < 1e-12);
        let singletons = Clustering {
            assignment: (0..docs.len()).collect(),
            centroids: vec![SparseVec::new(); docs.len()],
        };
        assert!(three < at(1) && three < at(2) && three < at(4));
        assert!(three < impurity(&docs, &singletons));
        // Scaling a document's weights does not change it.
        let mut scaled = docs.clone();
        scaled[0].scale(7.0);
        assert!((impurity(&scaled, &truth_clustering) - three).abs() < 1e-12);
    }
}
