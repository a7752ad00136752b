//! Test data shared by the clustering's unit tests: separated synthetic
//! groups of documents with a vocabulary, and Zipfian groups closer to real
//! pages, each with its true partition.

use focus_text::vocab::Vocab;
use focus_text::{SparseVec, TermId, Vocabulary};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::kmeans::sample;

pub(super) const PREFIXES: [&str; 5] = ["crawl", "tennis", "cook", "opera", "chess"];

/// `groups` groups of `per_group` documents, interleaved (document `i`
/// is in group `i % groups`). Each document holds 8 of its group's 40
/// words (weights in [1, 3)) and 2 of 10 words every group shares
/// (weight 0.3).
pub(super) fn synthetic(
    groups: usize,
    per_group: usize,
    seed: u64,
) -> (Vec<SparseVec>, Vec<usize>, Vocabulary) {
    let mut vocab = Vocabulary::new();
    let words: Vec<Vec<TermId>> = PREFIXES[..groups]
        .iter()
        .map(|p| {
            (0..40)
                .map(|w| vocab.id(&format!("{p}{w}")).unwrap())
                .collect()
        })
        .collect();
    let common: Vec<TermId> = (0..10)
        .map(|w| vocab.id(&format!("common{w}")).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut docs = Vec::new();
    let mut truth = Vec::new();
    for i in 0..groups * per_group {
        let g = i % groups;
        let mut entries = Vec::new();
        let mut picked = std::collections::BTreeSet::new();
        while picked.len() < 8 {
            picked.insert(rng.random_range(0..40));
        }
        for w in picked {
            entries.push((words[g][w], 1.0 + 2.0 * rng.random::<f64>()));
        }
        for _ in 0..2 {
            entries.push((common[rng.random_range(0..10)], 0.3));
        }
        docs.push(SparseVec::from_unsorted(entries));
        truth.push(g);
    }
    (docs, truth, vocab)
}

pub(super) fn same_partition(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len()
        && (0..a.len()).all(|i| (0..a.len()).all(|j| (a[i] == a[j]) == (b[i] == b[j])))
}

/// Zipfian groups closer to real pages: each group has 400 own words and
/// all share 800 common words; a document draws 120 occurrences, 60% from
/// its group's words and 40% from the common ones, each Zipf(1);
/// weights are counts. Document `i` is in group `i % groups`.
pub(super) fn zipf_groups(
    groups: usize,
    per_group: usize,
    seed: u64,
) -> (Vec<SparseVec>, Vec<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let zipf = |n: usize| {
        let w: Vec<f64> = (1..=n).map(|r| 1.0 / r as f64).collect();
        let total: f64 = w.iter().sum();
        (w, total)
    };
    let (own, own_total) = zipf(400);
    let (common, common_total) = zipf(800);
    let mut docs = Vec::new();
    let mut truth = Vec::new();
    for i in 0..groups * per_group {
        let g = i % groups;
        let entries = (0..120)
            .map(|_| {
                let id = if rng.random::<f64>() < 0.6 {
                    10_000 * (g + 1) + sample(&own, own_total, &mut rng)
                } else {
                    sample(&common, common_total, &mut rng)
                };
                (TermId(id as u32), 1.0)
            })
            .collect();
        docs.push(SparseVec::from_unsorted(entries));
        truth.push(g);
    }
    (docs, truth)
}
