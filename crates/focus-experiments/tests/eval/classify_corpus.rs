//! The classifier evaluation on the Wikispeedia corpus
//! (`focus_experiments::eval::classify`), hierarchical naive Bayes only and two
//! good topics to stay quick in the test profile: leaf accuracy and AUCs
//! within sane bounds. Skips with a message when the corpus folder
//! (`../shared/corpora/wikispeedia`, or env `FOCUS_WIKISPEEDIA`) is absent:
//! it is not part of this repository.

use focus_experiments::eval::classify::{evaluate, Family, Options};
use focus_websim::Corpus;

use crate::common::corpus_dir;

#[test]
fn naive_bayes_on_wikispeedia_is_sane() {
    let Some(dir) = corpus_dir() else { return };
    let corpus = Corpus::load(&dir).unwrap();
    let opts = Options {
        seed: 1,
        families: vec![Family::HierNb],
        // A leaf and an inner topic.
        categories: vec!["Science/Biology/Birds".into(), "Music".into()],
    };
    let r = evaluate(&corpus, &opts).unwrap();
    assert_eq!(r.pages, 4598);
    assert_eq!(r.categories, 129);
    assert_eq!(r.leaves, 123);
    assert_eq!(r.unfeaturised, 0);
    // Every labelled page is a training or a held-out page (one page of
    // the corpus has no label).
    assert_eq!(r.heldout + r.train_pages, 4597);
    assert_eq!(r.leaf_test + r.inner_only, r.heldout);
    assert!(
        r.inner_only > 0,
        "pages labelled only with inner topics exist"
    );
    let nb = &r.families[0];
    eprintln!(
        "featurised in {:.1} s, trained in {:.1} s",
        r.featurise_secs, nb.train_secs
    );
    assert_eq!(nb.leaf.n, r.leaf_test);
    assert!(nb.leaf.accuracy > 0.3, "leaf accuracy {}", nb.leaf.accuracy);
    assert!(nb.leaf.macro_f1 > 0.2, "macro-F1 {}", nb.leaf.macro_f1);
    assert_eq!(nb.relevance.len(), 2);
    for t in &nb.relevance {
        let auc = t.auc.unwrap();
        assert!(auc > 0.5 && auc <= 1.0, "{}: AUC {auc}", t.topic);
        let brier = t.brier.unwrap();
        assert!((0.0..0.25).contains(&brier), "{}: Brier {brier}", t.topic);
        assert!(t.positives > 0);
        // Pages outside the topic that link to it, and the rest.
        assert!(
            t.neighbours > 0 && t.neighbours < t.off_topic,
            "{}: {} of {}",
            t.topic,
            t.neighbours,
            t.off_topic
        );
        assert_eq!(t.off_topic + t.positives, r.heldout);
        let near = t.neighbour_auc.unwrap();
        assert!(
            (0.0..=1.0).contains(&near),
            "{}: neighbour AUC {near}",
            t.topic
        );
    }
    assert_eq!(
        nb.reliability.iter().map(|b| b.count).sum::<usize>(),
        2 * r.heldout
    );
}

/// The papers' posterior is 0 or 1 on nearly every page, so among the
/// pages outside a topic it cannot tell those that link to the topic from
/// the rest; tempered, the crawl's default relevance can
/// (`docs/results/wikispeedia-classify.md`, the neighbour AUC table).
#[test]
fn tempered_relevance_ranks_the_pages_that_lead_to_a_topic_and_the_papers_does_not() {
    let Some(dir) = corpus_dir() else { return };
    let corpus = Corpus::load(&dir).unwrap();
    let opts = Options {
        seed: 1,
        families: vec![Family::HierNb, Family::HierNbTempered],
        categories: vec!["Design_and_Technology/Railway_transport".into()],
    };
    let r = evaluate(&corpus, &opts).unwrap();
    let near = |f: usize| r.families[f].relevance[0].neighbour_auc.unwrap();
    let (exact, tempered) = (near(0), near(1));
    assert!(exact < 0.55, "the papers' posterior: {exact}");
    assert!(tempered > 0.7, "tempered: {tempered}");
}
