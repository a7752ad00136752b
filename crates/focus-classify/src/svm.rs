//! BINGO!'s linear SVM and its settings: one binary SVM over sparse
//! vectors, trained by dual coordinate descent (Hsieh et al. 2008, as in
//! liblinear; L2-regularised hinge loss with the bias as an extra constant
//! feature). Confidence is the signed distance to the hyperplane; the ξα
//! estimator (Joachims) predicts its precision. The topic tree of these
//! SVMs is [`crate::svm_tree`].

use std::collections::HashMap;

use focus_text::{SparseVec, TermId};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::features::FeatureConfig;
use crate::ClassifyError;

/// SVM training settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SvmConfig {
    /// Soft-margin cost C.
    pub c: f64,
    /// Stop when every projected gradient is below this in magnitude.
    pub eps: f64,
    /// Outer iterations cap.
    pub max_iter: usize,
    /// Seed of the coordinate order and of the OTHERS sample.
    pub seed: u64,
    /// Per-node feature selection.
    pub features: FeatureConfig,
    /// Far-away (OTHERS) negatives per node, at most.
    pub others: usize,
    /// Whether each class's cost is scaled by the inverse of its share of
    /// the examples (C₊ = C·n/(2n₊), C₋ = C·n/(2n₋), liblinear's `-w`,
    /// scikit-learn's `class_weight="balanced"`), so a topic with a few
    /// positives against many siblings and OTHERS is not drowned by them.
    /// Off in the papers' SVM.
    pub balanced: bool,
    /// What a page the tree does not place in a good topic gets as
    /// relevance.
    pub relevance: SvmRelevance,
}

/// The relevance R of a page whose accepted path misses every good topic
/// (on the accepted path R is σ(2·conf) at the good topic either way).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SvmRelevance {
    /// 0, as BINGO!'s paper gives it: every rejected page ties, so among
    /// them the crawl's order carries no evidence (on Wikispeedia 0.99 of
    /// held-out pages sit at R < 0.01 or R > 0.99, ROC AUC 0.77).
    #[default]
    Paper,
    /// Platt-calibrated: training also fits each SVM a sigmoid over its
    /// cross-validated decision values ([`crate::platt`]), and a rejected
    /// page gets the product, over the levels from the root to a good
    /// topic, of each level's P(yes | w·x + b), kept below ½. Rejected
    /// pages stay rejected but rank among themselves by how likely the
    /// SVMs think they belong to the good topic (`docs/classify.md`).
    /// Costs [`crate::platt::FOLDS`] more SVM fits per topic.
    Calibrated,
}

impl Default for SvmConfig {
    fn default() -> Self {
        Self {
            c: 1.0,
            eps: 0.01,
            max_iter: 1000,
            seed: 1,
            features: FeatureConfig::default(),
            others: 500,
            balanced: false,
            relevance: SvmRelevance::Paper,
        }
    }
}

/// A trained linear SVM over sparse vectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearSvm {
    /// Sorted terms with non-zero weight, and their weights.
    terms: Vec<TermId>,
    w: Vec<f64>,
    b: f64,
    w_norm: f64,
    /// ξα estimate of precision on the training set.
    pub precision_xi_alpha: f64,
    /// Outer iterations used.
    pub iterations: usize,
}

impl LinearSvm {
    /// Trains on `xs` with labels `ys` (true = positive).
    pub fn train(
        xs: &[SparseVec],
        ys: &[bool],
        cfg: &SvmConfig,
    ) -> Result<LinearSvm, ClassifyError> {
        if xs.len() != ys.len() || xs.is_empty() {
            return Err(ClassifyError::Training(
                "SVM needs as many labels as vectors, and at least one".into(),
            ));
        }
        // Dense indices for the training vocabulary.
        let mut index: HashMap<TermId, usize> = HashMap::new();
        let dense: Vec<Vec<(usize, f64)>> = xs
            .iter()
            .map(|x| {
                x.entries()
                    .iter()
                    .map(|&(t, v)| {
                        let n = index.len();
                        (*index.entry(t).or_insert(n), v)
                    })
                    .collect()
            })
            .collect();
        let y: Vec<f64> = ys.iter().map(|&p| if p { 1.0 } else { -1.0 }).collect();
        // Each example's upper bound on αᵢ: its class's cost.
        let n = ys.len() as f64;
        let positives = ys.iter().filter(|&&p| p).count() as f64;
        let cost = |positive: bool| {
            let share = if positive { positives } else { n - positives };
            if cfg.balanced && share > 0.0 {
                cfg.c * n / (2.0 * share)
            } else {
                cfg.c
            }
        };
        let c: Vec<f64> = ys.iter().map(|&p| cost(p)).collect();
        let q: Vec<f64> = dense
            .iter()
            .map(|x| x.iter().map(|(_, v)| v * v).sum::<f64>() + 1.0)
            .collect();
        let mut w = vec![0.0; index.len()];
        let mut wb = 0.0;
        let mut alpha = vec![0.0; xs.len()];
        let mut order: Vec<usize> = (0..xs.len()).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let mut iterations = 0;
        for _ in 0..cfg.max_iter {
            iterations += 1;
            order.shuffle(&mut rng);
            let (mut max_pg, mut min_pg) = (f64::NEG_INFINITY, f64::INFINITY);
            for &i in &order {
                let wx: f64 = dense[i].iter().map(|&(j, v)| w[j] * v).sum::<f64>() + wb;
                let g = y[i] * wx - 1.0;
                let pg = if alpha[i] == 0.0 {
                    g.min(0.0)
                } else if alpha[i] >= c[i] {
                    g.max(0.0)
                } else {
                    g
                };
                max_pg = max_pg.max(pg);
                min_pg = min_pg.min(pg);
                if pg != 0.0 {
                    let old = alpha[i];
                    alpha[i] = (old - g / q[i]).clamp(0.0, c[i]);
                    let d = (alpha[i] - old) * y[i];
                    for &(j, v) in &dense[i] {
                        w[j] += d * v;
                    }
                    wb += d;
                }
            }
            // Every projected gradient near zero: the KKT conditions hold.
            // (liblinear's spread test, max − min, stops early when all
            // gradients are equal but non-zero, e.g. on two points.)
            if max_pg.max(-min_pg) < cfg.eps {
                break;
            }
        }
        // ξα estimate (ρ = 2): example i is a likely leave-one-out error when
        // ρ·αᵢ·R² + ξᵢ ≥ 1, with R² the largest ‖xᵢ‖² (bias included).
        let r2 = q.iter().copied().fold(0.0, f64::max);
        let (mut pos, mut err_pos, mut err_neg) = (0.0, 0.0, 0.0);
        for i in 0..xs.len() {
            let f: f64 = dense[i].iter().map(|&(j, v)| w[j] * v).sum::<f64>() + wb;
            let xi = (1.0 - y[i] * f).max(0.0);
            let error = 2.0 * alpha[i] * r2 + xi >= 1.0;
            if y[i] > 0.0 {
                pos += 1.0;
                err_pos += f64::from(u8::from(error));
            } else {
                err_neg += f64::from(u8::from(error));
            }
        }
        let tp = pos - err_pos;
        let precision_xi_alpha = if tp + err_neg > 0.0 {
            tp / (tp + err_neg)
        } else {
            0.0
        };
        let mut by_term: Vec<(TermId, f64)> = index
            .into_iter()
            .map(|(t, j)| (t, w[j]))
            .filter(|&(_, v)| v != 0.0)
            .collect();
        by_term.sort_by_key(|&(t, _)| t);
        let w_norm = (by_term.iter().map(|(_, v)| v * v).sum::<f64>() + wb * wb).sqrt();
        Ok(LinearSvm {
            terms: by_term.iter().map(|p| p.0).collect(),
            w: by_term.iter().map(|p| p.1).collect(),
            b: wb,
            w_norm,
            precision_xi_alpha,
            iterations,
        })
    }

