//! End-to-end crawls of the replayed Wikispeedia corpus over real loopback
//! HTTP (`--corpus`): the output contract, ground truth from the corpus's
//! labels, focus against breadth-first, the example-folder and seed-file
//! paths, and the evaluation's split and scoring. Skips with a message
//! when `../shared/corpora/wikispeedia` is absent (it is not part of this
//! repository; set `FOCUS_WIKISPEEDIA` to use another copy).

use std::collections::HashSet;
use std::path::Path;

use focus_app::run;
use focus_cli::{ChildPriority, CrawlPlan, Crawler, SoftOrder, Strategy, TopicSource};
use focus_experiments::eval::crawls::{
    default_categories, hub_seeds, oracle_order, score, scored_pages, topic_seeds, CATEGORIES,
};
use focus_experiments::eval::split::Split;
use focus_websim::{Corpus, Site};

use crate::common::corpus_dir;

fn plan(corpus: &Path, out: &Path, pages: u64, crawler: Crawler) -> CrawlPlan {
    let source = TopicSource::Corpus {
        dir: corpus.to_path_buf(),
        good: vec!["subject.Science.Biology.Birds".into()],
        examples: None,
        seeds: None,
    };
    CrawlPlan {
        max_pages: pages,
        strategy: Strategy::of(crawler),
        ..CrawlPlan::new(source, out.to_path_buf())
    }
}

