//! Bergmark's centroids (collection synthesis, 2002).
//!
//! For each topic (collection) with seed set S_T, terms are ranked by
//! tf_T(t)·df_T(t) / max(7, |S_T|) and the centroid keeps its `top_k`
//! (20 or 40); the crawl's dictionary is the union of centroid terms.
//! Centroid weights are c_t = tf_T(t)·idf(t) with idf(t) = log(N/df(t)) over
//! the N seed documents (not normalised). A document's vector is
//! d_t = f_t·idf(t) over dictionary terms, L2-normalised, and
//! corr(c, d) = c·d / ‖c‖. Documents sharing fewer than `min_overlap`
//! terms with the dictionary are unclassified. [`Centroids::reestimate_idf`]
//! recomputes idf from crawled pages (§6.4). [`Centroids::quality`] is the
//! paper's check before crawling (§6.2): how alike the centroids are, and
//! what share of each topic's seed pages is assigned back to its own
//! centroid (the paper found at least 90 %).

use std::collections::{BTreeMap, HashMap};

use focus_core::TopicId;
use focus_text::{SparseVec, TermId};
use serde::{Deserialize, Serialize};

use crate::model_io::{self, ModelKind};
use crate::{Classifier, ClassifyError, Example, Judgement};

mod idf;
mod quality;

pub use idf::DocumentFrequencies;
pub use quality::CentroidQuality;

/// Centroid construction settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CentroidConfig {
    /// Terms kept per centroid (the paper: 20, also 40).
    pub top_k: usize,
    /// Minimum dictionary terms a page must contain (the paper: 4).
    pub min_overlap: usize,
    /// Topics with fewer seed documents get no centroid (the paper: 4).
    pub min_examples: usize,
}

impl Default for CentroidConfig {
    fn default() -> Self {
        Self {
            top_k: 20,
            min_overlap: 4,
            min_examples: 4,
        }
    }
}

/// Trained centroids plus the dictionary and its idf values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Centroids {
    cfg: CentroidConfig,
    topics: Vec<TopicId>,
    /// Per topic: total term frequency of its centroid terms in the seeds.
    tf: Vec<SparseVec>,
    /// Sorted dictionary.
    dictionary: Vec<TermId>,
    /// idf aligned with `dictionary`.
    idf: Vec<f64>,
    centroids: Vec<SparseVec>,
    norms: Vec<f64>,
    /// Topics whose correlation counts as relevance (all when empty).
    good: Vec<TopicId>,
}

impl Centroids {
    /// Builds centroids from labelled seed documents.
    pub fn train(examples: &[Example], cfg: CentroidConfig) -> Result<Centroids, ClassifyError> {
        let mut by_topic: BTreeMap<TopicId, Vec<&SparseVec>> = BTreeMap::new();
        for e in examples {
            by_topic.entry(e.topic).or_default().push(&e.counts);
        }
        let mut topics = Vec::new();
        let mut tf = Vec::new();
        for (topic, docs) in &by_topic {
            if docs.len() < cfg.min_examples.max(1) {
                continue;
            }
            let mut tf_t: HashMap<TermId, (f64, f64)> = HashMap::new();
            for d in docs {
                for &(t, n) in d.entries() {
                    let e = tf_t.entry(t).or_insert((0.0, 0.0));
                    e.0 += n;
                    e.1 += 1.0;
                }
            }
            let denom = (docs.len() as f64).max(7.0);
            let mut ranked: Vec<(TermId, f64, f64)> = tf_t
                .into_iter()
                .map(|(t, (f, df))| (t, f * df / denom, f))
                .collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            ranked.truncate(cfg.top_k);
            topics.push(*topic);
            tf.push(SparseVec::from_unsorted(
                ranked.into_iter().map(|(t, _, f)| (t, f)).collect(),
            ));
        }
        if topics.is_empty() {
            return Err(ClassifyError::Training(format!(
                "no topic has {} seed documents",
                cfg.min_examples
            )));
        }
        let mut dictionary: Vec<TermId> = tf
            .iter()
            .flat_map(|v| v.entries().iter().map(|e| e.0))
            .collect();
        dictionary.sort();
        dictionary.dedup();
        let mut model = Centroids {
            cfg,
            topics,
            tf,
            idf: vec![0.0; dictionary.len()],
            dictionary,
            centroids: Vec::new(),
            norms: Vec::new(),
            good: Vec::new(),
        };
        model.set_idf_from(examples.iter().map(|e| &e.counts));
        Ok(model)
    }

    /// Relevance is the best correlation with these topics (all when empty).
    pub fn set_good(&mut self, good: &[TopicId]) {
        self.good = good.to_vec();
    }

    /// The dictionary (union of centroid terms), sorted.
    pub fn dictionary(&self) -> &[TermId] {
        &self.dictionary
    }

    /// The centroid of a topic, if it has one.
    pub fn centroid(&self, topic: TopicId) -> Option<&SparseVec> {
        self.topics
            .iter()
            .position(|&t| t == topic)
            .map(|i| &self.centroids[i])
    }

    /// The topics that have a centroid.
    pub fn topics(&self) -> &[TopicId] {
        &self.topics
    }