    /// w·x + b.
    pub fn decision(&self, x: &SparseVec) -> f64 {
        x.entries()
            .iter()
            .filter_map(|(t, v)| self.terms.binary_search(t).ok().map(|i| self.w[i] * v))
            .sum::<f64>()
            + self.b
    }

    /// Signed distance to the hyperplane, (w·x + b)/‖(w, b)‖.
    pub fn confidence(&self, x: &SparseVec) -> f64 {
        if self.w_norm > 0.0 {
            self.decision(x) / self.w_norm
        } else {
            0.0
        }
    }
}

pub use crate::svm_tree::SvmTree;

#[cfg(test)]
mod tests {
    use super::*;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    #[test]
    fn hand_worked_hard_margin_solution() {
        // Points x₊ = (2) and x₋ = (0), bias as a constant feature:
        // minimise (w² + b²)/2 s.t. 2w + b ≥ 1 and −b ≥ 1 → b = −1, w = 1.
        let cfg = SvmConfig {
            c: 1e6,
            eps: 1e-13,
            max_iter: 100_000,
            ..SvmConfig::default()
        };
        let svm = LinearSvm::train(&[v(&[(1, 2.0)]), v(&[])], &[true, false], &cfg).unwrap();
        assert!((svm.decision(&v(&[(1, 2.0)])) - 1.0).abs() < 1e-9);
        assert!((svm.decision(&v(&[])) + 1.0).abs() < 1e-9);
        assert!(
            (svm.confidence(&v(&[(1, 1.0)])) - 0.0).abs() < 1e-9,
            "x = 1 lies on the hyperplane"
        );
        assert!((svm.confidence(&v(&[(1, 3.0)])) - 2.0 / 2f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn separable_data_is_learned_and_precision_estimated() {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..40u32 {
            let pos = i % 2 == 0;
            let t = if pos { 1 } else { 2 };
            xs.push(v(&[(t, 1.0 + f64::from(i % 5)), (3, 1.0)]));
            ys.push(pos);
        }
        let svm = LinearSvm::train(&xs, &ys, &SvmConfig::default()).unwrap();
        assert!(xs
            .iter()
            .zip(&ys)
            .all(|(x, &y)| (svm.decision(x) > 0.0) == y));
        assert!(svm.precision_xi_alpha > 0.5 && svm.precision_xi_alpha <= 1.0);
    }

    #[test]
    fn balanced_costs_keep_a_rare_class_from_being_drowned() {
        // 3 positives among 60 negatives that share most of their words.
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..63u32 {
            let positive = i < 3;
            let mut x = vec![(3, 1.0), (4 + i % 5, 1.0)];
            if positive || i % 4 == 0 {
                x.push((1, 0.5));
            }
            xs.push(v(&x));
            ys.push(positive);
        }
        let plain = LinearSvm::train(&xs, &ys, &SvmConfig::default()).unwrap();
        let balanced = SvmConfig {
            balanced: true,
            ..SvmConfig::default()
        };
        let balanced = LinearSvm::train(&xs, &ys, &balanced).unwrap();
        let positives = |m: &LinearSvm| xs[..3].iter().filter(|x| m.decision(x) > 0.0).count();
        assert!(
            positives(&balanced) > positives(&plain),
            "{} vs {}",
            positives(&balanced),
            positives(&plain)
        );
        for x in &xs[..3] {
            assert!(balanced.decision(x) > plain.decision(x));
        }
    }
}
