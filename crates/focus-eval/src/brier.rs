//! The Brier score of probabilities against binary truth: the mean squared
//! difference between the predicted probability and the outcome (0 or 1).
//! 0 is perfect; always predicting the base rate b scores b(1 − b).

/// Mean of (p − y)² over the pairs (`None` when empty).
pub fn brier(probs: &[f64], truth: &[bool]) -> Option<f64> {
    let n = probs.len().min(truth.len());
    if n == 0 {
        return None;
    }
    let sum: f64 = probs
        .iter()
        .zip(truth)
        .map(|(&p, &y)| (p - if y { 1.0 } else { 0.0 }).powi(2))
        .sum();
    Some(sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked() {
        // (0.9−1)² + (0.2−0)² + (0.6−0)² + (1−1)² = 0.01 + 0.04 + 0.36 + 0 = 0.41; / 4.
        let b = brier(&[0.9, 0.2, 0.6, 1.0], &[true, false, false, true]).unwrap();
        assert!((b - 0.1025).abs() < 1e-12, "{b}");
        assert_eq!(brier(&[0.0, 1.0], &[false, true]), Some(0.0));
        assert_eq!(brier(&[1.0, 0.0], &[false, true]), Some(1.0));
        // The base rate 1/4 predicted for every page scores b(1 − b) = 3/16.
        let b = brier(&[0.25; 4], &[true, false, false, false]).unwrap();
        assert!((b - 3.0 / 16.0).abs() < 1e-12);
        assert_eq!(brier(&[], &[]), None);
    }
}
