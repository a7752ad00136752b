//! BINGO!'s classifier: a topic tree with a linear SVM ([`crate::svm`])
//! per topic node against its competing siblings plus an OTHERS class of
//! far-away negatives, on tf·idf vectors with idf from the local training
//! database, L2-normalised, over MI-selected features. Classification is
//! top-down: the child with the most confident "yes" wins; when no sibling
//! says yes the document stays at the parent (BINGO!'s OTHERS).

use std::collections::HashMap;

use focus_core::{Mark, Taxonomy, TopicId};
use focus_text::{SparseVec, TermId};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::features;
use crate::model_io::{self, ModelKind};
use crate::platt::Platt;
use crate::svm::{LinearSvm, SvmConfig, SvmRelevance};
use crate::{Classifier, ClassifyError, Example, Judgement};

/// One child's trained SVM, with its features and, for a calibrated
/// tree, its sigmoid.
struct ChildModel {
    child: TopicId,
    features: Vec<TermId>,
    svm: LinearSvm,
    calibration: Option<Platt>,
}

/// What every SVM of a tree is trained from.
struct Training<'a> {
    taxonomy: &'a Taxonomy,
    examples: &'a [Example],
    /// The examples' tf·idf vectors.
    vectors: &'a [SparseVec],
    cfg: &'a SvmConfig,
}

impl Training<'_> {
    /// The SVM of `child` against its `siblings` (the examples under
    /// another child) and the node's `far` negatives; `None` when it lacks
    /// positives or negatives.
    fn child(
        &self,
        child: TopicId,
        siblings: &[TopicId],
        far: &[usize],
    ) -> Result<Option<ChildModel>, ClassifyError> {
        let (taxonomy, cfg) = (self.taxonomy, self.cfg);
        let mut idx = Vec::new();
        let mut ys = Vec::new();
        for (i, e) in self.examples.iter().enumerate() {
            if taxonomy.is_ancestor_or_self(child, e.topic) {
                idx.push(i);
                ys.push(true);
            } else if siblings
                .iter()
                .any(|&s| s != child && taxonomy.is_ancestor_or_self(s, e.topic))
            {
                idx.push(i);
                ys.push(false);
            }
        }
        for &i in far {
            idx.push(i);
            ys.push(false);
        }
        if !ys.contains(&true) || !ys.contains(&false) {
            return Ok(None);
        }
        let labelled: Vec<(&SparseVec, usize)> = idx
            .iter()
            .zip(&ys)
            .map(|(&i, &y)| (&self.examples[i].counts, usize::from(y)))
            .collect();
        let features = features::select(&labelled, 2, cfg.features);
        let xs: Vec<SparseVec> = idx
            .iter()
            .map(|&i| restrict(&self.vectors[i], &features))
            .collect();
        let svm = LinearSvm::train(&xs, &ys, cfg)?;
        let calibration = if cfg.relevance == SvmRelevance::Calibrated {
            Some(Platt::fit_cross_validated(&xs, &ys, &svm, cfg)?)
        } else {
            None
        };
        Ok(Some(ChildModel {
            child,
            features,
            svm,
            calibration,
        }))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SvmNode {
    node: TopicId,
    children: Vec<TopicId>,
    /// Per child: its selected features (sorted) and its SVM.
    models: Vec<(Vec<TermId>, LinearSvm)>,
    /// Per child: its SVM's sigmoid, when the tree is
    /// [`SvmRelevance::Calibrated`]; empty otherwise.
    calibration: Vec<Platt>,
}

/// BINGO!'s topic tree of SVMs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SvmTree {
    taxonomy: Taxonomy,
    /// idf of the local database, sorted by term.
    idf: Vec<(TermId, f64)>,
    nodes: Vec<SvmNode>,
    /// How rejected pages are scored.
    relevance: SvmRelevance,
}

