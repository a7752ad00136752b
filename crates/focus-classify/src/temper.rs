//! Length tempering of naive Bayes: a relevance that ranks and is
//! calibrated on real pages.
//!
//! Multinomial naive Bayes multiplies one likelihood per word occurrence as
//! if the words of a page were independent. They are not, so the evidence
//! of a real page of a thousand words is counted hundreds of times over and
//! the posterior is 0 or 1 to dozens of decimal places (on Wikispeedia every
//! held-out page's R was below 0.01 or above 0.99, `docs/classify.md`). A
//! crawl that orders its frontier by R then sees ties of "about zero".
//!
//! Tempering keeps the model and scales each node's word evidence by a
//! weight that falls with the page's length: for a node with children cᵢ,
//! `log Pr[cᵢ|c0,d] ∝ log Pr[cᵢ|c0] + w(n)·Σ_t n(d,t) log θ(cᵢ,t)` with
//! `w(n) = κ·n^(−α)`, `n` the page's tokens among the node's features.
//! `α = 0, κ = 1` is the exact posterior of the papers ([`Temper::EXACT`]);
//! `α = 1` is the per-token mean log-likelihood scaled by `κ`. Both are
//! fitted ([`fit`]) by minimising the log loss of the true topic on
//! out-of-fold training examples, so the only data they see are the
//! crawler's own examples and the exact posterior is one of the candidates:
//! tempering never fits the examples worse than the papers' rule.
//! Pure, deterministic, I/O-free.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::weights::log_sum_exp;

/// The weight `w(n) = κ·n^(−α)` of a page's word evidence at a node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Temper {
    /// Length exponent α in [0, 1].
    pub alpha: f64,
    /// Scale κ > 0.
    pub kappa: f64,
}

impl Default for Temper {
    fn default() -> Self {
        Self::EXACT
    }
}

impl Temper {
    /// The papers' posterior: every word occurrence counts once.
    pub const EXACT: Temper = Temper {
        alpha: 0.0,
        kappa: 1.0,
    };

    /// The weight of the word evidence of a page with `tokens` tokens among
    /// a node's features (0 tokens: no evidence to weigh).
    pub fn weight(&self, tokens: f64) -> f64 {
        if self.alpha == 0.0 {
            self.kappa
        } else if tokens <= 0.0 {
            0.0
        } else {
            self.kappa * tokens.powf(-self.alpha)
        }
    }

    /// Whether this is the papers' exact posterior.
    pub fn is_exact(&self) -> bool {
        *self == Self::EXACT
    }
}

/// One node's evidence about one held-out example: the node's log priors,
/// the per-child word log-likelihood sums `Σ n(d,t) log θ(cᵢ,t)`, the
/// page's token count among the node's features, and which child lies on
/// the example's path.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEvidence {
    /// `log Pr[cᵢ|c0]`.
    pub log_prior: Vec<f64>,
    /// `Σ_t n(d,t) log θ(cᵢ,t)`.
    pub word_ll: Vec<f64>,
    /// Tokens of the page among the node's features.
    pub tokens: f64,
    /// The child on the example's path.
    pub truth: usize,
}

impl NodeEvidence {
    /// `log Pr[truth | node, d]` under `temper`.
    fn log_prob(&self, temper: Temper) -> f64 {
        let w = temper.weight(self.tokens);
        let ll: Vec<f64> = self
            .log_prior
            .iter()
            .zip(&self.word_ll)
            .map(|(p, s)| p + w * s)
            .collect();
        ll.get(self.truth)
            .map_or(f64::NEG_INFINITY, |x| x - log_sum_exp(&ll))
    }
}

/// Log probabilities below this are clipped in the loss, so one example the
/// model cannot explain does not decide the fit alone.
const MIN_LOG_PROB: f64 = -30.0;

/// Mean log loss of the true topics of `examples` (each the evidence of the
/// nodes on its path, root first) under `temper`.
pub fn log_loss(examples: &[Vec<NodeEvidence>], temper: Temper) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let total: f64 = examples
        .iter()
        .map(|path| {
            let lp: f64 = path.iter().map(|n| n.log_prob(temper)).sum();
            -lp.max(MIN_LOG_PROB)
        })
        .sum();
    total / examples.len() as f64
}

/// Length exponents tried.
const ALPHAS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The [`Temper`] of least out-of-fold log loss over a grid: α in
/// {0, ¼, ½, ¾, 1}, κ from 10⁻⁴ to 10² in steps of 10^0.1. The exact
/// posterior (α 0, κ 1) is on the grid and wins ties.
pub fn fit(examples: &[Vec<NodeEvidence>]) -> Temper {
    let grid: Vec<Temper> = ALPHAS
        .into_iter()
        .flat_map(|alpha| {
            (-40..=20).map(move |step| Temper {
                alpha,
                kappa: 10f64.powf(f64::from(step) / 10.0),
            })
        })
        .collect();
    // The losses are computed in parallel; the choice walks them in grid
    // order, so ties fall as they would one at a time.
    let losses: Vec<f64> = grid.par_iter().map(|&t| log_loss(examples, t)).collect();
    let mut best = (log_loss(examples, Temper::EXACT), Temper::EXACT);
    for (loss, t) in losses.into_iter().zip(grid) {
        if loss < best.0 {
            best = (loss, t);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(word_ll: [f64; 2], tokens: f64, truth: usize) -> NodeEvidence {
        NodeEvidence {
            log_prior: vec![0.5f64.ln(); 2],
            word_ll: word_ll.to_vec(),
            tokens,
            truth,
        }
    }

    #[test]
    fn exact_weights_every_occurrence_once() {
        assert_eq!(Temper::EXACT.weight(1000.0), 1.0);
        let t = Temper {
            alpha: 1.0,
            kappa: 4.0,
        };
        assert!((t.weight(8.0) - 0.5).abs() < 1e-12);
        assert_eq!(t.weight(0.0), 0.0);
        // Equal priors, word evidence 2 nats for the truth: Pr = σ(2).
        let e = node([0.0, -2.0], 10.0, 0);
        let p = e.log_prob(Temper::EXACT).exp();
        assert!((p - 1.0 / (1.0 + (-2.0f64).exp())).abs() < 1e-12);
    }

    #[test]
    fn overconfident_evidence_is_tempered() {
        // Long pages whose word evidence is huge (±200 nats) but right only
        // four times in five: the exact posterior pays 200 nats per miss.
        let mut ex = Vec::new();
        for i in 0..50 {
            let truth = usize::from(i % 5 == 4);
            ex.push(vec![node([0.0, -200.0], 400.0, truth)]);
        }
        let t = fit(&ex);
        assert!(!t.is_exact());
        assert!(log_loss(&ex, t) < log_loss(&ex, Temper::EXACT));
        // The fitted posterior of the favoured child is near the 0.8 hit rate.
        let p = ex[0][0].log_prob(t).exp();
        assert!((0.7..0.9).contains(&p), "{p}");
    }

    #[test]
    fn calibrated_evidence_stays_exact() {
        // Evidence of 1 nat, right as often as σ(1) says: nothing to fix.
        let p = 1.0 / (1.0 + (-1.0f64).exp());
        let mut ex = Vec::new();
        for i in 0..1000 {
            let truth = usize::from((i as f64 + 0.5) / 1000.0 > p);
            ex.push(vec![node([0.0, -1.0], 50.0, truth)]);
        }
        let t = fit(&ex);
        assert!(
            (t.weight(50.0) - 1.0).abs() < 0.15,
            "weight {}",
            t.weight(50.0)
        );
        assert_eq!(fit(&[]), Temper::EXACT);
    }
}
