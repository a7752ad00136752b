//! ROC AUC of a score against binary truth, by the Mann–Whitney U
//! statistic: the probability that a random positive scores above a random
//! negative, ties counting one half (scores ranked with tied scores given
//! their average rank).

/// The area under the ROC curve of `scores` against `truth` (same length;
/// extra items of the longer slice are ignored). `None` when there is no
/// positive or no negative (the area is undefined), or a score is NaN.
///
/// AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊ n₋), where R₊ is the sum of the
/// positives' ranks (1-based, ascending, ties averaged).
pub fn roc_auc(scores: &[f64], truth: &[bool]) -> Option<f64> {
    let n = scores.len().min(truth.len());
    if scores[..n].iter().any(|s| s.is_nan()) {
        return None;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let (mut rank_sum, mut pos) = (0.0f64, 0usize);
    let mut i = 0;
    while i < n {
        // A run of tied scores shares the average of its ranks i+1..=j.
        let mut j = i + 1;
        while j < n && scores[order[j]] == scores[order[i]] {
            j += 1;
        }
        let avg = (i + 1 + j) as f64 / 2.0;
        for &k in &order[i..j] {
            if truth[k] {
                rank_sum += avg;
                pos += 1;
            }
        }
        i = j;
    }
    let neg = n - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    let (p, q) = (pos as f64, neg as f64);
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_reversed_and_undefined() {
        let t = [false, false, true, true];
        assert_eq!(roc_auc(&[0.1, 0.2, 0.8, 0.9], &t), Some(1.0));
        assert_eq!(roc_auc(&[0.9, 0.8, 0.2, 0.1], &t), Some(0.0));
        assert_eq!(roc_auc(&[0.5; 4], &t), Some(0.5), "all tied");
        assert_eq!(roc_auc(&[0.1, 0.2], &[true, true]), None);
        assert_eq!(roc_auc(&[], &[]), None);
        assert_eq!(roc_auc(&[f64::NAN, 0.2], &[true, false]), None);
    }

    #[test]
    fn hand_worked_with_ties() {
        // Scores 0.1(−) 0.4(+) 0.4(−) 0.8(+) 0.9(−): pairs (+,−) are
        // (0.4,0.1) win, (0.4,0.4) tie, (0.4,0.9) loss, (0.8,0.1) win,
        // (0.8,0.4) win, (0.8,0.9) loss → (3 + 0.5) / 6.
        let s = [0.4, 0.1, 0.9, 0.8, 0.4];
        let t = [true, false, false, true, false];
        let auc = roc_auc(&s, &t).unwrap();
        assert!((auc - 3.5 / 6.0).abs() < 1e-12, "{auc}");
        // Ranks: 0.1→1, 0.4→2.5 (twice), 0.8→4, 0.9→5; R₊ = 2.5 + 4 = 6.5;
        // (6.5 − 3) / 6 is the same 3.5 / 6.
    }
}