impl SvmTree {
    /// Trains one SVM per non-root topic against its siblings plus up to
    /// `cfg.others` far-away documents (outside the parent's subtree).
    pub fn train(
        taxonomy: &Taxonomy,
        examples: &[Example],
        cfg: &SvmConfig,
    ) -> Result<SvmTree, ClassifyError> {
        if examples.is_empty() {
            return Err(ClassifyError::Training("no examples".into()));
        }
        let idf = idf_of(examples.iter().map(|e| &e.counts));
        let vectors: Vec<SparseVec> = examples.iter().map(|e| tfidf(&e.counts, &idf)).collect();
        // Each node's far-away negatives are drawn first, node by node from
        // the one seeded generator; the SVMs are then trained in parallel,
        // each reading only the examples, and kept in taxonomy order.
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let mut plans: Vec<(TopicId, Vec<TopicId>, Vec<usize>)> = Vec::new();
        for node in taxonomy.ids() {
            let children = taxonomy.children(node).to_vec();
            if children.is_empty() {
                continue;
            }
            let mut far: Vec<usize> = (0..examples.len())
                .filter(|&i| !taxonomy.is_ancestor_or_self(node, examples[i].topic))
                .collect();
            far.shuffle(&mut rng);
            far.truncate(cfg.others);
            plans.push((node, children, far));
        }
        let data = Training {
            taxonomy,
            examples,
            vectors: &vectors,
            cfg,
        };
        let trained: Vec<Vec<Result<Option<ChildModel>, ClassifyError>>> = plans
            .par_iter()
            .map(|(_, children, far)| {
                children
                    .par_iter()
                    .map(|&child| data.child(child, children, far))
                    .collect()
            })
            .collect();
        let mut nodes = Vec::new();
        for ((node, _, _), per_child) in plans.into_iter().zip(trained) {
            let (mut kids, mut models, mut calibration) = (Vec::new(), Vec::new(), Vec::new());
            for m in per_child {
                let Some(m) = m? else { continue };
                kids.push(m.child);
                models.push((m.features, m.svm));
                calibration.extend(m.calibration);
            }
            if !kids.is_empty() {
                nodes.push(SvmNode {
                    node,
                    children: kids,
                    models,
                    calibration,
                });
            }
        }
        if nodes.is_empty() {
            return Err(ClassifyError::Training(
                "no topic has both positive and negative examples".into(),
            ));
        }
        Ok(SvmTree {
            taxonomy: taxonomy.clone(),
            idf,
            nodes,
            relevance: cfg.relevance,
        })
    }

    /// Replaces the good marks (no retraining needed: marks only decide at
    /// which topic of the accepted path relevance is read).
    pub fn set_good(&mut self, good: &[TopicId]) -> Result<(), ClassifyError> {
        self.taxonomy
            .set_good(good)
            .map_err(|e| ClassifyError::Training(e.to_string()))
    }

    /// The calibrated relevance of a page the tree does not place in a good
    /// topic ([`SvmRelevance::Calibrated`]): over the good topics, the best
    /// product of P(yes) on the way to it, below ½; 0 when no good topic
    /// has a calibrated SVM at every level.
    fn calibrated_rejection(&self, x: &SparseVec) -> f64 {
        self.taxonomy
            .good_topics()
            .into_iter()
            .filter_map(|g| {
                std::iter::once(g)
                    .chain(self.taxonomy.ancestors(g))
                    .filter(|&t| t != TopicId::ROOT)
                    .try_fold(1.0, |p, t| Some(p * self.probability_of(x, t)?))
            })
            .map(|p| p.min(BELOW_HALF))
            .fold(0.0, f64::max)
    }

    /// `topic`'s SVM and, when fitted, its sigmoid.
    fn model_of(&self, topic: TopicId) -> Option<(&[TermId], &LinearSvm, Option<&Platt>)> {
        self.nodes.iter().find_map(|n| {
            let i = n.children.iter().position(|&c| c == topic)?;
            let (feats, svm) = &n.models[i];
            Some((feats.as_slice(), svm, n.calibration.get(i)))
        })
    }

    /// P(yes) of `topic`'s calibrated SVM for an already weighted vector.
    fn probability_of(&self, x: &SparseVec, topic: TopicId) -> Option<f64> {
        let (feats, svm, platt) = self.model_of(topic)?;
        Some(platt?.probability(svm.decision(&restrict(x, feats))))
    }