    /// f·idf over dictionary terms (unnormalised).
    fn weigh(&self, counts: &SparseVec) -> SparseVec {
        self.weigh_counting_overlap(counts).0
    }

    /// f·idf over dictionary terms, and how many of the document's terms
    /// with a positive count are in the dictionary. Both lists are sorted,
    /// so one forward walk finds every term: each lookup gallops from where
    /// the last one stopped, which costs the logarithm of the gap rather
    /// than of the whole dictionary.
    fn weigh_counting_overlap(&self, counts: &SparseVec) -> (SparseVec, usize) {
        let dict = self.dictionary.as_slice();
        let mut from = 0;
        let mut overlap = 0;
        let mut weighted = Vec::new();
        for &(t, f) in counts.entries() {
            let Some(i) = gallop(dict, from, t) else {
                break;
            };
            from = i;
            if dict.get(i) == Some(&t) {
                overlap += usize::from(f > 0.0);
                weighted.push((t, f * self.idf[i]));
                from = i + 1;
            }
        }
        (SparseVec::from_unsorted(weighted), overlap)
    }

    /// Encodes the model with its versioned header.
    pub fn to_bytes(&self) -> Result<Vec<u8>, ClassifyError> {
        model_io::save(ModelKind::Centroids, self)
    }

    /// Decodes a model written by [`Centroids::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Centroids, ClassifyError> {
        let m: Centroids = model_io::load(ModelKind::Centroids, bytes)?;
        if m.idf.len() != m.dictionary.len()
            || m.centroids.len() != m.topics.len()
            || m.norms.len() != m.topics.len()
        {
            return Err(ClassifyError::Model("inconsistent centroid tables".into()));
        }
        Ok(m)
    }

    /// The document's weighted, unit-length vector, or `None` when it shares
    /// fewer than `min_overlap` terms with the dictionary (unclassified).
    fn unit_document(&self, counts: &SparseVec) -> Option<SparseVec> {
        let (mut d, overlap) = self.weigh_counting_overlap(counts);
        if overlap < self.cfg.min_overlap {
            return None;
        }
        d.l2_normalize();
        Some(d)
    }

    /// The correlation of topic `i`'s centroid with a unit document.
    fn correlation(&self, i: usize, d: &SparseVec) -> f64 {
        let n = self.norms[i];
        if n > 0.0 {
            self.centroids[i].dot(d) / n
        } else {
            0.0
        }
    }

    /// Whether a topic's correlation counts towards relevance.
    fn counts_as_relevant(&self, topic: TopicId) -> bool {
        self.good.is_empty() || self.good.contains(&topic)
    }
}

/// The first index at or after `from` whose term is not below `t`, or `None`
/// when every term from `from` on is below it: an exponential probe from
/// `from`, then a binary search inside the last step.
fn gallop(sorted: &[TermId], from: usize, t: TermId) -> Option<usize> {
    let rest = sorted.get(from..)?;
    let mut step = 1;
    while step <= rest.len() && rest[step - 1] < t {
        step *= 2;
    }
    let lo = step / 2;
    let hi = step.min(rest.len());
    let i = from + lo + rest[lo..hi].partition_point(|&d| d < t);
    (i < sorted.len()).then_some(i)
}

impl Classifier for Centroids {
    fn classify(&self, counts: &SparseVec) -> Judgement {
        let Some(d) = self.unit_document(counts) else {
            return Judgement {
                relevance: 0.0,
                best: None,
                scores: Vec::new(),
            };
        };
        let mut scores: Vec<(TopicId, f64)> = (0..self.topics.len())
            .map(|i| (self.topics[i], self.correlation(i, &d)))
            .collect();
        scores.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let relevance = scores
            .iter()
            .filter(|(t, _)| self.counts_as_relevant(*t))
            .map(|s| s.1)
            .fold(0.0, f64::max)
            .clamp(0.0, 1.0);
        Judgement {
            relevance,
            best: scores.first().map(|s| s.0),
            scores,
        }
    }

