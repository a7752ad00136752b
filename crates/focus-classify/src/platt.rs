//! Platt scaling: a sigmoid P(y = 1 | f) = 1/(1 + exp(A·f + B)) over an
//! SVM's decision values f, fitted by the Newton method with backtracking
//! of Lin, Lin and Weng (*A note on Platt's probabilistic outputs for
//! support vector machines*, 2007; as in libsvm), on decision values the
//! SVM gives examples it was not trained on (stratified k-fold cross
//! validation, seeded), with Platt's smoothed targets so that a separable
//! training set does not drive A to infinity.
//!
//! Owns the fit and the cross-validated decision values; reads the linear
//! SVM only (to train the folds' SVMs), never the SVM tree that uses it.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::svm::{LinearSvm, SvmConfig};
use crate::ClassifyError;
use focus_text::SparseVec;

/// Folds of the cross validation that yields the decision values.
pub const FOLDS: usize = 3;

/// Added to the Hessian's diagonal so a flat objective still inverts
/// (libsvm's σ).
const HESSIAN_RIDGE: f64 = 1e-12;

/// A fitted sigmoid over decision values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Platt {
    a: f64,
    b: f64,
}

impl Platt {
    /// The sigmoid's slope A and offset B (P = 1/(1 + exp(A·f + B))).
    pub fn parameters(&self) -> (f64, f64) {
        (self.a, self.b)
    }

    /// P(y = 1 | f), computed without overflow.
    pub fn probability(&self, f: f64) -> f64 {
        yes_no(self.a * f + self.b).0
    }

    /// Fits A and B to decision values `f` with labels `y` (true =
    /// positive). Needs at least one example; with one class only the
    /// sigmoid answers that class's smoothed prior.
    pub fn fit(f: &[f64], y: &[bool]) -> Result<Platt, ClassifyError> {
        if f.len() != y.len() || f.is_empty() {
            return Err(ClassifyError::Training(
                "Platt scaling needs as many labels as decision values, and at least one".into(),
            ));
        }
        let pos = y.iter().filter(|&&p| p).count() as f64;
        let neg = y.len() as f64 - pos;
        let (hi, lo) = ((pos + 1.0) / (pos + 2.0), 1.0 / (neg + 2.0));
        let t: Vec<f64> = y.iter().map(|&p| if p { hi } else { lo }).collect();
        let objective = |a: f64, b: f64| -> f64 {
            f.iter()
                .zip(&t)
                .map(|(&fi, &ti)| {
                    let z = fi * a + b;
                    if z >= 0.0 {
                        ti * z + (-z).exp().ln_1p()
                    } else {
                        (ti - 1.0) * z + z.exp().ln_1p()
                    }
                })
                .sum()
        };
        let (mut a, mut b) = (0.0, ((neg + 1.0) / (pos + 1.0)).ln());
        let mut value = objective(a, b);
        for _ in 0..100 {
            let (mut h11, mut h22, mut h21, mut g1, mut g2) =
                (HESSIAN_RIDGE, HESSIAN_RIDGE, 0.0, 0.0, 0.0);
            for (&fi, &ti) in f.iter().zip(&t) {
                let (p, q) = yes_no(fi * a + b);
                let d2 = p * q;
                h11 += fi * fi * d2;
                h22 += d2;
                h21 += fi * d2;
                let d1 = ti - p;
                g1 += fi * d1;
                g2 += d1;
            }
            if g1.abs() < 1e-5 && g2.abs() < 1e-5 {
                break;
            }
            let det = h11 * h22 - h21 * h21;
            let da = -(h22 * g1 - h21 * g2) / det;
            let db = -(-h21 * g1 + h11 * g2) / det;
            let gd = g1 * da + g2 * db;
            let mut step = 1.0;
            while step >= 1e-10 {
                let (na, nb) = (a + step * da, b + step * db);
                let nv = objective(na, nb);
                if nv < value + 1e-4 * step * gd {
                    (a, b, value) = (na, nb, nv);
                    break;
                }
                step /= 2.0;
            }
            if step < 1e-10 {
                break;
            }
        }
        Ok(Platt { a, b })
    }

