//! Hierarchical multinomial naive Bayes over a taxonomy (Chakrabarti et
//! al. 1999, VLDB eq. 1–3).
//!
//! For every internal node c0 with children cᵢ and feature set F(c0):
//! θ(cᵢ,t) = (1 + n(cᵢ,t)) / (|F(c0)| + Σ_{τ∈F(c0)} n(cᵢ,τ)), where n(c,t)
//! counts t over the training documents of c's subtree; Pr[cᵢ|c0] is
//! Laplace-smoothed from document counts. A document's
//! Pr[cᵢ|c0,d] ∝ Pr[cᵢ|c0] Π_{t∈d∩F(c0)} θ(cᵢ,t)^{n(d,t)}, normalised over
//! the siblings in the log domain, and Pr[cᵢ|d] = Pr[c0|d]·Pr[cᵢ|c0,d], so
//! siblings' probabilities sum to their parent's. Relevance is
//! R(d) = Σ_{good c} Pr[c|d].
//!
//! That is the papers' exact posterior ([`Scoring::Exact`], the default of
//! this library type). On real pages it is 0 or 1 to dozens of decimal
//! places; [`Scoring::Tempered`] weighs each node's word evidence by a
//! length-dependent factor fitted on out-of-fold training examples
//! ([`crate::temper`]), so R ranks and is calibrated.
//!
//! The VLDB paper's BulkProbe (one sort of a batch's terms, merge-joined
//! with each node's features) is not here: measured against one probe per
//! term per document it was slower in memory (docs/classify.md), and the
//! crawl classifies pages one at a time on rayon.

use std::sync::OnceLock;

use focus_core::{Taxonomy, TopicId};
use focus_text::{SparseVec, TermId};
use serde::{Deserialize, Serialize};

use crate::features::FeatureConfig;
use crate::model_io::{self, ModelKind};
use crate::temper::{self, Temper};
use crate::term_index::TermIndex;
use crate::weights::softmax;
use crate::{Classifier, ClassifyError, Example, Judgement};

mod train;

use train::{out_of_fold_evidence, train_nodes};

/// How a page's posteriors are computed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scoring {
    /// The papers' posterior: every word occurrence is independent evidence.
    #[default]
    Exact,
    /// Word evidence weighted by a length-dependent factor fitted on
    /// out-of-fold training examples ([`crate::temper`]).
    Tempered,
}

/// Training settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HierNbConfig {
    /// Per-node feature selection (`top_k = 0` keeps every term).
    pub features: FeatureConfig,
    /// Exact or tempered posteriors.
    pub scoring: Scoring,
}

/// Fewer examples than this are too few to fit tempering: exact posteriors.
const TEMPER_MIN_EXAMPLES: usize = 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NodeModel {
    node: TopicId,
    children: Vec<TopicId>,
    /// Sorted.
    features: Vec<TermId>,
    /// `log θ(child, feature)` at `[feature * children.len() + child]`.
    log_theta: Vec<f64>,
    log_prior: Vec<f64>,
}

impl NodeModel {
    fn row(&self, term: TermId) -> Option<&[f64]> {
        let k = self.children.len();
        let i = self.features.binary_search(&term).ok()?;
        self.log_theta.get(i * k..(i + 1) * k)
    }

    /// Per child `Σ n(d,t) log θ(child,t)`, and the page's tokens among the
    /// node's features.
    fn word_evidence(&self, counts: &SparseVec) -> (Vec<f64>, f64) {
        let mut ll = vec![0.0; self.children.len()];
        let mut tokens = 0.0;
        for &(t, n) in counts.entries() {
            if let Some(row) = self.row(t) {
                tokens += n;
                for (acc, lt) in ll.iter_mut().zip(row) {
                    *acc += n * lt;
                }
            }
        }
        (ll, tokens)
    }

    /// Log-likelihoods of the children from the word evidence
    /// ([`NodeModel::word_evidence`]), weighted by `temper`.
    fn log_likelihoods_of(&self, words: Vec<f64>, tokens: f64, temper: Temper) -> Vec<f64> {
        let w = temper.weight(tokens);
        self.log_prior
            .iter()
            .zip(words)
            .map(|(p, s)| p + w * s)
            .collect()
    }
}

