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
    let mut counts: Vec<HashMap<usize, f64>> = vec![HashMap::new(); leaves.len()];
    let mut totals = vec![0.0f64; leaves.len()];
    let mut tests: Vec<(usize, Vec<String>)> = Vec::new();
    for (k, leaf) in leaves.iter().enumerate() {
        let pages = web.sample(*leaf, train + test);
        for (i, p) in pages.iter().enumerate() {
            let Some(html) = web.page_html(p.id) else {
                continue;
            };
            let words = visible_words(&html);
            if i < train {
                for w in words {
                    let n = vocab.len();
                    let id = *vocab.entry(w).or_insert(n);
                    *counts[k].entry(id).or_default() += 1.0;
                    totals[k] += 1.0;
                }
            } else {
                tests.push((k, words));
            }
        }
    }
    let v = vocab.len() as f64 + 1.0;
    let mut correct = 0usize;
    for (truth, words) in &tests {
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for k in 0..leaves.len() {
            let denom = (totals[k] + v).ln();
            let mut s = 0.0;
            for w in words {
                let c = vocab
                    .get(w)
                    .and_then(|id| counts[k].get(id))
                    .copied()
                    .unwrap_or(0.0);
                s += (c + 1.0).ln() - denom;
            }
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
