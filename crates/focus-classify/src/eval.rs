//! Held-out evaluation: accuracy, per-class and macro-averaged F1, and a
//! deterministic train/test split.

use std::collections::BTreeMap;

use focus_core::TopicId;

/// Accuracy and macro-F1 of predictions against truth.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// Fraction predicted exactly.
    pub accuracy: f64,
    /// Unweighted mean of per-class F1 over the true classes.
    pub macro_f1: f64,
    /// Documents evaluated.
    pub n: usize,
}

/// Scores `(truth, prediction)` pairs; `None` predictions count as wrong.
pub fn score(pairs: &[(TopicId, Option<TopicId>)]) -> Scores {
    let mut tp: BTreeMap<TopicId, f64> = BTreeMap::new();
    let mut fp: BTreeMap<TopicId, f64> = BTreeMap::new();
    let mut fneg: BTreeMap<TopicId, f64> = BTreeMap::new();
    let mut correct = 0.0;
    for &(t, p) in pairs {
        tp.entry(t).or_insert(0.0);
        if p == Some(t) {
            correct += 1.0;
            *tp.entry(t).or_insert(0.0) += 1.0;
        } else {
            *fneg.entry(t).or_insert(0.0) += 1.0;
            if let Some(p) = p {
                *fp.entry(p).or_insert(0.0) += 1.0;
            }
        }
    }
    let f1s: Vec<f64> = tp
        .iter()
        .map(|(c, &tpc)| {
            let fpc = fp.get(c).copied().unwrap_or(0.0);
            let fnc = fneg.get(c).copied().unwrap_or(0.0);
            if tpc == 0.0 {
                0.0
            } else {
                2.0 * tpc / (2.0 * tpc + fpc + fnc)
            }
        })
        .collect();
    let n = pairs.len();
    Scores {
        accuracy: if n == 0 { 0.0 } else { correct / n as f64 },
        macro_f1: if f1s.is_empty() {
            0.0
        } else {
            f1s.iter().sum::<f64>() / f1s.len() as f64
        },
        n,
    }
}

/// Every `k`-th item (by index) goes to the test set, the rest to training.
pub fn split<T: Clone>(items: &[T], k: usize) -> (Vec<T>, Vec<T>) {
    let k = k.max(2);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, x) in items.iter().enumerate() {
        if i % k == k - 1 {
            test.push(x.clone());
        } else {
            train.push(x.clone());
        }
    }
    (train, test)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_macro_f1() {
        let (a, b) = (TopicId(1), TopicId(2));
        // a: tp 1, fn 1 (predicted b); b: tp 1, fp 1 → F1(a) = 2/3, F1(b) = 2/3.
        let s = score(&[(a, Some(a)), (a, Some(b)), (b, Some(b))]);
        assert!((s.accuracy - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.macro_f1 - 2.0 / 3.0).abs() < 1e-12);
        let none = score(&[(a, None)]);
        assert_eq!((none.accuracy, none.macro_f1), (0.0, 0.0));
        let (tr, te) = split(&[1, 2, 3, 4, 5, 6], 3);
        assert_eq!((tr, te), (vec![1, 2, 4, 5], vec![3, 6]));
    }
}
