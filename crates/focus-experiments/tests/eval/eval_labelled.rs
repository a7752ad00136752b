//! The real-corpus evaluation on a labelled folder of several hosts with
//! dead links (`cargo xtask eval corpus --corpus PATH`): a small websim
//! written out with `write_labelled_folder` stands in for a user's own
//! labelled crawl. Checks that the evaluation picks the corpus's own
//! categories, crawls it over loopback (dead links cost fetches and earn
//! nothing) and writes its report under the corpus's name.

use std::path::Path;

use focus_experiments::eval::crawls::{
    default_categories, eval_command, Crawler, EvalConfig, MIN_CATEGORY_PAGES,
};
use focus_websim::{write_labelled_folder, Corpus, Site, Web, WebConfig};

fn labelled_web(dir: &Path) -> Corpus {
    let config = WebConfig::small().with_pages(3_000).with_dead_links(50);
    let web = Web::new(config, 5).unwrap();
    write_labelled_folder(&web, dir).unwrap();
    Corpus::load(dir).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_evaluation_runs_on_a_labelled_multi_host_corpus_with_dead_links() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus_dir = tmp.path().join("deadweb");
    let corpus = labelled_web(&corpus_dir);
    assert!(corpus.host_count() > 100, "{} hosts", corpus.host_count());

    // Its own categories: the largest leaves, each with enough pages.
    let defaults = default_categories(&corpus);
    assert_eq!(defaults.len(), 10, "{defaults:?}");
    let sizes: Vec<u64> = defaults
        .iter()
        .map(|c| corpus.truth_count(corpus.find_topic(c).unwrap()))
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    assert!(sizes.iter().all(|&n| n >= MIN_CATEGORY_PAGES), "{sizes:?}");
    assert!(
        defaults.iter().all(|c| corpus
            .taxonomy()
            .children(corpus.find_topic(c).unwrap())
            .is_empty()),
        "leaves only: {defaults:?}"
    );

    let out = tmp.path().join("results");
    let cfg = EvalConfig {
        corpus: corpus_dir.clone(),
        out: out.clone(),
        work: tmp.path().join("work"),
        seed: 1,
        pages: 120,
        reference: None,
        crawlers: vec![
            Crawler::Soft,
            Crawler::SoftSequential,
            Crawler::BreadthFirst,
            Crawler::Oracle,
            Crawler::OracleBlind,
        ],
        categories: defaults[..2].to_vec(),
        distill_every: Some(50),
    };
    let command = eval_command(&cfg, &corpus);
    assert!(
        command.starts_with(&format!(
            "cargo xtask eval corpus --corpus {}",
            corpus_dir.display()
        )) && command.ends_with(&format!(
            "--categories {} --distill-every 50",
            defaults[..2].join(",")
        )),
        "{command}"
    );
    let md = focus_experiments::eval::crawl_report(&cfg).await.unwrap();
    assert!(out.join("deadweb.md").is_file());
    assert!(out.join("deadweb/mean-hub.svg").is_file());
    assert!(
        md.starts_with("# Crawlers on a labelled corpus: Deadweb"),
        "{md}"
    );
    assert!(md.contains(&command), "{md}");
    assert!(
        md.contains(&format!("on {} hosts", corpus.host_count())),
        "{md}"
    );
    assert!(md.contains("mean over the 2 categories"), "{md}");
    assert!(md.contains("`focus-soft --concurrency 1`"), "{md}");
    assert!(
        md.contains("- mean recall at 500 pages of soft one fetch at a time: "),
        "{md}"
    );
    for cat in &defaults[..2] {
        assert!(
            md.contains(&format!("| {cat} (")),
            "{cat} has no rows: {md}"
        );
    }

    // Blind to the split, the oracle spends fetches on training pages
    // (they earn nothing) where the oracle skips them: never ahead of it,
    // on some category and budget behind.
    let recalls = |name: &str| -> Vec<f64> {
        md.lines()
            .filter(|l| l.contains(&format!(") | {name} |")))
            .flat_map(|l| l.split('|').skip(3).filter_map(|c| c.trim().parse().ok()))
            .collect()
    };
    let (oracle, blind) = (
        recalls("oracle (bound)"),
        recalls("oracle blind to the split"),
    );
    assert_eq!(oracle.len(), 2 * 2 * 4, "{md}");
    assert_eq!(blind.len(), oracle.len(), "{md}");
    assert!(
        oracle.iter().zip(&blind).all(|(o, b)| b <= o),
        "{oracle:?} {blind:?}"
    );
    assert!(
        oracle.iter().zip(&blind).any(|(o, b)| b < o),
        "{oracle:?} {blind:?}"
    );

    // The focused crawl spent fetches on the web's dead links: they are
    // attempts that fetched nothing, and they count against its budget.
    let slug = defaults[0].replace('/', "-");
    let pages = std::fs::read_to_string(cfg.work.join(&slug).join("hub/soft/pages.jsonl"))
        .expect("the soft crawl's pages.jsonl");
    let attempts: Vec<focus_core::PageLine> = pages
        .lines()
        .map(|l| focus_core::PageLine::parse(l).unwrap())
        .collect();
    assert_eq!(attempts.len(), cfg.pages, "the whole budget is spent");
    assert!(
        attempts.iter().any(|p| p.error.is_some()),
        "no dead link was tried"
    );
}

