//! Mutual-information feature selection (BINGO! §2.3), usable by every
//! family: MI(X, V) = P\[X ∧ V\] · log(P\[X ∧ V\] / (P\[X\] · P\[V\])) over document
//! presence; a term's score is its best MI over the classes of the node.
//! Candidates are pre-selected by total term frequency.

use std::collections::HashMap;

use focus_core::IdHashing;
use focus_text::{SparseVec, TermId};
use serde::{Deserialize, Serialize};

/// How many features to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureConfig {
    /// Features kept per node (BINGO!: 2000). `0` keeps every candidate.
    pub top_k: usize,
    /// Most frequent terms evaluated (BINGO!: 5000). `0` evaluates all.
    pub candidates: usize,
}

impl Default for FeatureConfig {
    fn default() -> Self {
        Self {
            top_k: 2000,
            candidates: 5000,
        }
    }
}

/// Highest value first, ties to the smaller term id: the order of both
/// the frequency pre-selection and the scores.
fn highest_first(a: &(TermId, f64), b: &(TermId, f64)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Keeps the first `k` of `v` in [`highest_first`] order, in no order
/// (`0`, or at least `v.len()`, keeps all).
fn keep_highest(v: &mut Vec<(TermId, f64)>, k: usize) {
    if k > 0 && k < v.len() {
        v.select_nth_unstable_by(k - 1, highest_first);
        v.truncate(k);
    }
}

/// The MI score of every candidate term, highest first (ties: smaller id).
pub fn mi_scores(
    docs: &[(&SparseVec, usize)],
    num_classes: usize,
    candidates: usize,
) -> Vec<(TermId, f64)> {
    let mut scores = unsorted_mi_scores(docs, num_classes, candidates);
    scores.sort_by(highest_first);
    scores
}

/// [`mi_scores`] in no order.
fn unsorted_mi_scores(
    docs: &[(&SparseVec, usize)],
    num_classes: usize,
    candidates: usize,
) -> Vec<(TermId, f64)> {
    let n = docs.len() as f64;
    if docs.is_empty() || num_classes == 0 {
        return Vec::new();
    }
    let mut tf: HashMap<TermId, f64, IdHashing> = HashMap::default();
    for (d, _) in docs {
        for &(t, w) in d.entries() {
            *tf.entry(t).or_insert(0.0) += w;
        }
    }
    let mut cands: Vec<(TermId, f64)> = tf.into_iter().collect();
    // The most frequent `candidates` (ties → smaller id); their order does
    // not matter.
    keep_highest(&mut cands, candidates);
    let index: HashMap<TermId, usize, IdHashing> = cands
        .iter()
        .enumerate()
        .map(|(i, &(t, _))| (t, i))
        .collect();
    // Document frequency per (candidate, class).
    let mut df = vec![0u32; cands.len() * num_classes];
    let mut class_docs = vec![0u32; num_classes];
    for (d, c) in docs {
        let c = (*c).min(num_classes - 1);
        class_docs[c] += 1;
        for &(t, w) in d.entries() {
            if w > 0.0 {
                if let Some(&i) = index.get(&t) {
                    df[i * num_classes + c] += 1;
                }
            }
        }
    }
    cands
        .iter()
        .enumerate()
        .map(|(i, &(t, _))| {
            let row = &df[i * num_classes..(i + 1) * num_classes];
            let p_x = f64::from(row.iter().sum::<u32>()) / n;
            let best = row
                .iter()
                .zip(&class_docs)
                .map(|(&joint, &cd)| {
                    let p_xv = f64::from(joint) / n;
                    let p_v = f64::from(cd) / n;
                    if p_xv == 0.0 {
                        0.0
                    } else {
                        p_xv * (p_xv / (p_x * p_v)).ln()
                    }
                })
                .fold(f64::NEG_INFINITY, f64::max);
            (t, best)
        })
        .collect()
}

/// The selected features, sorted by term id.
pub fn select(docs: &[(&SparseVec, usize)], num_classes: usize, cfg: FeatureConfig) -> Vec<TermId> {
    let mut scores = unsorted_mi_scores(docs, num_classes, cfg.candidates);
    keep_highest(&mut scores, cfg.top_k);
    let mut terms: Vec<TermId> = scores.into_iter().map(|(t, _)| t).collect();
    terms.sort();
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(ts: &[u32]) -> SparseVec {
        SparseVec::from_terms(ts.iter().map(|&t| TermId(t)))
    }

    #[test]
    fn hand_worked_mutual_information() {
        // class 0: {a,b}, {a}; class 1: {b,c}, {c}   (a=1, b=2, c=3)
        let docs = [v(&[1, 2]), v(&[1]), v(&[2, 3]), v(&[3])];
        let labelled: Vec<(&SparseVec, usize)> = docs.iter().zip([0, 0, 1, 1]).collect();
        let scores = mi_scores(&labelled, 2, 0);
        let get = |t| scores.iter().find(|(x, _)| *x == TermId(t)).unwrap().1;
        // P[a]=1/2, P[a∧0]=1/2, P[0]=1/2: MI = 1/2·ln 2. Same for c.
        assert!((get(1) - 0.5 * 2f64.ln()).abs() < 1e-12);
        assert!((get(3) - 0.5 * 2f64.ln()).abs() < 1e-12);
        // P[b]=1/2, P[b∧0]=1/4, P[0]=1/2: MI = 1/4·ln 1 = 0.
        assert!(get(2).abs() < 1e-12);
        let cfg = FeatureConfig {
            top_k: 2,
            candidates: 0,
        };
        assert_eq!(select(&labelled, 2, cfg), vec![TermId(1), TermId(3)]);
        // Candidate pre-selection by frequency: with 1 candidate only the
        // most frequent term (ties → smaller id) is scored.
        assert_eq!(mi_scores(&labelled, 2, 1).len(), 1);
    }

    #[test]
    fn candidates_and_features_are_the_highest_ties_to_the_smaller_id() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Few distinct terms and small counts, so many frequencies tie.
        let docs: Vec<SparseVec> = (0..40)
            .map(|_| SparseVec::from_terms((0..12).map(|_| TermId(rng.random_range(0..60)))))
            .collect();
        let labelled: Vec<(&SparseVec, usize)> = docs.iter().zip((0..3).cycle()).collect();
        // By the definition: total frequency, sorted, the first `c` kept.
        let mut tf: Vec<(TermId, f64)> = Vec::new();
        for (d, _) in &labelled {
            for &(t, w) in d.entries() {
                match tf.iter_mut().find(|(x, _)| *x == t) {
                    Some((_, f)) => *f += w,
                    None => tf.push((t, w)),
                }
            }
        }
        tf.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let all = mi_scores(&labelled, 3, 0);
        assert_eq!(all.len(), tf.len());
        for c in [1, 2, 7, 20, tf.len() - 1, tf.len(), tf.len() + 5] {
            let kept: Vec<TermId> = tf.iter().take(c).map(|&(t, _)| t).collect();
            let expected: Vec<(TermId, f64)> = all
                .iter()
                .filter(|(t, _)| kept.contains(t))
                .copied()
                .collect();
            assert_eq!(mi_scores(&labelled, 3, c), expected, "{c} candidates");
            // The kept features: the first `k` of those scores, by term id.
            for k in [1, 3, 10, c, c + 1] {
                let mut top: Vec<TermId> = expected.iter().take(k).map(|&(t, _)| t).collect();
                top.sort();
                let cfg = FeatureConfig {
                    top_k: k,
                    candidates: c,
                };
                assert_eq!(select(&labelled, 3, cfg), top, "{k} of {c}");
            }
        }
    }
}