    /// Trains `FOLDS` SVMs, each on all but one stratified fold of `xs`,
    /// and fits the sigmoid to the decision values each gives its held-out
    /// fold. A fold whose training part lacks a class (a class with fewer
    /// examples than folds) takes `full`'s decision values instead.
    pub fn fit_cross_validated(
        xs: &[SparseVec],
        ys: &[bool],
        full: &LinearSvm,
        cfg: &SvmConfig,
    ) -> Result<Platt, ClassifyError> {
        let fold = stratified_folds(ys, cfg.seed);
        let mut f = vec![0.0; xs.len()];
        for k in 0..FOLDS {
            let (train, held): (Vec<usize>, Vec<usize>) =
                (0..xs.len()).partition(|&i| fold[i] != k);
            if held.is_empty() {
                continue;
            }
            let train_ys: Vec<bool> = train.iter().map(|&i| ys[i]).collect();
            let model = if train_ys.contains(&true) && train_ys.contains(&false) {
                let train_xs: Vec<SparseVec> = train.iter().map(|&i| xs[i].clone()).collect();
                Some(LinearSvm::train(&train_xs, &train_ys, cfg)?)
            } else {
                None
            };
            let svm = model.as_ref().unwrap_or(full);
            for &i in &held {
                f[i] = svm.decision(&xs[i]);
            }
        }
        Platt::fit(&f, ys)
    }
}

/// (1/(1 + exp(z)), exp(z)/(1 + exp(z))): P(yes) and P(no) at z = A·f + B,
/// each computed without overflow or cancellation.
fn yes_no(z: f64) -> (f64, f64) {
    if z >= 0.0 {
        let e = (-z).exp();
        (e / (1.0 + e), 1.0 / (1.0 + e))
    } else {
        let e = z.exp();
        (1.0 / (1.0 + e), e / (1.0 + e))
    }
}

