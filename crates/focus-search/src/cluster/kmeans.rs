//! Spherical k-means: the [`Clustering`] it produces, greedy k-means++
//! seeding from a seeded ChaCha8 RNG, Lloyd iterations (assignment,
//! refilling empty clusters, recomputing centroids) and the [`RESTARTS`]
//! runs of which the best is kept.

use focus_text::vocab::Vocab;
use focus_text::{SparseVec, TermId};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::label::label;

/// Independent k-means++ runs per [`kmeans`] call; the run with the highest
/// total cosine similarity of documents to their centroids is kept (earliest
/// on ties). Lloyd iterations cannot undo a bad seeding (two seeds in one
/// true group); with a single run the three-group test below fails for some
/// seeds, with five it holds for all that it tries.
pub const RESTARTS: usize = 5;

/// The result of [`kmeans`]: a cluster per document and a unit-length
/// centroid per cluster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Clustering {
    /// `assignment[i]` is document `i`'s cluster, in `0..centroids.len()`.
    pub assignment: Vec<usize>,
    /// The L2-normalised mean direction of each cluster's (normalised)
    /// members.
    pub centroids: Vec<SparseVec>,
}

impl Clustering {
    /// Number of clusters.
    pub fn k(&self) -> usize {
        self.centroids.len()
    }

    /// Number of documents in each cluster.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.k()];
        for &a in &self.assignment {
            if let Some(s) = sizes.get_mut(a) {
                *s += 1;
            }
        }
        sizes
    }

    /// The documents of `cluster`, in index order.
    pub fn members(&self, cluster: usize) -> Vec<usize> {
        (0..self.assignment.len())
            .filter(|&i| self.assignment[i] == cluster)
            .collect()
    }

    /// [`label`] for every cluster.
    pub fn labels<V: Vocab + ?Sized>(&self, vocab: &V, n: usize) -> Vec<Vec<String>> {
        (0..self.k())
            .map(|j| label(&self.centroids, j, vocab, n))
            .collect()
    }
}

/// `doc · centroid`, by lookups into the (usually much longer) centroid.
fn sim(doc: &SparseVec, centroid: &SparseVec) -> f64 {
    if doc.len().saturating_mul(8) < centroid.len() {
        doc.entries()
            .iter()
            .map(|&(t, w)| w * centroid.get(t))
            .sum()
    } else {
        doc.dot(centroid)
    }
}

/// Spherical k-means: partitions `docs` into `k` clusters maximising the
/// total cosine similarity of each document to its cluster's centroid.
///
/// * Documents are L2-normalised copies; a zero vector has similarity 0 to
///   every centroid.
/// * `k` is clamped to `1..=docs.len()`; no documents give an empty
///   [`Clustering`].
/// * Seeding is greedy k-means++ (Arthur & Vassilvitskii 2007; the greedy
///   variant samples `2 + ⌊ln k⌋` candidates per step and keeps the one that
///   lowers the potential most) with the spherical distance `1 − cos`,
///   drawn from `ChaCha8Rng::seed_from_u64(seed)`. [`RESTARTS`] runs are
///   made from the one RNG stream and the best is kept.
/// * Each iteration assigns every document to its most similar centroid
///   (lowest cluster index on ties), then refills any empty cluster with the
///   document least similar to its centroid among clusters of two or more
///   (lowest document index on ties), then recomputes centroids as the
///   normalised sum of members. It stops when an assignment repeats or after
///   `max_iter` iterations (at least one).
///
/// Same documents, `k`, `seed` and `max_iter` give the same clustering.
pub fn kmeans(docs: &[SparseVec], k: usize, seed: u64, max_iter: usize) -> Clustering {
    if docs.is_empty() {
        return Clustering::default();
    }
    let k = k.clamp(1, docs.len());
    let unit: Vec<SparseVec> = docs
        .iter()
        .map(|d| {
            let mut u = d.clone();
            u.l2_normalize();
            u
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut best: Option<(f64, Clustering)> = None;
    for _ in 0..RESTARTS {
        let seeds = seed_plus_plus(&unit, k, &mut rng);
        let (clustering, objective) = lloyd(&unit, &seeds, max_iter);
        if best.as_ref().is_none_or(|(b, _)| objective > *b) {
            best = Some((objective, clustering));
        }
    }
    best.map(|(_, c)| c).unwrap_or_default()
}

/// Samples an index with probability proportional to `weights`.
pub(super) fn sample(weights: &[f64], total: f64, rng: &mut ChaCha8Rng) -> usize {
    let target = rng.random::<f64>() * total;
    let mut acc = 0.0;
    let mut last_positive = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            acc += w;
            last_positive = i;
            if acc > target {
                return i;
            }
        }
    }
    last_positive
}

