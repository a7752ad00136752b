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
//! The VLDB paper's BulkProbe (one sort of a batch's terms, merge-joined
//! with each node's features) is not here: measured against one probe per
//! term per document it was slower in memory (docs/classify.md), and the
//! crawl classifies pages one at a time on rayon.

use focus_core::{Taxonomy, TopicId};
use focus_text::{SparseVec, TermId};
use serde::{Deserialize, Serialize};

use crate::features::{self, FeatureConfig};
use crate::model_io::{self, ModelKind};
use crate::weights::softmax;
use crate::{Classifier, ClassifyError, Example, Judgement};

/// Training settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HierNbConfig {
    /// Per-node feature selection (`top_k = 0` keeps every term).
    pub features: FeatureConfig,
}

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
}

/// A trained hierarchical naive Bayes model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HierNb {
    taxonomy: Taxonomy,
    /// Internal nodes, parents before children.
    nodes: Vec<NodeModel>,
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
        let mut nodes = Vec::new();
        for node in taxonomy.ids() {
            let children = taxonomy.children(node).to_vec();
            if children.is_empty() {
                continue;
            }
            // Each example under `node` is routed to the child whose subtree holds it.
            let routed: Vec<(&SparseVec, usize)> = examples
                .iter()
                .filter_map(|e| {
                    children
                        .iter()
                        .position(|&c| taxonomy.is_ancestor_or_self(c, e.topic))
                        .map(|i| (&e.counts, i))
                })
                .collect();
            nodes.push(train_node(node, children, &routed, cfg.features));
        }
        Ok(HierNb {
            taxonomy: taxonomy.clone(),
            nodes,
        })
    }

    /// The taxonomy (with the good marks relevance is computed for).
    pub fn taxonomy(&self) -> &Taxonomy {
        &self.taxonomy
    }

    /// Replaces the good marks (no retraining needed: marks only change
    /// which probabilities are summed into R(d)).
    pub fn set_good(&mut self, good: &[TopicId]) -> Result<(), ClassifyError> {
        let mut t = self.taxonomy.clone();
        t.clear_good();
        for &g in good {
            t.mark_good(g)
                .map_err(|e| ClassifyError::Training(e.to_string()))?;
        }
        self.taxonomy = t;
        Ok(())
    }

    /// Pr[c|d] for every topic (root = 1), by the chain rule.
    pub fn posteriors(&self, counts: &SparseVec) -> Vec<f64> {
        let lls: Vec<Vec<f64>> = self
            .nodes
            .iter()
            .map(|m| node_log_likelihoods(m, counts))
            .collect();
        self.chain(&lls)
    }

    fn chain(&self, lls: &[Vec<f64>]) -> Vec<f64> {
        let mut p = vec![0.0; self.taxonomy.len()];
        p[0] = 1.0;
        for (m, ll) in self.nodes.iter().zip(lls) {
            let parent = p[m.node.0 as usize];
            for (c, q) in m.children.iter().zip(softmax(ll)) {
                p[c.0 as usize] = parent * q;
            }
        }
        p
    }

    fn judge(&self, p: &[f64]) -> Judgement {
        let good = self.taxonomy.good_topics();
        let relevance = good
            .iter()
            .map(|g| p[g.0 as usize])
            .sum::<f64>()
            .clamp(0.0, 1.0);
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

fn train_node(
    node: TopicId,
    children: Vec<TopicId>,
    routed: &[(&SparseVec, usize)],
    fcfg: FeatureConfig,
) -> NodeModel {
    let k = children.len();
    let feats = features::select(routed, k, fcfg);
    let mut counts = vec![0.0f64; feats.len() * k];
    let mut totals = vec![0.0f64; k];
    let mut docs = vec![0.0f64; k];
    for &(d, c) in routed {
        docs[c] += 1.0;
        for &(t, n) in d.entries() {
            if let Ok(i) = feats.binary_search(&t) {
                counts[i * k + c] += n;
                totals[c] += n;
            }
        }
    }
    let f = feats.len() as f64;
    let log_theta = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| ((1.0 + n) / (f + totals[i % k])).ln())
        .collect();
    let n_docs: f64 = docs.iter().sum();
    let log_prior = docs
        .iter()
        .map(|&d| ((d + 1.0) / (n_docs + k as f64)).ln())
        .collect();
    NodeModel {
        node,
        children,
        features: feats,
        log_theta,
        log_prior,
    }
}

fn node_log_likelihoods(m: &NodeModel, counts: &SparseVec) -> Vec<f64> {
    let mut ll = m.log_prior.clone();
    for &(t, n) in counts.entries() {
        if let Some(row) = m.row(t) {
            for (acc, lt) in ll.iter_mut().zip(row) {
                *acc += n * lt;
            }
        }
    }
    ll
}

impl Classifier for HierNb {
    fn classify(&self, counts: &SparseVec) -> Judgement {
        self.judge(&self.posteriors(counts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::TaxonomyBuilder;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    fn all_features() -> HierNbConfig {
        HierNbConfig {
            features: FeatureConfig {
                top_k: 0,
                candidates: 0,
            },
        }
    }

    #[test]
    fn hand_worked_two_class_model() {
        let tax = TaxonomyBuilder::new()
            .topic("a")
            .unwrap()
            .topic("b")
            .unwrap()
            .good("a")
            .unwrap()
            .build();
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
    }

    #[test]
    fn persistence_reloads_to_identical_scores() {
        let tax = TaxonomyBuilder::new()
            .topic("a")
            .unwrap()
            .topic("b")
            .unwrap()
            .good("a")
            .unwrap()
            .build();
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