/// A trained hierarchical naive Bayes model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HierNb {
    taxonomy: Taxonomy,
    /// Internal nodes, parents before children.
    nodes: Vec<NodeModel>,
    /// The weight of word evidence ([`Temper::EXACT`] unless tempered).
    temper: Temper,
    /// The nodes' `log θ` rows by term; derived from `nodes` on first use
    /// (a stored model does not carry it).
    #[serde(skip)]
    by_term: OnceLock<TermIndex>,
}

fn term_index(nodes: &[NodeModel]) -> TermIndex {
    TermIndex::build(
        nodes
            .iter()
            .map(|m| (&m.features[..], &m.log_theta[..], m.children.len())),
    )
}

impl HierNb {
    /// Trains on examples labelled with any topic of `taxonomy` (an example
    /// of a topic is also an example of every ancestor).
    pub fn train(
        taxonomy: &Taxonomy,
        examples: &[Example],
        cfg: HierNbConfig,
    ) -> Result<HierNb, ClassifyError> {
        if examples.is_empty() {
            return Err(ClassifyError::Training("no examples".into()));
        }
        // The model and the out-of-fold fit of its temper read only the
        // examples: they are trained side by side.
        let (nodes, temper) = rayon::join(
            || train_nodes(taxonomy, &examples.iter().collect::<Vec<_>>(), cfg.features),
            || match cfg.scoring {
                Scoring::Tempered if examples.len() >= TEMPER_MIN_EXAMPLES => {
                    temper::fit(&out_of_fold_evidence(taxonomy, examples, cfg.features))
                }
                _ => Temper::EXACT,
            },
        );
        Ok(HierNb {
            taxonomy: taxonomy.clone(),
            nodes,
            temper,
            by_term: OnceLock::new(),
        })
    }

    /// The weight of word evidence this model uses.
    pub fn temper(&self) -> Temper {
        self.temper
    }

    /// The taxonomy (with the good marks relevance is computed for).
    pub fn taxonomy(&self) -> &Taxonomy {
        &self.taxonomy
    }

    /// Replaces the good marks (no retraining needed: marks only change
    /// which probabilities are summed into R(d)).
    pub fn set_good(&mut self, good: &[TopicId]) -> Result<(), ClassifyError> {
        self.taxonomy
            .set_good(good)
            .map_err(|e| ClassifyError::Training(e.to_string()))
    }

    /// Pr[c|d] for every topic (root = 1), by the chain rule.
    pub fn posteriors(&self, counts: &SparseVec) -> Vec<f64> {
        self.posteriors_below(counts, &vec![true; self.nodes.len()])
    }

    /// Pr[c|d], by the chain rule, for the children of the internal nodes
    /// marked in `wanted` (by their place in `nodes`) whose parents are
    /// wanted too, up to the root; every other topic is left at 0.
    fn posteriors_below(&self, counts: &SparseVec, wanted: &[bool]) -> Vec<f64> {
        // One look-up per term for all nodes (not a search per node); the
        // sums run in the same order as `NodeModel::word_evidence`'s, so
        // the result is the same to the last bit.
        let index = self.by_term.get_or_init(|| term_index(&self.nodes));
        let mut words: Vec<Vec<f64>> = self
            .nodes
            .iter()
            .zip(wanted)
            .map(|(m, &w)| vec![0.0; if w { m.children.len() } else { 0 }])
            .collect();
        let mut tokens = vec![0.0; self.nodes.len()];
        for &(t, n) in counts.entries() {
            for &row in index.rows(t) {
                let node = row.node as usize;
                if !wanted[node] {
                    continue;
                }
                let theta = index.values(row, words[node].len());
                tokens[node] += n;
                for (acc, lt) in words[node].iter_mut().zip(theta) {
                    *acc += n * lt;
                }
            }
        }
        let mut p = vec![0.0; self.taxonomy.len()];
        p[0] = 1.0;
        for ((m, words), (tokens, &w)) in self
            .nodes
            .iter()
            .zip(words)
            .zip(tokens.into_iter().zip(wanted))
        {
            if !w {
                continue;
            }
            let parent = p[m.node.0 as usize];
            let ll = m.log_likelihoods_of(words, tokens, self.temper);
            for (c, q) in m.children.iter().zip(softmax(&ll)) {
                p[c.0 as usize] = parent * q;
            }
        }
        p
    }

