//! Diligenti et al.'s per-layer naive Bayes (context graphs, 2000).
//!
//! Documents are represented by reduced TF-IDF: w = f/f_max · log(N/df(w)),
//! truncated to the 40 largest components, with N and df over all training
//! documents. Layer j's model is P(w|c_j) = (1 + Σ_d x(w,d)) /
//! (|V| + Σ_d Σ_s x(s,d)) (eq. 4). The winning layer maximises
//! P(c_j|d) ∝ P(c_j) Π_w P(w|c_j)^{x(w,d)} (equal priors 1/C when layer
//! sizes are unknown), and its normalised likelihood must reach the
//! layer's threshold — the minimum likelihood over that layer's training
//! set — or the document is "other".

use std::collections::HashMap;

use focus_core::TopicId;
use focus_text::{SparseVec, TermId};
use serde::{Deserialize, Serialize};

use crate::model_io::{self, ModelKind};
use crate::weights::softmax;
use crate::{Classifier, ClassifyError, Judgement};

/// Reduced TF-IDF keeps this many components (Diligenti: 40).
pub const REDUCED_COMPONENTS: usize = 40;

/// Where a document belongs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerVerdict {
    /// Layer j (0 = target) with its likelihood P(c_j|d).
    Layer(usize, f64),
    /// Below the winning layer's threshold.
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LayerModel {
    log_prior: f64,
    /// Sorted by term.
    log_p: Vec<(TermId, f64)>,
}

/// The trained per-layer classifiers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayeredNb {
    layers: Vec<LayerModel>,
    thresholds: Vec<f64>,
    /// idf over the training set, sorted by term.
    idf: Vec<(TermId, f64)>,
}

impl LayeredNb {
    /// Trains from term counts per layer (`layers[0]` = the targets).
    /// `equal_priors` sets P(c_j) = 1/C; otherwise priors follow layer sizes.
    pub fn train(
        layers: &[Vec<SparseVec>],
        equal_priors: bool,
    ) -> Result<LayeredNb, ClassifyError> {
        Self::train_with_reference(layers, layers.iter().flatten(), equal_priors)
    }