    /// [`SvmTree::confidence`] of an already weighted vector.
    fn confidence_of(&self, x: &SparseVec, topic: TopicId) -> Option<f64> {
        let (feats, svm, _) = self.model_of(topic)?;
        Some(svm.confidence(&restrict(x, feats)))
    }

    /// The ξα precision estimate of every topic's SVM.
    pub fn precision_estimates(&self) -> Vec<(TopicId, f64)> {
        self.nodes
            .iter()
            .flat_map(|n| {
                n.children
                    .iter()
                    .zip(&n.models)
                    .map(|(&c, (_, s))| (c, s.precision_xi_alpha))
            })
            .collect()
    }

    /// The confidence of `topic`'s own SVM (against its siblings and the
    /// far-away documents) in a document, whatever path the document takes;
    /// `None` for a topic without an SVM (the root, or one that had no
    /// negatives).
    pub fn confidence(&self, counts: &SparseVec, topic: TopicId) -> Option<f64> {
        self.confidence_of(&tfidf(counts, &self.idf), topic)
    }

    /// The accepted path from the root: (topic, confidence) per level.
    pub fn path(&self, counts: &SparseVec) -> Vec<(TopicId, f64)> {
        self.path_of(&tfidf(counts, &self.idf))
    }

    /// [`SvmTree::path`] of an already weighted vector.
    fn path_of(&self, x: &SparseVec) -> Vec<(TopicId, f64)> {
        let mut path = Vec::new();
        let mut at = TopicId::ROOT;
        while let Some(node) = self.nodes.iter().find(|n| n.node == at) {
            let best = node
                .children
                .iter()
                .zip(&node.models)
                .map(|(&c, (f, s))| (c, s.confidence(&restrict(x, f))))
                .filter(|&(_, conf)| conf > 0.0)
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            match best {
                Some((c, conf)) => {
                    path.push((c, conf));
                    at = c;
                }
                None => break,
            }
        }
        path
    }

    /// Encodes the model with its versioned header.
    pub fn to_bytes(&self) -> Result<Vec<u8>, ClassifyError> {
        model_io::save(ModelKind::SvmTree, self)
    }

    /// Decodes a model written by [`SvmTree::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<SvmTree, ClassifyError> {
        let mut m: SvmTree = model_io::load(ModelKind::SvmTree, bytes)?;
        m.taxonomy.reindex();
        let calibrated = m.relevance == SvmRelevance::Calibrated;
        if m.nodes.iter().any(|n| {
            n.children.len() != n.models.len()
                || n.calibration.len() != if calibrated { n.children.len() } else { 0 }
        }) {
            return Err(ClassifyError::Model("inconsistent SVM tree".into()));
        }
        Ok(m)
    }
}

impl Classifier for SvmTree {
    /// Relevance: the logistic of the confidence at a good topic on the
    /// accepted path, σ(2·conf); when the path misses every good topic, 0
    /// or calibrated below ½ ([`SvmRelevance`]).
    fn classify(&self, counts: &SparseVec) -> Judgement {
        let x = tfidf(counts, &self.idf);
        let path = self.path_of(&x);
        let accepted = path
            .iter()
            .find(|(t, _)| self.taxonomy.mark(*t) == Mark::Good)
            .map(|&(_, conf)| logistic(conf));
        let relevance = match (accepted, self.relevance) {
            (Some(r), _) => r,
            (None, SvmRelevance::Paper) => 0.0,
            (None, SvmRelevance::Calibrated) => self.calibrated_rejection(&x),
        };
        let mut scores = path.clone();
        scores.sort_by(|a, b| b.1.total_cmp(&a.1));
        Judgement {
            relevance,
            best: path.last().map(|p| p.0),
            scores,
        }
    }
}

/// The largest relevance of a rejected page: just below the ½ at which the
/// meta vote counts a yes.
const BELOW_HALF: f64 = 0.5 - 1e-9;

/// A confidence as relevance, σ(2·conf).
fn logistic(conf: f64) -> f64 {
    1.0 / (1.0 + (-2.0 * conf).exp())
}