    /// R(d) from posteriors that hold at least the `good` topics'.
    fn relevance_of(good: &[TopicId], p: &[f64]) -> f64 {
        good.iter()
            .map(|g| p[g.0 as usize])
            .sum::<f64>()
            .clamp(0.0, 1.0)
    }

    fn judge(&self, p: &[f64]) -> Judgement {
        let relevance = Self::relevance_of(&self.taxonomy.good_topics(), p);
        let mut scores: Vec<(TopicId, f64)> = self
            .taxonomy
            .leaves()
            .into_iter()
            .map(|l| (l, p[l.0 as usize]))
            .collect();
        scores.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Judgement {
            relevance,
            best: scores.first().map(|s| s.0),
            scores,
        }
    }

    /// Encodes the model with its versioned header.
    pub fn to_bytes(&self) -> Result<Vec<u8>, ClassifyError> {
        model_io::save(ModelKind::HierNb, self)
    }

    /// Decodes a model written by [`HierNb::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<HierNb, ClassifyError> {
        let mut m: HierNb = model_io::load(ModelKind::HierNb, bytes)?;
        m.taxonomy.reindex();
        let valid = m.nodes.iter().all(|n| {
            n.log_theta.len() == n.features.len() * n.children.len()
                && n.log_prior.len() == n.children.len()
                && n.children
                    .iter()
                    .chain([&n.node])
                    .all(|c| (c.0 as usize) < m.taxonomy.len())
        });
        if !valid {
            return Err(ClassifyError::Model(
                "inconsistent hierarchical NB tables".into(),
            ));
        }
        Ok(m)
    }
}

impl Classifier for HierNb {
    fn classify(&self, counts: &SparseVec) -> Judgement {
        self.judge(&self.posteriors(counts))
    }

