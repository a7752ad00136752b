//! Small numeric helpers shared by the families.

/// log(Σ exp(x)) without overflow; −∞ for an empty slice.
pub(crate) fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

/// Normalises log-scores into probabilities that sum to 1.
pub(crate) fn softmax(log_scores: &[f64]) -> Vec<f64> {
    let z = log_sum_exp(log_scores);
    log_scores.iter().map(|x| (x - z).exp()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_softmax() {
        let p = softmax(&[-1000.0, -1000.0 + 2f64.ln()]);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-12 && (p[1] - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(log_sum_exp(&[]), f64::NEG_INFINITY);
    }
}