    /// Trains as [`LayeredNb::train`], with idf over a `reference` corpus
    /// (the paper's: documents of a web crawl) instead of the training
    /// documents; the vocabulary stays the training documents' terms, and
    /// a term the reference never holds counts as held once.
    pub fn train_with_reference<'a>(
        layers: &[Vec<SparseVec>],
        reference: impl IntoIterator<Item = &'a SparseVec>,
        equal_priors: bool,
    ) -> Result<LayeredNb, ClassifyError> {
        if layers.is_empty() || layers.iter().any(Vec::is_empty) {
            return Err(ClassifyError::Training(
                "every layer needs at least one document".into(),
            ));
        }
        let n = layers.iter().map(Vec::len).sum::<usize>() as f64;
        let mut df: HashMap<TermId, f64> = HashMap::new();
        for d in layers.iter().flatten() {
            for &(t, _) in d.entries() {
                df.entry(t).or_insert(0.0);
            }
        }
        let mut reference_n = 0.0;
        for d in reference {
            reference_n += 1.0;
            for &(t, w) in d.entries() {
                if w > 0.0 {
                    if let Some(f) = df.get_mut(&t) {
                        *f += 1.0;
                    }
                }
            }
        }
        let vocab = df.len() as f64;
        let reference_n = if reference_n > 0.0 { reference_n } else { n };
        let mut idf: Vec<(TermId, f64)> = df
            .into_iter()
            .map(|(t, f)| (t, (reference_n / f.max(1.0)).ln().max(0.0)))
            .collect();
        idf.sort_by_key(|p| p.0);
        let mut model = LayeredNb {
            layers: Vec::new(),
            thresholds: Vec::new(),
            idf,
        };
        let reduced: Vec<Vec<SparseVec>> = layers
            .iter()
            .map(|docs| docs.iter().map(|d| model.reduce(d)).collect())
            .collect();
        for docs in &reduced {
            let mut mass: HashMap<TermId, f64> = HashMap::new();
            let mut total = 0.0;
            for d in docs {
                for &(t, x) in d.entries() {
                    *mass.entry(t).or_insert(0.0) += x;
                    total += x;
                }
            }
            let mut log_p: Vec<(TermId, f64)> = model
                .idf
                .iter()
                .map(|&(t, _)| {
                    (
                        t,
                        ((1.0 + mass.get(&t).copied().unwrap_or(0.0)) / (vocab + total)).ln(),
                    )
                })
                .collect();
            log_p.sort_by_key(|p| p.0);
            let prior = if equal_priors {
                1.0 / layers.len() as f64
            } else {
                docs.len() as f64 / n
            };
            model.layers.push(LayerModel {
                log_prior: prior.ln(),
                log_p,
            });
        }
        model.thresholds = reduced
            .iter()
            .enumerate()
            .map(|(j, docs)| {
                docs.iter()
                    .map(|d| model.posteriors_reduced(d)[j])
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        Ok(model)
    }

    /// Reduced TF-IDF of a count vector (Diligenti's representation).
    pub fn reduce(&self, counts: &SparseVec) -> SparseVec {
        let f_max = counts.max();
        if f_max <= 0.0 {
            return SparseVec::new();
        }
        let mut v = SparseVec::from_unsorted(
            counts
                .entries()
                .iter()
                .filter_map(|&(t, f)| {
                    self.idf
                        .binary_search_by_key(&t, |p| p.0)
                        .ok()
                        .map(|i| (t, f / f_max * self.idf[i].1))
                })
                .collect(),
        );
        v.truncate_top_k(REDUCED_COMPONENTS);
        v
    }

    fn posteriors_reduced(&self, x: &SparseVec) -> Vec<f64> {
        let scores: Vec<f64> = self
            .layers
            .iter()
            .map(|l| {
                l.log_prior
                    + x.entries()
                        .iter()
                        .filter_map(|(t, w)| {
                            l.log_p
                                .binary_search_by_key(t, |p| p.0)
                                .ok()
                                .map(|i| w * l.log_p[i].1)
                        })
                        .sum::<f64>()
            })
            .collect();
        softmax(&scores)
    }

    /// P(c_j|d) for every layer.
    pub fn posteriors(&self, counts: &SparseVec) -> Vec<f64> {
        self.posteriors_reduced(&self.reduce(counts))
    }

    /// The class a [`Judgement`] names layer `j` by: `TopicId(j + 1)`, so
    /// a taxonomy whose topics are the layers in order (after the root)
    /// names them.
    pub fn class_of(layer: usize) -> TopicId {
        TopicId(layer as u32 + 1)
    }

    /// The number of layers (N + 1 for a context graph of depth N).
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// The per-layer thresholds (minimum training likelihood).
    pub fn thresholds(&self) -> &[f64] {
        &self.thresholds
    }

    /// The winning layer, or "other" below its threshold.
    pub fn verdict(&self, counts: &SparseVec) -> LayerVerdict {
        let p = self.posteriors(counts);
        let Some((j, &pj)) = p
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        else {
            return LayerVerdict::Other;
        };
        if pj >= self.thresholds[j] {
            LayerVerdict::Layer(j, pj)
        } else {
            LayerVerdict::Other
        }
    }

    /// Encodes the model with its versioned header.
    pub fn to_bytes(&self) -> Result<Vec<u8>, ClassifyError> {
        model_io::save(ModelKind::LayeredNb, self)
    }

    /// Decodes a model written by [`LayeredNb::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<LayeredNb, ClassifyError> {
        let m: LayeredNb = model_io::load(ModelKind::LayeredNb, bytes)?;
        if m.thresholds.len() != m.layers.len() || m.layers.is_empty() {
            return Err(ClassifyError::Model("inconsistent layer tables".into()));
        }
        Ok(m)
    }
}

