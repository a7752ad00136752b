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
//! [`run`] writes `<corpus>-classify.md` and `<corpus>-reliability.svg`;
//! [`export_svmlight`] writes the same vectors for the scikit-learn
//! reference (`xtask/reference/classify_sklearn.py`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use focus_classify::Featurizer;
use focus_classify::{
    CentroidConfig, Centroids, Classifier, Example, HierNb, HierNbConfig, Scoring, SvmConfig,
    SvmTree,
};
use focus_core::{Canonicalizer, Taxonomy, TopicId};
use focus_eval::{
    brier, multilabel_scores, reliability_bins, reliability_plot, roc_auc, LabelScores,
    ReliabilityBin,
};
use focus_text::SparseVec;
use focus_websim::{Corpus, Site};
use rayon::prelude::*;

use super::split::Split;
use focus_app::AppError;

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
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 4] = [
        Family::HierNb,
        Family::HierNbTempered,
        Family::Centroids,
        Family::SvmTree,
    ];

    /// The family's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::HierNb => "hierarchical naive Bayes (Chakrabarti 1999)",
            Family::HierNbTempered => "hierarchical naive Bayes, tempered",
            Family::Centroids => "TF-IDF centroid cosine (Bergmark 2002)",
            Family::SvmTree => "hierarchical linear SVM (BINGO! 2003)",
        }
    }

    /// A short name (plot legends).
    pub fn short(self) -> &'static str {
        match self {
            Family::HierNb => "naive Bayes",
            Family::HierNbTempered => "tempered NB",
            Family::Centroids => "centroids",
            Family::SvmTree => "SVM tree",
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

    /// Mean Brier score over the topics.
    pub fn mean_brier(&self) -> Option<f64> {
        mean(self.relevance.iter().filter_map(|r| r.brier))
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
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
fn leaf_labels(tax: &Taxonomy, labels: &[TopicId]) -> Vec<TopicId> {
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
    let goods: Vec<TopicId> = opts
        .categories
        .iter()
        .map(|c| {
            corpus
                .find_topic(c)
                .ok_or_else(|| AppError::Input(format!("no topic {c} in {}", corpus.name())))
        })
        .collect::<Result<_, _>>()?;
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
                .map(|&pid| doc(pid).map_or(0.0, |d| scorer.as_classifier().classify(d).relevance))
                .collect();
            let y: Vec<bool> = heldout
                .iter()
                .map(|&pid| corpus.is_under(pid, good))
                .collect();
            let extreme = r.iter().filter(|&&x| !(0.01..=0.99).contains(&x)).count();
            relevance.push(TopicRelevance {
                topic: path.clone(),
                positives: y.iter().filter(|&&b| b).count(),
                auc: roc_auc(&r, &y),
                brier: brier(&r, &y),
                extreme: extreme as f64 / r.len().max(1) as f64,
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
                let subtree: Vec<TopicId> =
                    std::iter::once(good).chain(tax.descendants(good)).collect();
                m.set_good(&subtree);
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

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |v| format!("{v:.3}"))
}

/// The report as markdown: the leaf table and the relevance table.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Classifiers on {} (split seed {}): {} pages, {} labelled categories ({} leaves), \
         {} training pages ({} examples: one per label), {} held-out labelled pages; \
         leaf test set {} pages ({} held-out pages labelled only with inner topics left out). \
         Featurised as the crawler does in {:.1} s{}.\n",
        r.corpus,
        r.seed,
        r.pages,
        r.categories,
        r.leaves,
        r.train_pages,
        r.train_examples,
        r.heldout,
        r.leaf_test,
        r.inner_only,
        r.featurise_secs,
        if r.unfeaturised > 0 {
            format!(" ({} pages could not be featurised)", r.unfeaturised)
        } else {
            String::new()
        }
    );
    s.push_str(
        "| family | leaf accuracy | macro-F1 | classes | unclassified (inner topic) | training s |\n\
         |---|---|---|---|---|---|\n",
    );
    for f in &r.families {
        let _ = writeln!(
            s,
            "| {} | {:.3} | {:.3} | {} | {} ({}) | {:.1} |",
            f.family.name(),
            f.leaf.accuracy,
            f.leaf.macro_f1,
            f.leaf.classes,
            f.leaf.unclassified,
            f.inner_predictions,
            f.train_secs
        );
    }
    if r.families.is_empty() {
        return s;
    }
    s.push_str(
        "\nRelevance R of each family with one good topic marked at a time, \
         against the truth of the held-out pages (label at or under the topic): \
         ROC AUC / Brier score; \"extreme\" is the share of pages with R < 0.01 or R > 0.99.\n\n",
    );
    s.push_str("| good topic | relevant pages |");
    for f in &r.families {
        let _ = write!(s, " {} AUC / Brier / extreme |", f.family.short());
    }
    s.push_str("\n|---|---|");
    for _ in &r.families {
        s.push_str("---|");
    }
    s.push('\n');
    let topics = r.families[0].relevance.len();
    for i in 0..topics {
        let t = &r.families[0].relevance[i];
        let _ = write!(s, "| {} | {} |", t.topic, t.positives);
        for f in &r.families {
            let x = &f.relevance[i];
            let _ = write!(s, " {} / {} / {:.2} |", opt(x.auc), opt(x.brier), x.extreme);
        }
        s.push('\n');
    }
    s.push_str("| **mean** | |");
    for f in &r.families {
        let ext = mean(f.relevance.iter().map(|x| x.extreme));
        let _ = write!(
            s,
            " **{}** / **{}** / {} |",
            opt(f.mean_auc()),
            opt(f.mean_brier()),
            ext.map_or_else(|| "—".into(), |v| format!("{v:.2}"))
        );
    }
    s.push('\n');
    s.push_str(
        "\nReliability of R pooled over the good topics (10 equal-width bins: \
         mean R / observed fraction relevant / pages):\n\n| bin |",
    );
    for f in &r.families {
        let _ = write!(s, " {} |", f.family.short());
    }
    s.push_str("\n|---|");
    for _ in &r.families {
        s.push_str("---|");
    }
    s.push('\n');
    for b in 0..r.families[0].reliability.len() {
        let bin = &r.families[0].reliability[b];
        let close = if bin.hi >= 1.0 { ']' } else { ')' };
        let _ = write!(s, "| [{:.1}, {:.1}{close} |", bin.lo, bin.hi);
        for f in &r.families {
            let x = &f.reliability[b];
            if x.count == 0 {
                s.push_str(" — |");
            } else {
                let _ = write!(
                    s,
                    " {:.3} / {:.3} / {} |",
                    x.mean_predicted, x.observed, x.count
                );
            }
        }
        s.push('\n');
    }
    s
}

/// The reliability diagram of R pooled over the good topics, per family.
pub fn reliability_svg(r: &Report) -> String {
    let series: Vec<(&str, &[ReliabilityBin])> = r
        .families
        .iter()
        .map(|f| (f.family.short(), f.reliability.as_slice()))
        .collect();
    reliability_plot(
        &format!(
            "{}: relevance R against truth, held-out pages, {} good topics pooled",
            r.corpus,
            r.families.first().map_or(0, |f| f.relevance.len())
        ),
        &series,
    )
}

fn write(path: &Path, text: &str) -> Result<(), AppError> {
    std::fs::write(path, text).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}

/// Loads the corpus in `corpus_dir`, evaluates every family on the ten
/// Wikispeedia good topics with the split of `seed`, writes
/// `<corpus>-classify.md` and `<corpus>-reliability.svg` into `out_dir`
/// and returns the markdown.
pub fn run(corpus_dir: &Path, out_dir: &Path, seed: u64) -> Result<String, AppError> {
    let corpus = Corpus::load(corpus_dir).map_err(|e| AppError::Input(e.to_string()))?;
    let report = evaluate(&corpus, &Options::new(seed))?;
    let md = markdown(&report);
    std::fs::create_dir_all(out_dir)
        .map_err(|e| AppError::Input(format!("{}: {e}", out_dir.display())))?;
    write(&out_dir.join(format!("{}-classify.md", report.corpus)), &md)?;
    write(
        &out_dir.join(format!("{}-reliability.svg", report.corpus)),
        &reliability_svg(&report),
    )?;
    Ok(md)
}

/// One svmlight row: `label index:count ...` (1-based feature indices).
fn svmlight_row(out: &mut String, label: i64, v: &SparseVec) {
    let _ = write!(out, "{label}");
    for (t, x) in v.entries() {
        let _ = write!(out, " {}:{x}", t.0 + 1);
    }
    out.push('\n');
}

/// Writes the featurised split for the scikit-learn reference into `dir`:
/// `train.svm` and `test.svm` (every training, resp. held-out, labelled
/// page; the label is the index of the page's first leaf label in
/// `leaves.tsv`, −1 when it has none), and `train_labels.tsv` /
/// `test_labels.tsv` aligned with them: all leaf label indices
/// (comma-separated, possibly empty), then one 0/1 column per good topic of
/// `categories` (label at or under it). Returns (train rows, test rows).
pub fn export_svmlight(
    corpus: &Corpus,
    feats: &Featurised,
    categories: &[String],
    dir: &Path,
) -> Result<(usize, usize), AppError> {
    let tax = corpus.taxonomy();
    let leaves = tax.leaves();
    let goods: Vec<TopicId> = categories
        .iter()
        .map(|c| {
            corpus
                .find_topic(c)
                .ok_or_else(|| AppError::Input(format!("no topic {c} in {}", corpus.name())))
        })
        .collect::<Result<_, _>>()?;
    let header = format!("leaf_labels\t{}\n", categories.join("\t"));
    let (mut train, mut test) = (String::new(), String::new());
    let (mut train_l, mut test_l) = (header.clone(), header);
    let (mut n_train, mut n_test) = (0, 0);
    for pid in 0..corpus.page_count() {
        let labels = corpus.labels(pid);
        let Some(Some(v)) = feats.counts.get(pid as usize) else {
            continue;
        };
        if labels.is_empty() {
            continue;
        }
        let idx: Vec<usize> = leaf_labels(tax, labels)
            .iter()
            .filter_map(|l| leaves.iter().position(|x| x == l))
            .collect();
        let label = idx.first().map_or(-1, |&i| i as i64);
        let mut line = idx
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",");
        for &g in &goods {
            let rel = labels.iter().any(|&l| tax.is_ancestor_or_self(g, l));
            line.push_str(if rel { "\t1" } else { "\t0" });
        }
        line.push('\n');
        if feats.split.is_train(pid) {
            svmlight_row(&mut train, label, v);
            train_l.push_str(&line);
            n_train += 1;
        } else {
            svmlight_row(&mut test, label, v);
            test_l.push_str(&line);
            n_test += 1;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| AppError::Input(format!("{}: {e}", dir.display())))?;
    write(&dir.join("train.svm"), &train)?;
    write(&dir.join("test.svm"), &test)?;
    write(&dir.join("train_labels.tsv"), &train_l)?;
    write(&dir.join("test_labels.tsv"), &test_l)?;
    let mut lv = String::new();
    for (i, &l) in leaves.iter().enumerate() {
        let _ = writeln!(lv, "{i}\t{}", tax.path(l));
    }
    write(&dir.join("leaves.tsv"), &lv)?;
    Ok((n_train, n_test))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_of_a_small_report() {
        let bins = reliability_bins(&[0.05, 0.95], &[false, true], RELIABILITY_BINS);
        let r = Report {
            corpus: "c".into(),
            seed: 1,
            pages: 10,
            categories: 3,
            leaves: 2,
            unfeaturised: 0,
            train_pages: 3,
            train_examples: 4,
            heldout: 7,
            leaf_test: 6,
            inner_only: 1,
            featurise_secs: 0.1,
            families: vec![FamilyReport {
                family: Family::HierNb,
                leaf: LabelScores {
                    accuracy: 0.5,
                    macro_f1: 0.25,
                    n: 6,
                    classes: 2,
                    unclassified: 0,
                },
                inner_predictions: 0,
                train_secs: 0.0,
                relevance: vec![TopicRelevance {
                    topic: "a".into(),
                    positives: 1,
                    auc: Some(1.0),
                    brier: Some(0.0025),
                    extreme: 0.0,
                }],
                reliability: bins,
            }],
        };
        let md = markdown(&r);
        assert!(md.contains(
            "| hierarchical naive Bayes (Chakrabarti 1999) | 0.500 | 0.250 | 2 | 0 (0) | 0.0 |"
        ));
        assert!(md.contains("| a | 1 | 1.000 / 0.003 / 0.00 |"));
        assert!(md.contains("| **mean** | | **1.000** / **0.003** / 0.00 |"));
        assert!(md.contains("| [0.0, 0.1) | 0.050 / 0.000 / 1 |"));
        assert!(reliability_svg(&r).contains("<circle"));
    }
}
