//! A paired comparison of two crawlers over many crawls of the same
//! kind (one category on one training split each): how often the first
//! finds more scored pages, as many, or fewer, with the exact two-sided
//! sign test of "neither is better", and the mean difference with a 95 %
//! interval (normal approximation). A budget's "at least as many on 8 of
//! 10 categories" counts a one-page loss like a fifty-page one and a tie
//! like a win; these say how large and how sure a difference is. Pure
//! arithmetic: no crawl, no I/O.

/// The two-sided 97.5 % quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// What the pairs `(a, b)` say about `a` against `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Paired {
    /// Pairs where `a` is larger.
    pub(super) wins: usize,
    /// Pairs where the two are equal.
    pub(super) ties: usize,
    /// Pairs where `a` is smaller.
    pub(super) losses: usize,
    /// The exact two-sided sign test's p-value over the untied pairs (1
    /// when every pair ties).
    pub(super) sign_p: f64,
    /// The mean of `a − b`.
    pub(super) mean: f64,
    /// Half the width of its 95 % interval (`None` for fewer than 2 pairs).
    pub(super) half_width: Option<f64>,
    /// `Σ a ÷ Σ b` (`None` when `Σ b` is 0).
    pub(super) ratio: Option<f64>,
}

/// Compares `a` with `b` over `pairs`.
pub(super) fn paired(pairs: &[(usize, usize)]) -> Paired {
    let wins = pairs.iter().filter(|(a, b)| a > b).count();
    let losses = pairs.iter().filter(|(a, b)| a < b).count();
    let n = pairs.len();
    let diffs: Vec<f64> = pairs.iter().map(|&(a, b)| a as f64 - b as f64).collect();
    let mean = diffs.iter().sum::<f64>() / n.max(1) as f64;
    let half_width = (n >= 2).then(|| {
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Z_975 * (var / n as f64).sqrt()
    });
    let (sum_a, sum_b) = pairs
        .iter()
        .fold((0usize, 0usize), |(x, y), &(a, b)| (x + a, y + b));
    Paired {
        wins,
        ties: n - wins - losses,
        losses,
        sign_p: sign_test(wins, losses),
        mean,
        half_width,
        ratio: (sum_b > 0).then(|| sum_a as f64 / sum_b as f64),
    }
}

/// The exact two-sided sign test: the probability, with `wins + losses`
/// fair coin flips, of a split at least as uneven as this one.
fn sign_test(wins: usize, losses: usize) -> f64 {
    let n = wins + losses;
    let k = wins.min(losses);
    // Binomial(n, ½) probabilities, each from the last: P(0) = 2^−n.
    let mut p = 0.5f64.powi(n as i32);
    let mut tail = 0.0;
    for i in 0..=k {
        tail += p;
        p *= (n - i) as f64 / (i + 1) as f64;
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_the_mean_difference() {
        let p = paired(&[(10, 8), (5, 5), (3, 7), (12, 6)]);
        assert_eq!((p.wins, p.ties, p.losses), (2, 1, 1));
        // Differences 2, 0, −4, 6: mean 1, sample variance 52 / 3.
        assert!((p.mean - 1.0).abs() < 1e-12);
        let half = Z_975 * (52.0 / 3.0 / 4.0f64).sqrt();
        assert!((p.half_width.unwrap() - half).abs() < 1e-12);
        assert!((p.ratio.unwrap() - 30.0 / 26.0).abs() < 1e-12);
    }

    #[test]
    fn the_sign_test_is_exact() {
        // 9 wins, 1 loss: 2 · (1 + 10) / 1024.
        assert!((sign_test(9, 1) - 22.0 / 1024.0).abs() < 1e-15);
        assert!((sign_test(1, 9) - sign_test(9, 1)).abs() < 1e-15);
        // An even split is no evidence at all, and neither is no untied pair.
        assert_eq!(sign_test(5, 5), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // 20 wins, no loss: 2 / 2^20.
        assert!((sign_test(20, 0) - 2.0 / 1_048_576.0).abs() < 1e-18);
    }

    #[test]
    fn too_few_pairs_give_no_interval_and_no_ratio() {
        let p = paired(&[(0, 0)]);
        assert_eq!(p.half_width, None);
        assert_eq!(p.ratio, None);
        assert_eq!(p.sign_p, 1.0);
        let none = paired(&[]);
        assert_eq!((none.wins, none.ties, none.losses), (0, 0, 0));
    }
}
