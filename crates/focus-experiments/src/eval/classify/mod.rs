//! The classifier evaluation on a real labelled corpus (issue 19, part 3):
//! every classifier family of the project that classifies into topics,
//! trained on the shared training split ([`Split`]) and scored on the
//! held-out pages — leaf accuracy and macro-F1 against the pages' labels,
//! and how well the relevance R of each family ranks (ROC AUC) and is
//! calibrated (Brier score, reliability bins) for ten good topics.
//!
//! Pages are featurised exactly as the crawler featurises fetched pages
//! (`focus_html::analyze` then [`Featurizer::document`]). Each training
//! page is an example of each of its labels. The leaf test set is every
//! held-out page with at least one leaf label, scored against its leaf
//! labels (a prediction is right when it is one of them; a prediction that
//! is not a leaf, e.g. the SVM tree stopping at an inner node, is wrong
//! and counted as unclassified); held-out pages labelled only with inner
//! topics are left out of it and counted. Relevance is scored over every
//! held-out labelled page: the truth for a good topic g is "the page has a
//! label at or under g".
//!
//! [`run`] writes `<corpus>-classify.md` and `<corpus>-reliability.svg`
//! (`classify/report.rs`); [`export_svmlight`] writes the same vectors for
//! the scikit-learn reference (`xtask/reference/classify_sklearn.py`;
//! `classify/svmlight.rs`).

use std::time::Instant;

use focus_classify::Featurizer;
use focus_classify::{
    CentroidConfig, Centroids, Classifier, Example, HierNb, HierNbConfig, Scoring, SvmConfig,
    SvmRelevance, SvmTree,
};
use focus_core::{Canonicalizer, Taxonomy, TopicId};
use focus_eval::{
    brier, multilabel_scores, reliability_bins, roc_auc, LabelScores, ReliabilityBin,
};
use focus_text::SparseVec;
use focus_websim::{Corpus, Site};
use rayon::prelude::*;

use super::split::Split;
use focus_app::AppError;

mod report;
mod svmlight;

pub use report::{markdown, reliability_svg, run};
pub use svmlight::export_svmlight;

/// The ten evaluation categories (shared with the crawl evaluation).
pub use super::crawls::CATEGORIES as WIKISPEEDIA_CATEGORIES;

/// Bins of the reliability diagram.
pub const RELIABILITY_BINS: usize = 10;

/// A classifier family the evaluation trains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Hierarchical multinomial naive Bayes (Chakrabarti 1999), the papers'
    /// exact posterior.
    HierNb,
    /// The same model with tempered posteriors (`focus_classify::temper`):
    /// what the crawlers use by default.
    HierNbTempered,
    /// TF-IDF centroids and cosine (Bergmark 2002), default config.
    Centroids,
    /// Linear SVM per taxonomy node, top-down (BINGO! 2003), default config.
    SvmTree,
    /// The same trees with Platt-calibrated relevance below ½ for the pages
    /// they reject ([`focus_classify::SvmRelevance::Calibrated`]): what
    /// `bingo --child-priority apprentice` uses.
    SvmTreeCalibrated,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 5] = [
        Family::HierNb,
        Family::HierNbTempered,
        Family::Centroids,
        Family::SvmTree,
        Family::SvmTreeCalibrated,
    ];

    /// The family's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::HierNb => "hierarchical naive Bayes (Chakrabarti 1999)",
            Family::HierNbTempered => "hierarchical naive Bayes, tempered",
            Family::Centroids => "TF-IDF centroid cosine (Bergmark 2002)",
            Family::SvmTree => "hierarchical linear SVM (BINGO! 2003)",
            Family::SvmTreeCalibrated => "hierarchical linear SVM, Platt-calibrated",
        }
    }

    /// A short name (plot legends).
    pub fn short(self) -> &'static str {
        match self {
            Family::HierNb => "naive Bayes",
            Family::HierNbTempered => "tempered NB",
            Family::Centroids => "centroids",
            Family::SvmTree => "SVM tree",
            Family::SvmTreeCalibrated => "calibrated SVM tree",
        }
    }
}

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seed of the training split.
    pub seed: u64,
    /// Families to train and score.
    pub families: Vec<Family>,
    /// Good topics for the relevance scores (taxonomy paths).
    pub categories: Vec<String>,
}