fn lines(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("pages.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corpus_crawl_has_the_websims_outputs_and_its_truth() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let soft = run(&plan(&corpus, &dir.path().join("soft"), 300, Crawler::SOFT))
        .await
        .unwrap();
    for f in [
        "pages.jsonl",
        "summary.json",
        "hubs.tsv",
        "authorities.tsv",
        "harvest.svg",
    ] {
        assert!(dir.path().join("soft").join(f).is_file(), "{f} missing");
    }
    // Every page sits on one host: the distiller counts every link there
    // (the 1999 cross-host rule would leave it none, and no hub).
    let hubs = std::fs::read_to_string(dir.path().join("soft/hubs.tsv")).unwrap();
    assert!(hubs.lines().count() > 1, "no hub on a one-site crawl");
    assert_eq!(soft.pages_fetched, 300);
    assert_eq!(soft.relevant_pages_true, Some(161));
    // The truth in pages.jsonl is the corpus's labels, for what the fetch
    // harvested: the corpus holds redirect copies (Pigeon is Dove's text
    // under another title), which are marked and harvest nothing.
    let c = Corpus::load(&corpus).unwrap();
    let birds = c.find_topic("Science/Biology/Birds").unwrap();
    let mut duplicates = 0;
    for v in lines(&dir.path().join("soft")) {
        let url = v["url"].as_str().unwrap();
        let harvested = v["error"].is_null() && v.get("duplicate").is_none();
        duplicates += usize::from(v.get("duplicate").is_some());
        let expected = c.truth_relevant(url, &[birds]).map(|t| t && harvested);
        assert_eq!(v["relevant_true"].as_bool(), expected, "{url}");
    }
    assert!(duplicates > 0, "the corpus's copies are marked");
    let bfs = run(&plan(
        &corpus,
        &dir.path().join("bfs"),
        300,
        Crawler::BreadthFirst,
    ))
    .await
    .unwrap();
    let (s, b) = (
        soft.harvest_rate_true.unwrap(),
        bfs.harvest_rate_true.unwrap(),
    );
    // Birds are 3.5 % of the corpus; from the corpus's bird seeds soft
    // focus keeps well above that and above breadth-first.
    assert!(s > 0.1 && s > b, "soft {s} vs breadth-first {b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_one_site_the_learnt_link_kinds_leave_the_papers_crawl() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let soft = |priority| Crawler::Soft {
        order: SoftOrder::Vldb,
        priority,
    };
    // Every link of a one-site web is same-site: there is no other kind to
    // rank it against, so scaling by link kind must change nothing (before
    // the rule, the same-site factor fell with the crawl's yield and links
    // queued early outranked better later ones).
    let (kinds, paper) = (dir.path().join("kinds"), dir.path().join("paper"));
    let k = run(&plan(&corpus, &kinds, 300, soft(ChildPriority::LinkKinds)))
        .await
        .unwrap();
    run(&plan(&corpus, &paper, 300, soft(ChildPriority::Paper)))
        .await
        .unwrap();
    let urls = |out: &Path| -> Vec<String> {
        lines(out)
            .iter()
            .map(|v| v["url"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(k.link_yield_cross_site, None);
    assert!(k.link_yield_same_site.is_some_and(|y| y < 0.9));
    assert_eq!(urls(&kinds), urls(&paper));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_evaluations_split_seeds_and_scores() {
    let Some(dir) = corpus_dir() else { return };
    let c = Corpus::load(&dir).unwrap();
    let split = Split::new(&c, 1);
    let birds = c.find_topic("Science/Biology/Birds").unwrap();
    let train: Vec<u32> = (0..c.page_count())
        .filter(|&p| c.labels(p).contains(&birds) && split.is_train(p))
        .collect();
    // 30 % of the 161 birds (more where a page was drawn for another label).
    assert!((48..=60).contains(&train.len()), "{}", train.len());
    assert_eq!(
        Split::new(&c, 1).train_pages().count(),
        split.train_pages().count()
    );
    let seeds = topic_seeds(&c, &split, birds, 1);
    assert_eq!(seeds.len(), 3);
    assert!(seeds
        .iter()
        .all(|&p| !split.is_train(p) && c.labels(p).contains(&birds)));
    // Wikispeedia is evaluated on its ten named categories, not on its
    // largest leaves.
    assert_eq!(
        default_categories(&c),
        CATEGORIES.map(String::from).to_vec()
    );
    let hubs = hub_seeds(&c);
    assert_eq!(hubs.len(), 5);
    assert!(c.in_degree(hubs[0]) >= c.in_degree(hubs[4]));
    // Scoring counts each held-out page once, training pages never, and a
    // page only when an attempt received it.
    let url = |p: u32| c.page_url(p);
    let scored: HashSet<u32> = [seeds[0], seeds[1]].into_iter().collect();
    let urls = vec![
        url(train[0]),
        None,
        url(seeds[0]),
        url(seeds[0]),
        url(hubs[0]),
    ];
    assert_eq!(score(&c, &urls, &scored), vec![0, 0, 1, 1, 1]);

    // The example folder the crawlers train on.
    let tmp = tempfile::tempdir().unwrap();
    let n = split.write_examples(&c, tmp.path()).unwrap();
    assert!(n >= split.train_pages().count());
    let birds_dir = tmp.path().join("Science/Biology/Birds");
    assert_eq!(std::fs::read_dir(birds_dir).unwrap().count(), train.len());

    // The oracle bound: it starts from a seed, fetches no page twice, and
    // finds at least as many scored pages as breadth-first at every budget.
    let scored = scored_pages(&c, &split, birds, &seeds);
    let relevant: HashSet<u32> = (0..c.page_count())
        .filter(|&p| c.labels(p).contains(&birds))
        .collect();
    let oracle = oracle_order(&c, &seeds, &scored, &relevant, 300);
    assert_eq!(oracle.len(), 300);
    assert!(seeds.contains(&oracle[0]));
    assert_eq!(oracle.iter().collect::<HashSet<_>>().len(), 300);
    let mut bfs: Vec<u32> = seeds.clone();
    let mut seen: HashSet<u32> = bfs.iter().copied().collect();
    let mut i = 0;
    while bfs.len() < 300 && i < bfs.len() {
        for &q in c.out_links(bfs[i]) {
            if bfs.len() < 300 && seen.insert(q) {
                bfs.push(q);
            }
        }
        i += 1;
    }
    let found = |order: &[u32]| -> Vec<usize> {
        let urls: Vec<Option<String>> = order.iter().map(|&p| url(p)).collect();
        score(&c, &urls, &scored)
    };
    let (o, b) = (found(&oracle), found(&bfs));
    for budget in [50, 100, 300] {
        assert!(o[budget - 1] >= b[budget - 1], "at {budget}: {o:?} {b:?}");
    }
    assert!(o[299] > b[299]);
}