/// Greedy k-means++ on unit vectors with distance `1 − cos`.
fn seed_plus_plus(unit: &[SparseVec], k: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let n = unit.len();
    let eligible: Vec<usize> = (0..n).filter(|&i| !unit[i].is_empty()).collect();
    if eligible.is_empty() {
        return (0..k).collect();
    }
    let distances = |c: usize, current: &[f64]| -> Vec<f64> {
        unit.iter()
            .zip(current)
            .enumerate()
            .map(|(i, (x, &d))| {
                if i == c || x.is_empty() {
                    0.0
                } else {
                    d.min((1.0 - x.dot(&unit[c])).max(0.0))
                }
            })
            .collect()
    };
    let first = eligible[rng.random_range(0..eligible.len())];
    let mut chosen = vec![first];
    let mut dist = distances(first, &vec![f64::INFINITY; n]);
    let trials = 2 + (k as f64).ln().floor() as usize;
    while chosen.len() < k {
        let total: f64 = dist.iter().sum();
        let next = if total > 0.0 {
            let mut best: Option<(f64, usize, Vec<f64>)> = None;
            for _ in 0..trials {
                let c = sample(&dist, total, rng);
                let d = distances(c, &dist);
                let potential: f64 = d.iter().sum();
                if best.as_ref().is_none_or(|(p, _, _)| potential < *p) {
                    best = Some((potential, c, d));
                }
            }
            best.map(|(_, c, d)| {
                dist = d;
                c
            })
        } else {
            None
        };
        // Every remaining document coincides with a seed: take the lowest
        // unused index (an empty cluster is refilled during the iterations).
        let next = next.unwrap_or_else(|| (0..n).find(|i| !chosen.contains(i)).unwrap_or(0));
        chosen.push(next);
    }
    chosen
}

/// Lloyd iterations from `seeds`; returns the clustering and its objective
/// (total cosine similarity of documents to their centroids).
fn lloyd(unit: &[SparseVec], seeds: &[usize], max_iter: usize) -> (Clustering, f64) {
    let k = seeds.len();
    let mut centroids: Vec<SparseVec> = seeds.iter().map(|&i| unit[i].clone()).collect();
    let mut assignment: Vec<usize> = Vec::new();
    for _ in 0..max_iter.max(1) {
        let (mut next, sims) = assign(unit, &centroids);
        refill_empty(&mut next, &sims, k);
        let changed = next != assignment;
        assignment = next;
        centroids = recompute(unit, &assignment, k);
        if !changed {
            break;
        }
    }
    let objective = unit
        .iter()
        .zip(&assignment)
        .map(|(x, &a)| sim(x, &centroids[a]))
        .sum();
    (
        Clustering {
            assignment,
            centroids,
        },
        objective,
    )
}

/// Most similar centroid per document (lowest index on ties) and that
/// similarity.
fn assign(unit: &[SparseVec], centroids: &[SparseVec]) -> (Vec<usize>, Vec<f64>) {
    unit.iter()
        .map(|x| {
            let mut best = (0, f64::NEG_INFINITY);
            for (j, c) in centroids.iter().enumerate() {
                let s = sim(x, c);
                if s > best.1 {
                    best = (j, s);
                }
            }
            best
        })
        .unzip()
}