impl Options {
    /// All families and the ten Wikispeedia categories.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            families: Family::ALL.to_vec(),
            categories: WIKISPEEDIA_CATEGORIES.iter().map(|&c| c.into()).collect(),
        }
    }
}

/// Ranking and calibration of one family's R for one good topic.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicRelevance {
    /// The good topic's path.
    pub topic: String,
    /// Held-out pages relevant to it (label at or under it).
    pub positives: usize,
    /// ROC AUC of R against the truth (`None` if undefined).
    pub auc: Option<f64>,
    /// Brier score of R against the truth.
    pub brier: Option<f64>,
    /// Share of pages with R < 0.01 or R > 0.99 (how extreme R is).
    pub extreme: f64,
    /// Held-out pages outside the topic.
    pub off_topic: usize,
    /// Of them, pages that link to a page of the topic (the corpus's own
    /// links, to any page of it, held out or not).
    pub neighbours: usize,
    /// Among the held-out pages outside the topic, ROC AUC of R for
    /// linking to a page of it (`None` if undefined): where no relevant
    /// page is in sight, a crawl follows the off-topic pages R rates
    /// highest, and this is how well R picks the ones that lead on.
    pub neighbour_auc: Option<f64>,
}

/// One family's results.
#[derive(Debug, Clone)]
pub struct FamilyReport {
    /// Which family.
    pub family: Family,
    /// Leaf accuracy and macro-F1 on the leaf test set.
    pub leaf: LabelScores,
    /// Of the unclassified: predictions that were an inner topic.
    pub inner_predictions: usize,
    /// Training time in seconds.
    pub train_secs: f64,
    /// Per good topic.
    pub relevance: Vec<TopicRelevance>,
    /// Reliability bins of R pooled over the good topics.
    pub reliability: Vec<ReliabilityBin>,
}

impl FamilyReport {
    /// Mean AUC over the topics where it is defined.
    pub fn mean_auc(&self) -> Option<f64> {
        mean(self.relevance.iter().filter_map(|r| r.auc))
    }

    /// Mean neighbour AUC over the topics where it is defined.
    pub fn mean_neighbour_auc(&self) -> Option<f64> {
        mean(self.relevance.iter().filter_map(|r| r.neighbour_auc))
    }

    /// Mean Brier score over the topics.
    pub fn mean_brier(&self) -> Option<f64> {
        mean(self.relevance.iter().filter_map(|r| r.brier))
    }
}

pub(super) fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| s / n as f64)
}

/// The whole evaluation.
#[derive(Debug, Clone)]
pub struct Report {
    /// Corpus name.
    pub corpus: String,
    /// Split seed.
    pub seed: u64,
    /// Pages of the corpus.
    pub pages: usize,
    /// Labelled categories (topics that label at least one page).
    pub categories: usize,
    /// Leaves of the taxonomy.
    pub leaves: usize,
    /// Pages that could not be featurised (no HTML or bad URL).
    pub unfeaturised: usize,
    /// Training pages.
    pub train_pages: usize,
    /// Training examples (one per training page and label).
    pub train_examples: usize,
    /// Held-out labelled pages (relevance is scored on them).
    pub heldout: usize,
    /// Held-out pages with a leaf label (the leaf test set).
    pub leaf_test: usize,
    /// Held-out pages whose only labels are inner topics (not in the leaf
    /// test set).
    pub inner_only: usize,
    /// Seconds spent featurising.
    pub featurise_secs: f64,
    /// Per family.
    pub families: Vec<FamilyReport>,
}

/// A corpus featurised as the crawler does, with its split.
#[derive(Debug)]
pub struct Featurised {
    /// Term counts per page id (`None`: could not be featurised).
    pub counts: Vec<Option<SparseVec>>,
    /// The training split.
    pub split: Split,
    /// Seconds spent.
    pub secs: f64,
}

/// Whether page `pid` links to a page at or under `topic`.
pub(super) fn links_into(corpus: &Corpus, pid: u32, topic: TopicId) -> bool {
    corpus
        .out_links(pid)
        .iter()
        .any(|&q| corpus.is_under(q, topic))
}

