//! Accuracy and macro-F1 of single predictions against multi-label truth.
//!
//! Each item is a page's set of true classes and one predicted class (or
//! none: unclassified). A prediction is **correct** when it is one of the
//! page's labels. Per class c over the items:
//!
//! * TP(c): items predicted c that carry label c;
//! * FP(c): items predicted c that do not carry label c;
//! * FN(c): items carrying label c whose prediction is wrong (a correct
//!   prediction of another of the page's labels is not a miss of c: the
//!   page is classified correctly).
//!
//! F1(c) = 2TP / (2TP + FP + FN); macro-F1 averages F1 over the classes
//! that occur in the truth or the predictions. With one label per item
//! this is the usual single-label accuracy and macro-F1.

use std::collections::BTreeMap;

/// Accuracy and macro-F1 of a set of predictions.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LabelScores {
    /// Fraction of items whose prediction is one of their labels.
    pub accuracy: f64,
    /// Mean per-class F1 over the classes in the truth or the predictions.
    pub macro_f1: f64,
    /// Items scored.
    pub n: usize,
    /// Classes averaged over.
    pub classes: usize,
    /// Items left unclassified (prediction `None`).
    pub unclassified: usize,
}

/// Scores `(labels, prediction)` items with the rule of this module.
/// Repeated labels of an item count once. Empty input scores zero.
pub fn multilabel_scores<'a, T: Ord + Copy + 'a>(
    items: impl IntoIterator<Item = (&'a [T], Option<T>)>,
) -> LabelScores {
    // Per class: (tp, fp, fn).
    let mut counts: BTreeMap<T, (f64, f64, f64)> = BTreeMap::new();
    let (mut n, mut correct, mut unclassified) = (0usize, 0usize, 0usize);
    for (labels, pred) in items {
        n += 1;
        let mut labels: Vec<T> = labels.to_vec();
        labels.sort_unstable();
        labels.dedup();
        for &l in &labels {
            counts.entry(l).or_default();
        }
        match pred {
            Some(p) if labels.binary_search(&p).is_ok() => {
                correct += 1;
                counts.entry(p).or_default().0 += 1.0;
            }
            other => {
                if let Some(p) = other {
                    counts.entry(p).or_default().1 += 1.0;
                } else {
                    unclassified += 1;
                }
                for &l in &labels {
                    counts.entry(l).or_default().2 += 1.0;
                }
            }
        }
    }
    let f1 = |&(tp, fp, fneg): &(f64, f64, f64)| {
        if tp == 0.0 {
            0.0
        } else {
            2.0 * tp / (2.0 * tp + fp + fneg)
        }
    };
    let classes = counts.len();
    LabelScores {
        accuracy: if n == 0 {
            0.0
        } else {
            correct as f64 / n as f64
        },
        macro_f1: if classes == 0 {
            0.0
        } else {
            counts.values().map(f1).sum::<f64>() / classes as f64
        },
        n,
        classes,
        unclassified,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_label_is_the_usual_macro_f1() {
        // a: tp 1, fn 1 (predicted b); b: tp 1, fp 1 → F1(a) = F1(b) = 2/3.
        let items: [(&[u8], Option<u8>); 3] = [(&[1], Some(1)), (&[1], Some(2)), (&[2], Some(2))];
        let s = multilabel_scores(items);
        assert!((s.accuracy - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.macro_f1 - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!((s.n, s.classes, s.unclassified), (3, 2, 0));
    }

    #[test]
    fn hand_worked_multi_label() {
        // Classes 1, 2, 3, 4.
        //   {1,2} → 2   correct: TP(2)
        //   {1}   → 3   wrong:   FP(3), FN(1)
        //   {2,3} → 1   wrong:   FP(1), FN(2), FN(3)
        //   {3}   → 3   correct: TP(3)
        //   {1}   → —   wrong:   FN(1), unclassified
        //   {2}   → 4   wrong:   FP(4), FN(2)
        // (tp, fp, fn): 1 (0,1,2) → 0; 2 (1,0,2) → 2/4; 3 (1,1,1) → 2/4; 4 (0,1,0) → 0.
        let items: [(&[u8], Option<u8>); 6] = [
            (&[1, 2], Some(2)),
            (&[1], Some(3)),
            (&[2, 3], Some(1)),
            (&[3], Some(3)),
            (&[1, 1], None),
            (&[2], Some(4)),
        ];
        let s = multilabel_scores(items);
        assert!((s.accuracy - 2.0 / 6.0).abs() < 1e-12);
        let want = (0.0 + 0.5 + 0.5 + 0.0) / 4.0;
        assert!((s.macro_f1 - want).abs() < 1e-12, "{}", s.macro_f1);
        assert_eq!((s.n, s.classes, s.unclassified), (6, 4, 1));
    }

    #[test]
    fn empty() {
        let s = multilabel_scores::<u8>(std::iter::empty());
        assert_eq!(s, LabelScores::default());
    }
}