/// idf = ln(N / df) over the local database, sorted by term.
fn idf_of<'a>(docs: impl Iterator<Item = &'a SparseVec>) -> Vec<(TermId, f64)> {
    let mut df: HashMap<TermId, u64> = HashMap::new();
    let mut n = 0u64;
    for d in docs {
        n += 1;
        for &(t, _) in d.entries() {
            *df.entry(t).or_insert(0) += 1;
        }
    }
    let mut idf: Vec<(TermId, f64)> = df
        .into_iter()
        .map(|(t, f)| (t, (n as f64 / f as f64).ln()))
        .collect();
    idf.sort_by_key(|p| p.0);
    idf
}

/// tf·idf, L2-normalised; unknown terms are dropped.
fn tfidf(counts: &SparseVec, idf: &[(TermId, f64)]) -> SparseVec {
    let mut v = SparseVec::from_unsorted(
        counts
            .entries()
            .iter()
            .filter_map(|&(t, f)| {
                idf.binary_search_by_key(&t, |p| p.0)
                    .ok()
                    .map(|i| (t, f * idf[i].1))
            })
            .collect(),
    );
    v.l2_normalize();
    v
}

/// Keeps the features, renormalises.
fn restrict(x: &SparseVec, feats: &[TermId]) -> SparseVec {
    let mut v = SparseVec::from_unsorted(
        x.entries()
            .iter()
            .filter(|(t, _)| feats.binary_search(t).is_ok())
            .copied()
            .collect(),
    );
    v.l2_normalize();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureConfig;
    use focus_core::TaxonomyBuilder;

    fn v(e: &[(u32, f64)]) -> SparseVec {
        SparseVec::from_unsorted(e.iter().map(|&(t, w)| (TermId(t), w)).collect())
    }

    /// The far negatives are drawn in order from the seeded generator and
    /// the SVMs trained on rayon: the tree is the same byte for byte on
    /// one thread as on several (repeated, since threads finish in an
    /// order that varies from run to run).
    #[test]
    fn training_on_many_threads_gives_the_tree_of_one() {
        let (tax, ex) = crate::threads_test::grouped(4, 20);
        let cfg = SvmConfig {
            others: 30,
            relevance: SvmRelevance::Calibrated,
            ..SvmConfig::default()
        };
        let on = |threads| {
            crate::threads_test::on_threads(threads, || SvmTree::train(&tax, &ex, &cfg))
                .unwrap()
                .to_bytes()
                .unwrap()
        };
        let one = on(1);
        for _ in 0..10 {
            assert!(on(4) == one, "a tree trained on 4 threads differs");
        }
    }

    /// Physics (good) and biology under sci, and arts: ten pages each, a
    /// topic term and a shared term (sci's, or arts' own); every feature
    /// kept.
    fn three_topics() -> (Taxonomy, Vec<Example>, SvmConfig) {
        let tax = TaxonomyBuilder::new()
            .topic("sci/physics")
            .unwrap()
            .topic("sci/biology")
            .unwrap()
            .topic("arts")
            .unwrap()
            .good("sci/physics")
            .unwrap()
            .build();
        let mut ex = Vec::new();
        for i in 0..10 {
            let k = f64::from(i % 3 + 1);
            for (term, shared, topic) in [
                (1, 10, "sci/physics"),
                (2, 10, "sci/biology"),
                (3, 11, "arts"),
            ] {
                ex.push(Example {
                    counts: v(&[(term, k), (shared, 1.0)]),
                    topic: tax.find(topic).unwrap(),
                });
            }
        }
        let cfg = SvmConfig {
            features: FeatureConfig {
                top_k: 0,
                candidates: 0,
            },
            ..SvmConfig::default()
        };
        (tax, ex, cfg)
    }

    #[test]
    fn top_down_tree_assigns_others_when_no_sibling_says_yes() {
        let (tax, ex, cfg) = three_topics();
        let id = |p: &str| tax.find(p).unwrap();
        let tree = SvmTree::train(&tax, &ex, &cfg).unwrap();
        let phys = tree.classify(&v(&[(1, 2.0), (10, 1.0)]));
        assert_eq!(phys.best, Some(id("sci/physics")));
        assert!(phys.relevance > 0.5);
        let bio = tree.classify(&v(&[(2, 2.0), (10, 1.0)]));
        assert_eq!(bio.best, Some(id("sci/biology")));
        assert_eq!(bio.relevance, 0.0);
        // Only the shared "sci" term: sci says yes, neither child does → OTHERS under sci.
        let sci_only = tree.classify(&v(&[(10, 1.0)]));
        assert_eq!(sci_only.best, Some(id("sci")));
        let back = SvmTree::from_bytes(&tree.to_bytes().unwrap()).unwrap();
        assert_eq!(back.classify(&v(&[(1, 2.0), (10, 1.0)])), phys);
        // Marking another topic good needs no retraining: biology's pages
        // become relevant, physics' do not.
        let mut bio_good = tree.clone();
        bio_good.set_good(&[id("sci/biology")]).unwrap();
        let b = bio_good.classify(&v(&[(2, 2.0), (10, 1.0)]));
        assert_eq!((b.best, b.scores.clone()), (bio.best, bio.scores.clone()));
        assert!(b.relevance > 0.5);
        assert_eq!(bio_good.classify(&v(&[(1, 2.0), (10, 1.0)])).relevance, 0.0);
        assert!(tree
            .precision_estimates()
            .iter()
            .all(|&(_, p)| (0.0..=1.0).contains(&p)));
        // A topic's own SVM, whatever path the page takes: biology's SVM
        // is sure of a biology page and against a physics page.
        let bio_page = v(&[(2, 2.0), (10, 1.0)]);
        let phys_page = v(&[(1, 2.0), (10, 1.0)]);
        let c = |x: &SparseVec| tree.confidence(x, id("sci/biology")).unwrap();
        assert!(c(&bio_page) > 0.0 && c(&phys_page) < 0.0);
        assert_eq!(tree.confidence(&bio_page, TopicId::ROOT), None);
    }

    #[test]
    fn calibrated_relevance_ranks_rejected_pages_below_half_and_keeps_accepted_ones() {
        let (tax, ex, cfg) = three_topics();
        let paper = SvmTree::train(&tax, &ex, &cfg).unwrap();
        let calibrated = SvmTree::train(
            &tax,
            &ex,
            &SvmConfig {
                relevance: SvmRelevance::Calibrated,
                ..cfg
            },
        )
        .unwrap();
        let physics = v(&[(1, 2.0), (10, 1.0)]);
        // A biology page still shares "sci" with physics; an arts page
        // shares nothing with it.
        let biology = v(&[(2, 2.0), (10, 1.0)]);
        let arts = v(&[(3, 2.0), (11, 1.0)]);
        // Accepted pages read the same either way: calibration fits a
        // sigmoid beside each SVM and changes no SVM.
        assert_eq!(calibrated.classify(&physics), paper.classify(&physics));
        let (c_bio, c_arts) = (calibrated.classify(&biology), calibrated.classify(&arts));
        assert_eq!(paper.classify(&biology).relevance, 0.0);
        assert_eq!(paper.classify(&arts).relevance, 0.0);
        // Rejected pages keep their class and stay below ½, ranked by how
        // likely the SVMs on the way to physics make them.
        assert_eq!(c_bio.best, paper.classify(&biology).best);
        assert!(c_bio.relevance > 0.0 && c_bio.relevance < 0.5, "{c_bio:?}");
        assert!(
            c_arts.relevance > 0.0 && c_arts.relevance < c_bio.relevance,
            "{c_arts:?}"
        );
        // The reading is stored with the model.
        let back = SvmTree::from_bytes(&calibrated.to_bytes().unwrap()).unwrap();
        assert_eq!(back.classify(&biology), c_bio);
        let mut broken = calibrated.clone();
        broken.nodes[0].calibration.clear();
        let err = SvmTree::from_bytes(&broken.to_bytes().unwrap()).unwrap_err();
        assert!(err.to_string().contains("inconsistent"), "{err}");
    }
}