/// Featurises every page of `corpus` exactly as the crawler does, in
/// parallel.
pub fn featurise(corpus: &Corpus, seed: u64) -> Featurised {
    let t = Instant::now();
    let canon = Canonicalizer::default();
    let featurizer = Featurizer::default();
    let counts = (0..corpus.page_count())
        .into_par_iter()
        .map(|pid| {
            let html = corpus.page_html(pid)?;
            let url = canon.canonicalize(&corpus.page_url(pid)?).ok()?;
            Some(featurizer.document(&focus_html::analyze(&html, &url, &canon)))
        })
        .collect();
    Featurised {
        counts,
        split: Split::new(corpus, seed),
        secs: t.elapsed().as_secs_f64(),
    }
}

/// A page's leaf labels.
/// The corpus's topics of these category paths; an unknown one is an error.
pub(super) fn find_topics(
    corpus: &Corpus,
    categories: &[String],
) -> Result<Vec<TopicId>, AppError> {
    categories
        .iter()
        .map(|c| {
            corpus
                .find_topic(c)
                .ok_or_else(|| AppError::Input(format!("no topic {c} in {}", corpus.name())))
        })
        .collect()
}

pub(super) fn leaf_labels(tax: &Taxonomy, labels: &[TopicId]) -> Vec<TopicId> {
    labels.iter().copied().filter(|&l| tax.is_leaf(l)).collect()
}

/// Runs the evaluation on a loaded corpus.
pub fn evaluate(corpus: &Corpus, opts: &Options) -> Result<Report, AppError> {
    let feats = featurise(corpus, opts.seed);
    evaluate_featurised(corpus, &feats, opts)
}

/// Runs the evaluation on a corpus already featurised by [`featurise`].
pub fn evaluate_featurised(
    corpus: &Corpus,
    feats: &Featurised,
    opts: &Options,
) -> Result<Report, AppError> {
    let tax = corpus.taxonomy();
    let split = &feats.split;
    let n = corpus.page_count();
    let mut examples = Vec::new();
    let mut train_pages = 0;
    // (page, leaf labels) of the leaf test set; all held-out labelled pages.
    let mut leaf_test: Vec<(u32, Vec<TopicId>)> = Vec::new();
    let mut heldout: Vec<u32> = Vec::new();
    let mut inner_only = 0;
    for pid in 0..n {
        let (Some(Some(counts)), labels) = (feats.counts.get(pid as usize), corpus.labels(pid))
        else {
            continue;
        };
        if labels.is_empty() {
            continue;
        }
        if split.is_train(pid) {
            train_pages += 1;
            examples.extend(labels.iter().map(|&topic| Example {
                counts: counts.clone(),
                topic,
            }));
        } else {
            heldout.push(pid);
            let leaves = leaf_labels(tax, labels);
            if leaves.is_empty() {
                inner_only += 1;
            } else {
                leaf_test.push((pid, leaves));
            }
        }
    }
    if examples.is_empty() || heldout.is_empty() {
        return Err(AppError::Input(format!(
            "corpus {}: no labelled training or held-out pages",
            corpus.name()
        )));
    }
    let goods = find_topics(corpus, &opts.categories)?;
    let doc = |pid: u32| feats.counts[pid as usize].as_ref();
    let mut families = Vec::new();
    for &family in &opts.families {
        let t = Instant::now();
        let model = Model::train(family, tax, &examples)?;
        let train_secs = t.elapsed().as_secs_f64();
        let preds: Vec<Option<TopicId>> = leaf_test
            .par_iter()
            .map(|(pid, _)| doc(*pid).and_then(|d| model.as_classifier().classify(d).best))
            .collect();
        let inner_predictions = preds
            .iter()
            .filter(|p| p.is_some_and(|t| !tax.is_leaf(t)))
            .count();
        let leaf = multilabel_scores(
            leaf_test
                .iter()
                .zip(&preds)
                .map(|((_, labels), p)| (labels.as_slice(), p.filter(|&t| tax.is_leaf(t)))),
        );
        let mut relevance = Vec::new();
        let (mut pooled_r, mut pooled_y) = (Vec::new(), Vec::new());
        for (&good, path) in goods.iter().zip(&opts.categories) {
            let scorer = model.with_good(tax, good)?;
            let r: Vec<f64> = heldout
                .par_iter()
                .map(|&pid| doc(pid).map_or(0.0, |d| scorer.as_classifier().relevance(d)))
                .collect();
            let y: Vec<bool> = heldout
                .iter()
                .map(|&pid| corpus.is_under(pid, good))
                .collect();
            let extreme = r.iter().filter(|&&x| !(0.01..=0.99).contains(&x)).count();
            let (off_r, leads): (Vec<f64>, Vec<bool>) = heldout
                .iter()
                .zip(&r)
                .zip(&y)
                .filter(|(_, &relevant)| !relevant)
                .map(|((&pid, &rel), _)| (rel, links_into(corpus, pid, good)))
                .unzip();
            relevance.push(TopicRelevance {
                topic: path.clone(),
                positives: y.iter().filter(|&&b| b).count(),
                auc: roc_auc(&r, &y),
                brier: brier(&r, &y),
                extreme: extreme as f64 / r.len().max(1) as f64,
                off_topic: off_r.len(),
                neighbours: leads.iter().filter(|&&b| b).count(),
                neighbour_auc: roc_auc(&off_r, &leads),
            });
            pooled_r.extend(r);
            pooled_y.extend(y);
        }
        families.push(FamilyReport {
            family,
            leaf,
            inner_predictions,
            train_secs,
            relevance,
            reliability: reliability_bins(&pooled_r, &pooled_y, RELIABILITY_BINS),
        });
    }
    let categories = tax
        .ids()
        .filter(|&t| (0..n).any(|p| corpus.labels(p).contains(&t)))
        .count();
    Ok(Report {
        corpus: corpus.name().to_owned(),
        seed: opts.seed,
        pages: n as usize,
        categories,
        leaves: tax.leaves().len(),
        unfeaturised: feats.counts.iter().filter(|c| c.is_none()).count(),
        train_pages,
        train_examples: examples.len(),
        heldout: heldout.len(),
        leaf_test: leaf_test.len(),
        inner_only,
        featurise_secs: feats.secs,
        families,
    })
}