    /// The same value as `classify(counts).relevance`, without correlating
    /// the topics that do not count nor sorting the scores: the centroid
    /// floor asks for this on every judged page.
    fn relevance(&self, counts: &SparseVec) -> f64 {
        let Some(d) = self.unit_document(counts) else {
            return 0.0;
        };
        (0..self.topics.len())
            .filter(|&i| self.counts_as_relevant(self.topics[i]))
            .map(|i| self.correlation(i, &d))
            .fold(0.0, f64::max)
            .clamp(0.0, 1.0)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    pub(crate) fn model(min_overlap: usize) -> (Centroids, TopicId, TopicId) {
        let (a, b) = (TopicId(1), TopicId(2));
        let ex = [
            Example {
                counts: v(&[(1, 2.0), (2, 1.0)]),
                topic: a,
            },
            Example {
                counts: v(&[(3, 1.0), (2, 1.0)]),
                topic: b,
            },
        ];
        let cfg = CentroidConfig {
            top_k: 2,
            min_overlap,
            min_examples: 1,
        };
        (Centroids::train(&ex, cfg).unwrap(), a, b)
    }

    #[test]
    fn hand_worked_correlations() {
        // N = 2; idf(1) = idf(3) = ln 2, idf(2) = ln 1 = 0.
        // Centroid A = {1: 2 ln2}, B = {3: ln2}. Dictionary {1, 2, 3}.
        // d = {1: 2, 3: 1} → {2 ln2, ln2}/(ln2·√5): corr(A) = 2/√5, corr(B) = 1/√5.
        let (m, a, b) = model(2);
        assert_eq!(m.dictionary(), &[TermId(1), TermId(2), TermId(3)]);
        let j = m.classify(&v(&[(1, 2.0), (3, 1.0), (9, 7.0)]));
        assert_eq!(j.best, Some(a));
        assert!((j.scores[0].1 - 2.0 / 5f64.sqrt()).abs() < 1e-9);
        assert_eq!(j.scores[1].0, b);
        assert!((j.scores[1].1 - 1.0 / 5f64.sqrt()).abs() < 1e-9);
        assert!((j.relevance - 2.0 / 5f64.sqrt()).abs() < 1e-9);
        let mut only_b = m.clone();
        only_b.set_good(&[b]);
        assert!(
            (only_b.classify(&v(&[(1, 2.0), (3, 1.0)])).relevance - 1.0 / 5f64.sqrt()).abs() < 1e-9
        );
    }

    /// Documents drawn from a fixed linear congruential sequence: each topic
    /// favours its own band of 40 terms and shares a common band of 20.
    fn drawn_documents(n: usize, seed: u64) -> Vec<Example> {
        let mut x = seed;
        let mut next = move |m: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % m
        };
        (0..n)
            .map(|_| {
                let topic = next(4) as u32;
                let len = 1 + next(30);
                let terms = (0..len)
                    .map(|_| {
                        let t = if next(3) == 0 {
                            next(20) as u32
                        } else {
                            20 + 40 * topic + next(40) as u32
                        };
                        (t, 1.0 + next(3) as f64)
                    })
                    .collect::<Vec<_>>();
                Example {
                    counts: v(&terms),
                    topic: TopicId(topic + 1),
                }
            })
            .collect()
    }

    #[test]
    fn galloping_finds_what_a_binary_search_finds() {
        let sorted: Vec<TermId> = [2, 3, 5, 8, 13, 21, 34, 55, 89].map(TermId).to_vec();
        for from in 0..=sorted.len() + 1 {
            for t in 0..100 {
                let t = TermId(t);
                let want = sorted
                    .get(from..)
                    .map(|rest| from + rest.partition_point(|&d| d < t))
                    .filter(|&i| i < sorted.len());
                assert_eq!(gallop(&sorted, from, t), want, "from {from}, {t:?}");
            }
        }
    }

    #[test]
    fn weighing_keeps_the_dictionarys_terms_as_a_lookup_per_term_would() {
        let cfg = CentroidConfig {
            top_k: 25,
            min_overlap: 1,
            min_examples: 1,
        };
        let m = Centroids::train(&drawn_documents(200, 3), cfg).unwrap();
        for e in drawn_documents(200, 5) {
            let looked_up: Vec<(TermId, f64)> = e
                .counts
                .entries()
                .iter()
                .filter_map(|&(t, f)| {
                    let i = m.dictionary.binary_search(&t).ok()?;
                    Some((t, f * m.idf[i]))
                })
                .filter(|&(_, w)| w != 0.0)
                .collect();
            let overlap = e
                .counts
                .entries()
                .iter()
                .filter(|(t, f)| *f > 0.0 && m.dictionary.binary_search(t).is_ok())
                .count();
            let (weighted, counted) = m.weigh_counting_overlap(&e.counts);
            assert_eq!(weighted.entries(), looked_up.as_slice());
            assert_eq!(counted, overlap);
        }
    }

    #[test]
    fn relevance_is_the_judgements_relevance_to_the_bit() {
        let cfg = CentroidConfig {
            top_k: 30,
            min_overlap: 3,
            min_examples: 1,
        };
        let mut m = Centroids::train(&drawn_documents(200, 7), cfg).unwrap();
        let held_out = drawn_documents(300, 11);
        let goods: [&[TopicId]; 4] = [&[], &[TopicId(2)], &[TopicId(1), TopicId(4)], &[TopicId(9)]];
        let mut unclassified = 0;
        let mut positive = 0;
        for good in goods {
            m.set_good(good);
            for e in &held_out {
                let j = m.classify(&e.counts);
                assert_eq!(m.relevance(&e.counts).to_bits(), j.relevance.to_bits());
                unclassified += usize::from(j.best.is_none());
                positive += usize::from(j.relevance > 0.0);
            }
        }
        // The draw reaches both branches: short documents fall below the
        // overlap, the rest score.
        assert!(
            unclassified > 0 && positive > 0,
            "{unclassified} {positive}"
        );
    }

    #[test]
    fn too_little_overlap_is_unclassified() {
        let (m, _, _) = model(4);
        let j = m.classify(&v(&[(1, 2.0), (3, 1.0)]));
        assert_eq!((j.best, j.relevance), (None, 0.0));
    }
}