impl Classifier for LayeredNb {
    /// Relevance is P(c_0|d), the layer-0 (target) likelihood, as in the
    /// paper's relevance plots; `best` is [`LayeredNb::class_of`] the
    /// winning layer, `None` for "other"; scores are the layer posteriors
    /// keyed the same way.
    fn classify(&self, counts: &SparseVec) -> Judgement {
        let p = self.posteriors(counts);
        let best = match self.verdict(counts) {
            LayerVerdict::Layer(j, _) => Some(Self::class_of(j)),
            LayerVerdict::Other => None,
        };
        let mut scores: Vec<(TopicId, f64)> = p
            .iter()
            .enumerate()
            .map(|(j, &q)| (Self::class_of(j), q))
            .collect();
        scores.sort_by(|a, b| b.1.total_cmp(&a.1));
        Judgement {
            relevance: p.first().copied().unwrap_or(0.0),
            best,
            scores,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    #[test]
    fn hand_worked_layers_and_threshold() {
        // Layer 0: A = {1:2, 2:1}; layer 1: B = {2:1, 3:2}. N = 2;
        // idf(1) = idf(3) = ln 2, idf(2) = 0 → A = {1: ln2}, B = {3: ln2}.
        // |V| = 3: P(1|c0) = (1+ln2)/(3+ln2), P(2|c0) = P(3|c0) = 1/(3+ln2).
        let m = LayeredNb::train(
            &[
                vec![v(&[(1, 2.0), (2, 1.0)])],
                vec![v(&[(2, 1.0), (3, 2.0)])],
            ],
            true,
        )
        .unwrap();
        let l2 = 2f64.ln();
        let a = l2 * (1.0 + l2).ln();
        let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
        // P(c0|A) = σ(ln2 · ln(1+ln2)), which is also layer 0's threshold.
        assert!((m.thresholds()[0] - sigma(a)).abs() < 1e-9);
        assert_eq!(
            m.verdict(&v(&[(1, 2.0), (2, 1.0)])),
            LayerVerdict::Layer(0, sigma(a))
        );
        // d = {1:3, 3:1} → {1: ln2, 3: ln2/3}: P(c0|d) = σ(2/3 · ln2 · ln(1+ln2)),
        // below the threshold: "other".
        let d = v(&[(1, 3.0), (3, 1.0)]);
        assert!((m.posteriors(&d)[0] - sigma(2.0 / 3.0 * a)).abs() < 1e-9);
        assert_eq!(m.verdict(&d), LayerVerdict::Other);
        let j = m.classify(&d);
        assert_eq!(j.best, None);
        let a_page = m.classify(&v(&[(1, 2.0), (2, 1.0)]));
        assert_eq!(a_page.best, Some(LayeredNb::class_of(0)));
        assert_eq!(LayeredNb::class_of(0), TopicId(1), "the root is no layer");
        assert!((j.relevance - sigma(2.0 / 3.0 * a)).abs() < 1e-9);
        assert_eq!(LayeredNb::from_bytes(&m.to_bytes().unwrap()).unwrap(), m);
    }

    #[test]
    fn reduced_tfidf_keeps_forty_components() {
        let docs: Vec<SparseVec> = (0..3)
            .map(|k| {
                SparseVec::from_unsorted(
                    (0..100)
                        .map(|t| (TermId(t + k), 1.0 + f64::from(t)))
                        .collect(),
                )
            })
            .collect();
        let m = LayeredNb::train(&[docs[..2].to_vec(), docs[2..].to_vec()], true).unwrap();
        assert!(m.reduce(&docs[0]).len() <= REDUCED_COMPONENTS);
        assert!(LayeredNb::train(&[vec![]], true).is_err());
    }

    #[test]
    fn a_reference_corpus_sets_idf() {
        let (a, b) = (v(&[(1, 2.0), (2, 1.0)]), v(&[(2, 1.0), (3, 2.0)]));
        let layers = [vec![a.clone()], vec![b.clone()]];
        // The same documents as reference: the same model as plain training.
        let own = LayeredNb::train_with_reference(&layers, [&a, &b], true).unwrap();
        assert_eq!(own, LayeredNb::train(&layers, true).unwrap());
        // A reference where term 2 is rare and term 1 everywhere.
        let reference: Vec<SparseVec> = (0..8)
            .map(|i| {
                if i == 0 {
                    v(&[(1, 1.0), (2, 1.0)])
                } else {
                    v(&[(1, 1.0)])
                }
            })
            .collect();
        let m = LayeredNb::train_with_reference(&layers, &reference, true).unwrap();
        let x = m.reduce(&v(&[(1, 1.0), (2, 1.0)]));
        assert_eq!(x.get(TermId(1)), 0.0, "in every reference document");
        assert!((x.get(TermId(2)) - 8f64.ln()).abs() < 1e-12);
        assert!(
            (m.reduce(&v(&[(3, 1.0)])).get(TermId(3)) - 8f64.ln()).abs() < 1e-12,
            "never seen: once"
        );
    }
}