/// A trained model of one family.
enum Model {
    Nb(HierNb),
    Centroids(Centroids),
    Svm(SvmTree),
}

impl Model {
    fn train(family: Family, tax: &Taxonomy, examples: &[Example]) -> Result<Model, AppError> {
        Ok(match family {
            Family::HierNb => Model::Nb(HierNb::train(tax, examples, HierNbConfig::default())?),
            Family::HierNbTempered => Model::Nb(HierNb::train(
                tax,
                examples,
                HierNbConfig {
                    scoring: Scoring::Tempered,
                    ..HierNbConfig::default()
                },
            )?),
            Family::Centroids => {
                Model::Centroids(Centroids::train(examples, CentroidConfig::default())?)
            }
            Family::SvmTree => Model::Svm(SvmTree::train(tax, examples, &SvmConfig::default())?),
            Family::SvmTreeCalibrated => Model::Svm(SvmTree::train(
                tax,
                examples,
                &SvmConfig {
                    relevance: SvmRelevance::Calibrated,
                    ..SvmConfig::default()
                },
            )?),
        })
    }

    fn as_classifier(&self) -> &dyn Classifier {
        match self {
            Model::Nb(m) => m,
            Model::Centroids(m) => m,
            Model::Svm(m) => m,
        }
    }

    /// A copy whose relevance is to `good` (and its subtree). Naive Bayes
    /// and the SVM tree take the mark without retraining; the centroids
    /// count every centroid at or under `good` (a topic with subtopics has
    /// no centroid of its own unless pages are labelled with it).
    fn with_good(&self, tax: &Taxonomy, good: TopicId) -> Result<Model, AppError> {
        Ok(match self {
            Model::Nb(m) => {
                let mut m = m.clone();
                m.set_good(&[good])?;
                Model::Nb(m)
            }
            Model::Centroids(m) => {
                let mut m = m.clone();
                m.set_good(&tax.subtree(good).collect::<Vec<_>>());
                Model::Centroids(m)
            }
            Model::Svm(m) => {
                let mut m = m.clone();
                m.set_good(&[good])?;
                Model::Svm(m)
            }
        })
    }
}
