//! Cluster labels: a cluster's most characteristic terms, its centroid's
//! weights against the mean of the other centroids, named by a vocabulary.

use focus_text::vocab::Vocab;
use focus_text::{SparseVec, TermId};

/// The mean of `vectors` (empty for no vectors).
fn mean(vectors: &[&SparseVec]) -> SparseVec {
    let entries: Vec<(TermId, f64)> = vectors
        .iter()
        .flat_map(|v| v.entries().iter().copied())
        .collect();
    let mut m = SparseVec::from_unsorted(entries);
    if !vectors.is_empty() {
        m.scale(1.0 / vectors.len() as f64);
    }
    m
}

/// The `n` most characteristic terms of cluster `cluster`, best first.
///
/// A term's score is its weight in the cluster's centroid minus its mean
/// weight in the other centroids,
/// `score(t) = c_j[t] − (1/(k−1)) Σ_{i≠j} c_i[t]` (just `c_j[t]` when
/// `k = 1`); only terms with a positive score qualify, ties go to the
/// smaller term id. So a term every cluster uses heavily (a topic's common
/// vocabulary) loses to the terms that set this cluster apart. Names come
/// from `vocab`; a term it cannot name (a hashing vocabulary) is shown as
/// `#<id>`. An out-of-range `cluster` gives no labels.
pub fn label<V: Vocab + ?Sized>(
    centroids: &[SparseVec],
    cluster: usize,
    vocab: &V,
    n: usize,
) -> Vec<String> {
    let Some(own) = centroids.get(cluster) else {
        return Vec::new();
    };
    let others: Vec<&SparseVec> = centroids
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != cluster)
        .map(|(_, c)| c)
        .collect();
    let background = mean(&others);
    let mut scored: Vec<(TermId, f64)> = own
        .entries()
        .iter()
        .map(|&(t, w)| (t, w - background.get(t)))
        .filter(|&(_, s)| s > 0.0)
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored
        .into_iter()
        .take(n)
        .map(|(t, _)| {
            vocab
                .term(t)
                .map_or_else(|| format!("#{}", t.0), str::to_owned)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::kmeans;
    use crate::cluster::test_data::{synthetic, PREFIXES};

    #[test]
    fn labels_name_each_groups_own_words() {
        let (docs, truth, vocab) = synthetic(3, 20, 11);
        let c = kmeans(&docs, 3, 0, 50);
        let labels = c.labels(&vocab, 5);
        for (j, names) in labels.iter().enumerate() {
            let group = truth[c.members(j)[0]];
            assert_eq!(names.len(), 5);
            assert!(
                names.iter().all(|n| n.starts_with(PREFIXES[group])),
                "cluster {j} (group {group}): {names:?}"
            );
        }
        // Hand-worked: a term both centroids weigh equally is not
        // characteristic; unnamed terms show their id.
        let c0 = SparseVec::from_unsorted(vec![(TermId(1), 0.8), (TermId(2), 0.6)]);
        let c1 = SparseVec::from_unsorted(vec![(TermId(2), 0.6), (TermId(3), 0.8)]);
        let hashing = focus_text::HashingVocabulary::new(8);
        assert_eq!(label(&[c0.clone(), c1.clone()], 0, &hashing, 5), ["#1"]);
        assert_eq!(label(&[c0.clone(), c1], 1, &hashing, 5), ["#3"]);
        assert_eq!(
            label(std::slice::from_ref(&c0), 0, &hashing, 5),
            ["#1", "#2"]
        );
        assert!(label(&[c0], 3, &hashing, 5).is_empty());
    }
}