/// Gives every empty cluster the document least similar to its centroid
/// among clusters of size ≥ 2 (lowest index on ties).
fn refill_empty(assignment: &mut [usize], sims: &[f64], k: usize) {
    let mut sizes = vec![0usize; k];
    for &a in assignment.iter() {
        sizes[a] += 1;
    }
    for j in 0..k {
        if sizes[j] > 0 {
            continue;
        }
        let donor = (0..assignment.len())
            .filter(|&i| sizes[assignment[i]] >= 2)
            .min_by(|&a, &b| sims[a].total_cmp(&sims[b]).then(a.cmp(&b)));
        let Some(i) = donor else { return };
        sizes[assignment[i]] -= 1;
        assignment[i] = j;
        sizes[j] = 1;
    }
}

/// Normalised sum of each cluster's members.
fn recompute(unit: &[SparseVec], assignment: &[usize], k: usize) -> Vec<SparseVec> {
    let mut parts: Vec<Vec<(TermId, f64)>> = vec![Vec::new(); k];
    for (x, &a) in unit.iter().zip(assignment) {
        parts[a].extend_from_slice(x.entries());
    }
    parts
        .into_iter()
        .map(|entries| {
            let mut c = SparseVec::from_unsorted(entries);
            c.l2_normalize();
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::test_data::{same_partition, synthetic, zipf_groups};
    use crate::cluster::{choose_k, impurity};

    #[test]
    fn kmeans_recovers_three_separated_groups() {
        for data_seed in 0..4 {
            let (docs, truth, _) = synthetic(3, 20, data_seed);
            for seed in 0..5 {
                let c = kmeans(&docs, 3, seed, 50);
                assert_eq!(c.k(), 3);
                assert!(
                    same_partition(&c.assignment, &truth),
                    "data {data_seed} seed {seed}: {:?}",
                    c.assignment
                );
                assert!(c.centroids.iter().all(|x| (x.norm() - 1.0).abs() < 1e-9));
                assert_eq!(c.sizes(), vec![20, 20, 20]);
            }
        }
        let (docs, truth) = zipf_groups(3, 15, 1);
        assert!(same_partition(&kmeans(&docs, 3, 9, 50).assignment, &truth));
    }

    #[test]
    fn same_seed_gives_the_same_clustering() {
        let (docs, _, _) = synthetic(4, 15, 3);
        for k in [2, 3, 5, 7] {
            let a = kmeans(&docs, k, 42, 20);
            assert_eq!(a, kmeans(&docs, k, 42, 20));
            assert_eq!(a.k(), k);
            assert!(a.sizes().iter().all(|&s| s > 0), "{k}: {:?}", a.sizes());
        }
        assert_eq!(choose_k(&docs, 1..=6, 5, 20), choose_k(&docs, 1..=6, 5, 20));
    }
    #[test]
    fn degenerate_inputs() {
        assert_eq!(kmeans(&[], 3, 0, 10), Clustering::default());
        assert_eq!(choose_k(&[], 1..=3, 0, 10), (0, Clustering::default()));
        let a = SparseVec::from_unsorted(vec![(TermId(1), 1.0)]);
        let b = SparseVec::from_unsorted(vec![(TermId(2), 1.0)]);
        // Duplicates: three copies of `a` and one `b` in three clusters:
        // every cluster keeps a member.
        let docs = vec![a.clone(), a.clone(), b, a];
        let c = kmeans(&docs, 3, 1, 10);
        assert_eq!(c.k(), 3);
        assert!(c.sizes().iter().all(|&s| s > 0), "{:?}", c.sizes());
        // k is clamped to 1..=n, and a zero vector is clustered too.
        assert_eq!(kmeans(&docs, 10, 1, 10).k(), 4);
        assert_eq!(kmeans(&docs, 0, 1, 10).k(), 1);
        let with_zero = vec![SparseVec::new(), docs[0].clone(), docs[2].clone()];
        let c = kmeans(&with_zero, 2, 0, 10);
        assert_eq!(c.assignment.len(), 3);
        assert_ne!(c.assignment[1], c.assignment[2]);
        assert!(impurity(&with_zero, &c).is_finite());
        // Cluster ids need not be dense.
        let sparse_ids = Clustering {
            assignment: vec![usize::MAX, 0, usize::MAX, 0],
            centroids: Vec::new(),
        };
        assert!(impurity(&docs, &sparse_ids).is_finite());
        // A range beyond n is clamped.
        let (k, _) = choose_k(&docs, 7..=9, 0, 10);
        assert_eq!(k, 4);
    }
}
