//! A minimal multinomial naive Bayes (Laplace smoothing, flat over leaves)
//! for the classifier calibration figure: trained on [`Web::sample`] pages,
//! tested on other pages of each leaf.

use std::collections::HashMap;

use crate::stats::visible_words;
use crate::web::Web;

/// Accuracy of leaf classification on held-out pages.
pub(crate) fn accuracy(web: &Web, train: usize, test: usize) -> f64 {
    let leaves = web.taxonomy().leaves();
    let mut vocab: HashMap<String, usize> = HashMap::new();
    let mut train_docs: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut tests: Vec<(usize, Vec<Option<usize>>)> = Vec::new();
    for (k, leaf) in leaves.iter().enumerate() {
        let pages = web.sample(*leaf, train + test);
        for (i, p) in pages.iter().enumerate() {
            let Some(html) = web.page_html(p.id) else {
                continue;
            };
            let words = visible_words(&html);
            if i < train {
                let ids = words
                    .into_iter()
                    .map(|w| {
                        let n = vocab.len();
                        *vocab.entry(w).or_insert(n)
                    })
                    .collect();
                train_docs.push((k, ids));
            } else {
                tests.push((k, words.iter().map(|w| vocab.get(w).copied()).collect()));
            }
        }
    }
    // Test words unseen in training are ignored (they carry no evidence
    // beyond the smoothing constant, the same for every class).
    let v = vocab.len();
    let mut counts = vec![vec![0.0f64; v]; leaves.len()];
    let mut totals = vec![0.0f64; leaves.len()];
    for (k, ids) in &train_docs {
        for id in ids {
            counts[*k][*id] += 1.0;
        }
        totals[*k] += ids.len() as f64;
    }
    let logp: Vec<Vec<f64>> = counts
        .iter()
        .zip(&totals)
        .map(|(c, t)| {
            let denom = (t + v as f64 + 1.0).ln();
            c.iter().map(|x| (x + 1.0).ln() - denom).collect()
        })
        .collect();
    let mut correct = 0usize;
    for (truth, words) in &tests {
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for (k, lp) in logp.iter().enumerate() {
            let s: f64 = words.iter().flatten().map(|id| lp[*id]).sum();
            if s > best.0 {
                best = (s, k);
            }
        }
        if best.1 == *truth {
            correct += 1;
        }
    }
    correct as f64 / tests.len().max(1) as f64
}
