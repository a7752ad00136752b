//! Training the hierarchical naive Bayes: one model per internal node
//! (feature selection, Laplace-smoothed θ and priors), and the out-of-fold
//! evidence that fits the tempered relevance's weight.

use focus_core::{Taxonomy, TopicId};
use focus_text::SparseVec;
use rayon::prelude::*;

use super::NodeModel;
use crate::features::{self, FeatureConfig};
use crate::temper::NodeEvidence;
use crate::Example;

/// Folds of the out-of-fold examples tempering is fitted on.
const TEMPER_FOLDS: usize = 5;

/// One model per internal node, parents before children; each example is
/// routed to the child whose subtree holds it. The nodes are trained in
/// parallel (each model reads only the examples) and kept in taxonomy
/// order.
pub(super) fn train_nodes(
    taxonomy: &Taxonomy,
    examples: &[&Example],
    fcfg: FeatureConfig,
) -> Vec<NodeModel> {
    let internal: Vec<TopicId> = taxonomy
        .ids()
        .filter(|&node| !taxonomy.children(node).is_empty())
        .collect();
    internal
        .into_par_iter()
        .map(|node| {
            let children = taxonomy.children(node).to_vec();
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
            train_node(node, children, &routed, fcfg)
        })
        .collect()
}

/// For every example, the evidence of the nodes on its path from a model
/// trained without the example's fold ([`TEMPER_FOLDS`] folds by index),
/// fold by fold. The folds' models are trained in parallel.
pub(super) fn out_of_fold_evidence(
    taxonomy: &Taxonomy,
    examples: &[Example],
    fcfg: FeatureConfig,
) -> Vec<Vec<NodeEvidence>> {
    let by_fold: Vec<Vec<Vec<NodeEvidence>>> = (0..TEMPER_FOLDS)
        .into_par_iter()
        .map(|fold| fold_evidence(taxonomy, examples, fcfg, fold))
        .collect();
    by_fold.into_iter().flatten().collect()
}

/// The evidence for the examples of `fold` from a model trained on the
/// other folds.
fn fold_evidence(
    taxonomy: &Taxonomy,
    examples: &[Example],
    fcfg: FeatureConfig,
    fold: usize,
) -> Vec<Vec<NodeEvidence>> {
    let train: Vec<&Example> = examples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % TEMPER_FOLDS != fold)
        .map(|(_, e)| e)
        .collect();
    let nodes = train_nodes(taxonomy, &train, fcfg);
    examples
        .iter()
        .skip(fold)
        .step_by(TEMPER_FOLDS)
        .map(|e| {
            nodes
                .iter()
                .filter_map(|m| {
                    let truth = m
                        .children
                        .iter()
                        .position(|&c| taxonomy.is_ancestor_or_self(c, e.topic))?;
                    let (word_ll, tokens) = m.word_evidence(&e.counts);
                    Some(NodeEvidence {
                        log_prior: m.log_prior.clone(),
                        word_ll,
                        tokens,
                        truth,
                    })
                })
                .collect()
        })
        .collect()
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