/// Each example's fold: positives and negatives are each shuffled (seeded)
/// and dealt round robin, so every fold holds its share of both classes.
fn stratified_folds(ys: &[bool], seed: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut fold = vec![0; ys.len()];
    for class in [true, false] {
        let mut idx: Vec<usize> = (0..ys.len()).filter(|&i| ys[i] == class).collect();
        idx.shuffle(&mut rng);
        for (n, i) in idx.into_iter().enumerate() {
            fold[i] = n % FOLDS;
        }
    }
    fold
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_sigmoid_that_generated_the_labels() {
        // Labels drawn from P(y | f) = 1/(1 + exp(-2f + 0.5)) on a grid,
        // in proportion: at each f, round(1000·p) positives of 1000.
        let (true_a, true_b) = (-2.0, 0.5);
        let truth = Platt {
            a: true_a,
            b: true_b,
        };
        let (mut f, mut y) = (Vec::new(), Vec::new());
        for step in -20..=20 {
            let fi = f64::from(step) / 5.0;
            let positives = (truth.probability(fi) * 1000.0).round() as usize;
            for n in 0..1000 {
                f.push(fi);
                y.push(n < positives);
            }
        }
        let fit = Platt::fit(&f, &y).unwrap();
        let (a, b) = fit.parameters();
        assert!((a - true_a).abs() < 0.02, "A = {a}");
        assert!((b - true_b).abs() < 0.02, "B = {b}");
    }

    #[test]
    fn separable_values_give_a_finite_sigmoid_that_orders_them() {
        let f = [-3.0, -2.0, -1.5, 1.0, 2.0, 2.5];
        let y = [false, false, false, true, true, true];
        let fit = Platt::fit(&f, &y).unwrap();
        let (a, b) = fit.parameters();
        assert!(a.is_finite() && b.is_finite() && a < 0.0, "{a} {b}");
        // The smoothed targets keep the extremes off 0 and 1.
        let (p_lo, p_hi) = (fit.probability(-3.0), fit.probability(2.5));
        assert!(p_lo > 0.0 && p_lo < 0.25, "{p_lo}");
        assert!(p_hi < 1.0 && p_hi > 0.75, "{p_hi}");
        assert!(fit.probability(0.0) > p_lo && fit.probability(0.0) < p_hi);
    }

    #[test]
    fn one_class_answers_its_smoothed_prior_and_bad_input_is_an_error() {
        let fit = Platt::fit(&[0.3, -0.2, 1.0, 0.0], &[false; 4]).unwrap();
        for f in [-5.0, 0.0, 5.0] {
            assert!((fit.probability(f) - 1.0 / 6.0).abs() < 0.05);
        }
        assert!(Platt::fit(&[], &[]).is_err());
        assert!(Platt::fit(&[1.0], &[true, false]).is_err());
        // Extreme values neither overflow nor leave [0, 1].
        let p = Platt { a: -50.0, b: 0.0 };
        assert_eq!(p.probability(1e6), 1.0);
        assert_eq!(p.probability(-1e6), 0.0);
    }

    #[test]
    fn folds_are_stratified_and_seeded() {
        let ys: Vec<bool> = (0..30).map(|i| i % 3 == 0).collect();
        let a = stratified_folds(&ys, 7);
        assert_eq!(a, stratified_folds(&ys, 7));
        assert_ne!(a, stratified_folds(&ys, 8));
        for k in 0..FOLDS {
            let pos = (0..30).filter(|&i| a[i] == k && ys[i]).count();
            let neg = (0..30).filter(|&i| a[i] == k && !ys[i]).count();
            assert_eq!(
                (pos, neg),
                (
                    10 / FOLDS + usize::from(k < 10 % FOLDS),
                    20 / FOLDS + usize::from(k < 20 % FOLDS)
                )
            );
        }
    }

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, x)| (focus_text::TermId(t), x)).collect())
    }

    #[test]
    fn cross_validated_values_give_a_sigmoid_that_rises_with_the_decision() {
        // Positives lean on term 1, negatives on term 2, with overlap so
        // the held-out folds see some mistakes.
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for i in 0..30 {
            let k = f64::from(i % 5);
            xs.push(v(&[(1, 1.0 + k), (2, 1.0), (3, 1.0)]));
            ys.push(true);
            xs.push(v(&[(1, 1.0), (2, 1.0 + k), (4, 1.0)]));
            ys.push(false);
        }
        let cfg = SvmConfig::default();
        let svm = LinearSvm::train(&xs, &ys, &cfg).unwrap();
        let platt = Platt::fit_cross_validated(&xs, &ys, &svm, &cfg).unwrap();
        assert!(platt.parameters().0 < 0.0, "{:?}", platt.parameters());
        let p = |x: &SparseVec| platt.probability(svm.decision(x));
        assert!(p(&v(&[(1, 5.0), (2, 1.0), (3, 1.0)])) > 0.5);
        assert!(p(&v(&[(1, 1.0), (2, 5.0), (4, 1.0)])) < 0.5);
        assert_eq!(
            platt,
            Platt::fit_cross_validated(&xs, &ys, &svm, &cfg).unwrap(),
            "seeded"
        );
        // One positive: the fold holding it trains on negatives only and
        // reads the full model's decision instead; the fit still succeeds.
        let (xs1, ys1): (Vec<SparseVec>, Vec<bool>) = xs
            .iter()
            .zip(&ys)
            .filter(|(_, &y)| !y)
            .map(|(x, &y)| (x.clone(), y))
            .chain(std::iter::once((xs[0].clone(), true)))
            .unzip();
        let svm1 = LinearSvm::train(&xs1, &ys1, &cfg).unwrap();
        let platt1 = Platt::fit_cross_validated(&xs1, &ys1, &svm1, &cfg).unwrap();
        let (a, b) = platt1.parameters();
        assert!(a.is_finite() && b.is_finite());
    }
}