/// The svmlight export for the scikit-learn reference carries the labels
/// of the neighbour AUC: among the held-out pages outside each topic, its
/// `test_links.tsv` marks exactly as many as linking to the topic as the
/// evaluation's own neighbour count, so the reference's neighbour AUC
/// (`xtask/reference/classify_sklearn.py`) ranks the same pages.
#[test]
fn the_reference_export_marks_the_neighbours_the_evaluation_counts() {
    use focus_experiments::eval::classify::{
        evaluate_featurised, export_svmlight, featurise, Family, Options,
    };

    let tmp = tempfile::tempdir().unwrap();
    let corpus = labelled_web(&tmp.path().join("deadweb"));
    let categories = default_categories(&corpus)[..2].to_vec();
    let feats = featurise(&corpus, 1);
    let export = tmp.path().join("export");
    let (_, test_rows) = export_svmlight(&corpus, &feats, &categories, &export).unwrap();
    let report = evaluate_featurised(
        &corpus,
        &feats,
        &Options {
            seed: 1,
            families: vec![Family::Centroids],
            categories: categories.clone(),
        },
    )
    .unwrap();

    let rows = |name: &str| -> Vec<Vec<String>> {
        std::fs::read_to_string(export.join(name))
            .unwrap()
            .lines()
            .map(|l| l.split('\t').map(str::to_owned).collect())
            .collect()
    };
    let links = rows("test_links.tsv");
    let labels = rows("test_labels.tsv");
    assert_eq!(links[0], categories, "the header names the good topics");
    assert_eq!(links.len(), test_rows + 1, "one row per held-out page");
    assert_eq!(labels.len(), links.len(), "aligned with test_labels.tsv");
    for (j, topic) in report.families[0].relevance.iter().enumerate() {
        let off_topic: Vec<&str> = labels[1..]
            .iter()
            .zip(&links[1..])
            .filter(|(l, _)| l[j + 1] == "0")
            .map(|(_, k)| k[j].as_str())
            .collect();
        let neighbours = off_topic.iter().filter(|&&k| k == "1").count();
        assert_eq!(off_topic.len(), topic.off_topic, "{}", topic.topic);
        assert_eq!(neighbours, topic.neighbours, "{}", topic.topic);
        assert!(
            neighbours > 0 && neighbours < off_topic.len(),
            "{}: {neighbours} of {} off-topic pages link to it: the AUC is defined",
            topic.topic,
            off_topic.len()
        );
    }
}