    /// R(d) from the nodes on the good topics' paths only: their
    /// posteriors are the chain rule's products along those paths, so the
    /// rest of the taxonomy is not needed (a link's few words are judged
    /// this way, most of the crawl's classifications).
    fn relevance(&self, counts: &SparseVec) -> f64 {
        let good = self.taxonomy.good_topics();
        let mut on_path = vec![false; self.taxonomy.len()];
        for &g in &good {
            for a in self.taxonomy.ancestors(g) {
                on_path[a.0 as usize] = true;
            }
        }
        let wanted: Vec<bool> = self
            .nodes
            .iter()
            .map(|m| on_path[m.node.0 as usize])
            .collect();
        Self::relevance_of(&good, &self.posteriors_below(counts, &wanted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::TaxonomyBuilder;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    /// Topics `a` (good) and `b`.
    fn tax_ab() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("a")
            .unwrap()
            .topic("b")
            .unwrap()
            .good("a")
            .unwrap()
            .build()
    }

    fn all_features() -> HierNbConfig {
        HierNbConfig {
            features: FeatureConfig {
                top_k: 0,
                candidates: 0,
            },
            scoring: Scoring::Exact,
        }
    }

    #[test]
    fn hand_worked_two_class_model() {
        let tax = tax_ab();
        let (a, b) = (tax.find("a").unwrap(), tax.find("b").unwrap());
        let ex = [
            Example {
                counts: v(&[(1, 2.0)]),
                topic: a,
            },
            Example {
                counts: v(&[(2, 1.0)]),
                topic: b,
            },
        ];
        let nb = HierNb::train(&tax, &ex, all_features()).unwrap();
        // F = {1, 2}. θ(a,1) = 3/4, θ(a,2) = 1/4; θ(b,1) = 1/3, θ(b,2) = 2/3;
        // priors (1+1)/(2+2) = 1/2. For d = {1:1, 2:1}:
        // Pr[a|d] ∝ 1/2·3/4·1/4 = 3/32, Pr[b|d] ∝ 1/2·1/3·2/3 = 1/9 → (27/288)/(59/288) = 27/59.
        let j = nb.classify(&v(&[(1, 1.0), (2, 1.0)]));
        assert!((j.relevance - 27.0 / 59.0).abs() < 1e-9);
        assert_eq!(j.best, Some(b));
        // Unknown terms change nothing: the priors decide (1/2).
        assert!((nb.classify(&v(&[(9, 5.0)])).relevance - 0.5).abs() < 1e-9);
    }

    #[test]
    fn chain_rule_siblings_sum_to_parent() {
        let tax = TaxonomyBuilder::new()
            .topic("x/p")
            .unwrap()
            .topic("x/q")
            .unwrap()
            .topic("y")
            .unwrap()
            .good("x/p")
            .unwrap()
            .build();
        let ids = |p: &str| tax.find(p).unwrap();
        let ex = [
            Example {
                counts: v(&[(1, 3.0), (2, 1.0)]),
                topic: ids("x/p"),
            },
            Example {
                counts: v(&[(1, 1.0), (3, 2.0)]),
                topic: ids("x/q"),
            },
            Example {
                counts: v(&[(4, 4.0)]),
                topic: ids("y"),
            },
        ];
        let nb = HierNb::train(&tax, &ex, all_features()).unwrap();
        let d = v(&[(1, 2.0), (3, 1.0)]);
        let p = nb.posteriors(&d);
        let (x, px, qx, y) = (ids("x"), ids("x/p"), ids("x/q"), ids("y"));
        assert!((p[x.0 as usize] + p[y.0 as usize] - 1.0).abs() < 1e-12);
        assert!((p[px.0 as usize] + p[qx.0 as usize] - p[x.0 as usize]).abs() < 1e-12);
        let j = nb.classify(&d);
        assert!((j.relevance - p[px.0 as usize]).abs() < 1e-12);
        assert_eq!(nb.classify(&v(&[(4, 1.0)])).best, Some(y));
        // Marking another topic good needs no retraining.
        let mut nb2 = nb.clone();
        nb2.set_good(&[x]).unwrap();
        assert!((nb2.classify(&d).relevance - p[x.0 as usize]).abs() < 1e-12);
        // The term index gives each node's own evidence to the last bit,
        // also on a model read back from storage (which has no index).
        let by_node: Vec<Vec<f64>> = nb
            .nodes
            .iter()
            .map(|m| {
                let (words, tokens) = m.word_evidence(&d);
                m.log_likelihoods_of(words, tokens, nb.temper)
            })
            .collect();
        let mut chained = vec![0.0; tax.len()];
        chained[0] = 1.0;
        for (m, ll) in nb.nodes.iter().zip(&by_node) {
            let parent = chained[m.node.0 as usize];
            for (c, q) in m.children.iter().zip(softmax(ll)) {
                chained[c.0 as usize] = parent * q;
            }
        }
        assert_eq!(p, chained);
        let stored = HierNb::from_bytes(&nb.to_bytes().unwrap()).unwrap();
        assert_eq!(stored.posteriors(&d), p);
        // Relevance alone, from the good topics' paths, is the judgement's
        // to the last bit, whichever topics are good.
        for good in [vec![px], vec![x], vec![y], vec![px, y], vec![qx, y]] {
            let mut m = nb.clone();
            m.set_good(&good).unwrap();
            for doc in [&d, &v(&[(4, 1.0)]), &v(&[]), &v(&[(2, 5.0), (9, 1.0)])] {
                let r = m.relevance(doc);
                assert_eq!(r.to_bits(), m.classify(doc).relevance.to_bits(), "{good:?}");
            }
        }
    }

    #[test]
    fn tempered_posteriors_rank_as_exact_ones_without_saturating() {
        let tax = tax_ab();
        let (a, b) = (tax.find("a").unwrap(), tax.find("b").unwrap());
        // Long pages (200-400 tokens) whose words lean 60/40 to their
        // class, one page in four labelled against its words: exact naive
        // Bayes is certain of every page, and wrong on a quarter of them.
        let page = |lean_a: bool, len: f64| {
            let (x, y) = if lean_a { (0.6, 0.4) } else { (0.4, 0.6) };
            v(&[(1, x * len), (2, y * len), (3, 0.1 * len)])
        };
        let ex: Vec<Example> = (0..80)
            .map(|i| {
                let lean_a = i % 2 == 0;
                let noisy = matches!(i % 8, 1 | 2);
                Example {
                    counts: page(lean_a, 200.0 + f64::from(i) * 2.5),
                    topic: if lean_a == noisy { b } else { a },
                }
            })
            .collect();
        let exact = HierNb::train(&tax, &ex, all_features()).unwrap();
        let tempered = HierNb::train(
            &tax,
            &ex,
            HierNbConfig {
                scoring: Scoring::Tempered,
                ..all_features()
            },
        )
        .unwrap();
        assert!(exact.temper().is_exact());
        assert!(!tempered.temper().is_exact());
        let (d_a, d_b) = (page(true, 300.0), page(false, 300.0));
        let (e_a, e_b) = (
            exact.classify(&d_a).relevance,
            exact.classify(&d_b).relevance,
        );
        let (t_a, t_b) = (
            tempered.classify(&d_a).relevance,
            tempered.classify(&d_b).relevance,
        );
        assert!(e_a > 0.999 && e_b < 0.001, "exact {e_a} {e_b}");
        // Same order, and probabilities near the examples' hit rate (3/4).
        assert!(t_a > t_b);
        assert!((0.6..0.95).contains(&t_a), "tempered {t_a}");
        assert!((0.05..0.4).contains(&t_b), "tempered {t_b}");
        // Persisted with its temper.
        let back = HierNb::from_bytes(&tempered.to_bytes().unwrap()).unwrap();
        assert_eq!(back.classify(&d_a), tempered.classify(&d_a));
        // Too few examples to fit: the exact posterior.
        let few = HierNb::train(
            &tax,
            &ex[..10],
            HierNbConfig {
                scoring: Scoring::Tempered,
                ..all_features()
            },
        )
        .unwrap();
        assert!(few.temper().is_exact());
    }

    /// Training runs its nodes, folds and temper grid in parallel; the
    /// model is the same, byte for byte, on one thread as on several.
    #[test]
    fn training_on_many_threads_gives_the_model_of_one() {
        let (tax, ex) = crate::threads_test::grouped(6, 20);
        let cfg = HierNbConfig {
            scoring: Scoring::Tempered,
            ..HierNbConfig::default()
        };
        let on = |threads| {
            crate::threads_test::on_threads(threads, || HierNb::train(&tax, &ex, cfg))
                .unwrap()
                .to_bytes()
                .unwrap()
        };
        let one = on(1);
        assert!(
            !HierNb::from_bytes(&one).unwrap().temper().is_exact(),
            "the tempered fit ran"
        );
        // Threads finish in an order that varies from run to run: the
        // parallel training is repeated so an order that leaked into the
        // model would show.
        for _ in 0..25 {
            assert!(on(4) == one, "a model trained on 4 threads differs");
        }
    }

    #[test]
    fn persistence_reloads_to_identical_scores() {
        let tax = tax_ab();
        let ex = [
            Example {
                counts: v(&[(1, 2.0)]),
                topic: tax.find("a").unwrap(),
            },
            Example {
                counts: v(&[(2, 1.0)]),
                topic: tax.find("b").unwrap(),
            },
        ];
        let nb = HierNb::train(&tax, &ex, HierNbConfig::default()).unwrap();
        let bytes = nb.to_bytes().unwrap();
        let back = HierNb::from_bytes(&bytes).unwrap();
        let d = v(&[(1, 1.0), (2, 3.0)]);
        assert_eq!(back.classify(&d), nb.classify(&d));
        assert!(back.taxonomy().find("a").is_some());
        assert!(HierNb::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    }
}
