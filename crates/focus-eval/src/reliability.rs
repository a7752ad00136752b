//! Reliability (calibration) bins: predictions grouped into equal-width
//! bins of predicted probability, each with its mean prediction, the
//! observed frequency of the positive outcome, and its size. A calibrated
//! score lies on the diagonal (mean predicted = observed).

use serde::Serialize;

/// One bin of a reliability diagram.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReliabilityBin {
    /// Lower edge of the bin (inclusive).
    pub lo: f64,
    /// Upper edge of the bin (exclusive, except 1.0 for the last bin).
    pub hi: f64,
    /// Mean predicted probability of the bin's items (0 when empty).
    pub mean_predicted: f64,
    /// Fraction of the bin's items whose outcome is positive (0 when empty).
    pub observed: f64,
    /// Items in the bin.
    pub count: usize,
}

/// `bins` equal-width bins over [0, 1] (at least one): item p goes to bin
/// ⌊p·bins⌋, p = 1 to the last; predictions outside [0, 1] are clamped
/// into it, NaN ones skipped. Empty bins are kept (count 0).
pub fn reliability_bins(probs: &[f64], truth: &[bool], bins: usize) -> Vec<ReliabilityBin> {
    let k = bins.max(1);
    let mut sum_p = vec![0.0f64; k];
    let mut pos = vec![0usize; k];
    let mut count = vec![0usize; k];
    for (&p, &y) in probs.iter().zip(truth) {
        if p.is_nan() {
            continue;
        }
        let p = p.clamp(0.0, 1.0);
        let b = ((p * k as f64) as usize).min(k - 1);
        sum_p[b] += p;
        count[b] += 1;
        pos[b] += usize::from(y);
    }
    (0..k)
        .map(|b| {
            let n = count[b];
            let per = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
            ReliabilityBin {
                lo: b as f64 / k as f64,
                hi: (b + 1) as f64 / k as f64,
                mean_predicted: per(sum_p[b]),
                observed: per(pos[b] as f64),
                count: n,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_ten_bins() {
        let p = [0.0, 0.05, 0.15, 0.95, 1.0, 0.1, f64::NAN];
        let y = [false, true, false, true, true, true, true];
        let b = reliability_bins(&p, &y, 10);
        assert_eq!(b.len(), 10);
        // Bin 0 = [0, 0.1): 0.0 (−) and 0.05 (+).
        assert_eq!(b[0].count, 2);
        assert!((b[0].mean_predicted - 0.025).abs() < 1e-12);
        assert_eq!(b[0].observed, 0.5);
        // Bin 1 = [0.1, 0.2): 0.15 (−) and 0.1 (+).
        assert_eq!(b[1].count, 2);
        assert!((b[1].mean_predicted - 0.125).abs() < 1e-12);
        assert_eq!(b[1].observed, 0.5);
        // Bin 9 = [0.9, 1]: 0.95 and 1.0, both positive.
        assert_eq!(b[9].count, 2);
        assert!((b[9].mean_predicted - 0.975).abs() < 1e-12);
        assert_eq!(b[9].observed, 1.0);
        assert_eq!((b[9].lo, b[9].hi), (0.9, 1.0));
        assert_eq!(b[5].count, 0);
        assert_eq!(b.iter().map(|x| x.count).sum::<usize>(), 6, "NaN skipped");
    }

    #[test]
    fn clamps_and_needs_one_bin() {
        let b = reliability_bins(&[-0.5, 1.5], &[false, true], 0);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].count, 2);
        assert_eq!(b[0].mean_predicted, 0.5);
    }
}
