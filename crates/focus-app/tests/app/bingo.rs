//! BINGO! end to end on a small embedded websim (20,000 pages) over real
//! loopback HTTP: the learning phase on the training pages' domains, the
//! archetypes, retraining, the harvesting phase, the local search index and
//! its clusters; the review step; and a bookmarks file on a user's web.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::lines;

use clap::Parser;
use focus_app::{run_bingo, search_crawl};
use focus_cli::{BingoArgs, BingoPlan, SearchArgs};
use focus_core::Canonicalizer;
use focus_websim::{Site, Web, WebConfig};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: BingoArgs,
}

#[derive(Parser)]
struct SearchCli {
    #[command(flatten)]
    args: SearchArgs,
}

fn plan(out: &Path, extra: &[&str]) -> BingoPlan {
    let out = out.to_string_lossy().into_owned();
    let mut v = vec![
        "bingo",
        "--out",
        out.as_str(),
        "--websim-pages",
        "20000",
        "--good",
        "recreation/outdoors/cycling",
        "--max-pages",
        "600",
        "--learning-pages",
        "200",
    ];
    v.extend_from_slice(extra);
    Cli::parse_from(v).args.plan().unwrap()
}

fn search(out: &Path, args: &[&str]) -> focus_app::SearchOutcome {
    let out = out.to_string_lossy().into_owned();
    let mut v = vec!["search", "--out", out.as_str()];
    v.extend_from_slice(args);
    search_crawl(&SearchCli::parse_from(v).args).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_phases_run_archetypes_are_admitted_and_the_crawl_is_searchable() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bingo");
    let got = run_bingo(&plan(&out, &[])).await.unwrap();
    assert_eq!(got.learning.pages_fetched, 200);
    let harvesting = got.harvesting.as_ref().unwrap();
    assert_eq!(harvesting.pages_fetched, 400);
    assert_eq!(harvesting.crawler, "bingo-harvesting");
    assert_eq!(lines(&out.join("learning")).len(), 200);
    assert_eq!(lines(&out.join("harvesting")).len(), 400);

    // The learning phase stays on the domains of its training pages and
    // seeds: few domains, far fewer than harvesting reaches.
    let canon = Canonicalizer::default();
    let domains = |phase: &str| -> BTreeSet<String> {
        lines(&out.join(phase))
            .iter()
            .filter_map(|p| canon.canonicalize(&p.url).ok())
            .map(|u| u.domain_key().to_string())
            .collect()
    };
    let (learning, harvest) = (domains("learning"), domains("harvesting"));
    assert!(
        learning.len() < harvest.len(),
        "{} vs {}",
        learning.len(),
        harvest.len()
    );

    // Archetypes: candidates from both sources, admitted only above the
    // training pages' mean confidence, and they joined the training set.
    assert!(!got.archetypes.is_empty());
    let admitted = got.archetypes.iter().filter(|a| a.admitted).count();
    let (topic, before, after) = &got.training[0];
    assert_eq!(topic, "recreation/outdoors/cycling");
    assert_eq!(*after, before + admitted, "{:?}", got.training);
    assert!(got
        .archetypes
        .iter()
        .all(|a| a.by_authority || a.by_confidence));
    let tsv = std::fs::read_to_string(out.join("archetypes.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), got.archetypes.len() + 1);

    // One tree per feature space, each trained (the kept texts carry the
    // anchor texts the neighbours space reads, so archetypes have them).
    let spaces: Vec<&str> = got.spaces.iter().map(|s| s.0).collect();
    assert_eq!(spaces, ["terms", "pairs", "neighbours"]);
    let texts = std::fs::read_to_string(out.join("learning").join("texts.jsonl")).unwrap();
    let with_links = texts
        .lines()
        .map(|l| serde_json::from_str::<focus_core::TextLine>(l).unwrap())
        .filter(|t| !t.links.is_empty())
        .count();
    assert!(with_links > 100, "{with_links}");

    // The index holds the kept pages; a query (the websim's words of the
    // topic) answers from them with their topics, ranked as asked, and
    // clusters with labels.
    assert!(got.indexed > 300, "{}", got.indexed);
    let web = Web::new(
        WebConfig::default().with_pages(20_000),
        focus_cli::DEFAULT_SEED,
    )
    .unwrap();
    let cycling = web.taxonomy().find("recreation/outdoors/cycling").unwrap();
    let query = web.topic_query(cycling);
    let query = query.as_str();
    let found = search(&out, &["--topic", "recreation", query]);
    assert!(!found.hits.is_empty());
    assert!(found.hits.iter().all(|h| h
        .topic
        .as_deref()
        .is_some_and(|t| t.starts_with("recreation/"))));
    let by_conf = search(&out, &["--rank", "confidence", "--limit", "20", query]);
    assert!(by_conf
        .hits
        .windows(2)
        .all(|w| w[0].confidence >= w[1].confidence));
    let clustered = search(&out, &["--cluster", "--limit", "50", query]);
    let clusters = clustered.clusters.unwrap();
    assert!(!clusters.is_empty());
    assert!(clusters
        .iter()
        .all(|c| !c.label.is_empty() && !c.urls.is_empty()));
}

/// A crawl phase's kept texts, in crawl order.
fn texts(phase: &Path) -> Vec<focus_core::TextLine> {
    std::fs::read_to_string(phase.join("texts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Fetched pages no topic took: (those at relevance 0, those above it).
fn rejected(phase: &Path) -> (usize, usize) {
    let rejected: Vec<f64> = lines(phase)
        .iter()
        .filter(|p| p.error.is_none() && p.duplicate.is_none() && p.class.is_none())
        .map(|p| p.relevance)
        .collect();
    let zero = rejected.iter().filter(|&&r| r == 0.0).count();
    (zero, rejected.len() - zero)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_harvest_ranks_rejected_pages_and_the_paper_gives_them_0() {
    let dir = tempfile::tempdir().unwrap();
    let (paper, apprentice) = (dir.path().join("paper"), dir.path().join("apprentice"));
    run_bingo(&plan(&paper, &["--child-priority", "paper"]))
        .await
        .unwrap();
    let got = run_bingo(&plan(&apprentice, &[])).await.unwrap();
    let harvesting = got.harvesting.as_ref().unwrap();
    assert_eq!(harvesting.pages_fetched, 400);
    assert_eq!(harvesting.crawler, "bingo-harvesting");
    // The paper's SVMs give a page every space rejects 0; calibrated, every
    // rejected page ranks above 0 and below ½.
    let (zero, above) = rejected(&paper.join("harvesting"));
    assert!(zero > 0, "{zero} rejected pages at 0, {above} above");
    let (zero, above) = rejected(&apprentice.join("harvesting"));
    assert_eq!(zero, 0, "{above} rejected pages above 0");
    assert!(above > 0);
    assert!(lines(&apprentice.join("harvesting"))
        .iter()
        .filter(|p| p.class.is_none())
        .all(|p| p.relevance < 0.5));
    // The link model reorders the harvest: the two crawls part ways.
    let order = |out: &Path| -> Vec<String> {
        lines(&out.join("harvesting"))
            .into_iter()
            .map(|p| p.url)
            .collect()
    };
    assert_ne!(order(&paper), order(&apprentice));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_anchors_space_reads_what_earlier_pages_called_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bingo");
    let got = run_bingo(&plan(&out, &["--spaces", "terms,anchors"]))
        .await
        .unwrap();
    let spaces: Vec<&str> = got.spaces.iter().map(|s| s.0).collect();
    assert_eq!(spaces, ["terms", "anchors"]);
    for phase in ["learning", "harvesting"] {
        let phase = out.join(phase);
        let kept = texts(&phase);
        // Every anchor a page was judged with is the anchor of a link on a
        // page this crawl fetched before it.
        let mut earlier: BTreeSet<String> = BTreeSet::new();
        let mut cited_pages = 0;
        for t in &kept {
            assert!(t.cited.len() <= 10, "{t:?}");
            for a in &t.cited {
                assert!(earlier.contains(a), "{a:?} of {} not seen before it", t.url);
            }
            cited_pages += usize::from(!t.cited.is_empty());
            earlier.extend(t.links.iter().map(|a| a.trim().to_owned()));
        }
        // Every page but a seed was reached by a link, nearly all of them
        // by a link with words.
        let reached = lines(&phase)
            .iter()
            .filter(|p| p.parent.is_some() && kept.iter().any(|t| t.url == p.url))
            .count();
        assert!(reached > 50, "{reached}");
        assert!(
            cited_pages * 10 >= reached * 8,
            "{cited_pages} of {reached} reached pages have anchors"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_stops_after_learning_and_the_users_archetypes_are_trained_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("review");
    let first = run_bingo(&plan(&out, &["--review"])).await.unwrap();
    assert!(first.harvesting.is_none());
    assert!(!out.join("harvesting").exists());
    // The user keeps one candidate and admits it.
    let path = out.join("archetypes.tsv");
    let tsv = std::fs::read_to_string(&path).unwrap();
    let mut rows = tsv.lines();
    let header = rows.next().unwrap();
    let kept = rows.next().expect("at least one candidate");
    let kept = kept
        .rsplit_once('\t')
        .map(|(l, _)| format!("{l}\tyes"))
        .unwrap();
    std::fs::write(&path, format!("{header}\n{kept}\n")).unwrap();
    let second = run_bingo(&plan(&out, &["--review", "--resume"]))
        .await
        .unwrap();
    assert_eq!(
        second.learning.pages_fetched, 200,
        "learning is not run again"
    );
    assert_eq!(second.archetypes.len(), 1);
    let (_, before, after) = &second.training[0];
    assert_eq!(*after, before + 1);
    assert_eq!(second.harvesting.unwrap().pages_fetched, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bookmarks_file_starts_a_crawl_of_the_users_own_web() {
    use std::fmt::Write as _;
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    // The user's site: no fault hosts (faults are tested elsewhere).
    let config = WebConfig {
        faults: Vec::new(),
        ..WebConfig::default().with_pages(20_000)
    };
    let web = Arc::new(Web::new(config, 3).unwrap());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let tax = web.taxonomy();
    let folder = |name: &str, urls: Vec<String>| {
        let mut s = format!("<DT><H3>{name}</H3>\n<DL><p>\n");
        for u in urls {
            let _ = writeln!(s, "<DT><A HREF=\"{u}\">a page</A>");
        }
        s + "</DL><p>\n"
    };
    let outdoors = web.sample(tax.find("recreation/outdoors").unwrap(), 10);
    let far: Vec<String> = ["science", "business"]
        .iter()
        .flat_map(|t| web.sample(tax.find(t).unwrap(), 10))
        .map(|p| p.url)
        .collect();
    let html = format!(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<H1>Bookmarks</H1>\n<DL><p>\n{}{}</DL><p>\n",
        folder("Outdoors", outdoors.iter().map(|p| p.url.clone()).collect()),
        folder("Others", far)
    );
    let bookmarks = dir.path().join("bookmarks.html");
    std::fs::write(&bookmarks, html).unwrap();

    let out = dir.path().join("crawl");
    let (out_s, file, connect) = (
        out.to_string_lossy().into_owned(),
        bookmarks.to_string_lossy().into_owned(),
        server.connect_to(),
    );
    let plan = Cli::parse_from([
        "bingo",
        "--out",
        &out_s,
        "--bookmarks",
        &file,
        "--good",
        "outdoors",
        "--connect-to",
        &connect,
        "--host-interval",
        "0s",
        "--max-pages",
        "150",
        "--learning-pages",
        "50",
    ])
    .args
    .plan()
    .unwrap();
    let got = run_bingo(&plan).await.unwrap();
    assert_eq!(got.training[0].0, "outdoors", "the folder is the topic");
    assert!(got.training[0].1 >= 8, "{:?}", got.training);
    assert!(got.learning.pages_fetched > 0 && got.learning.pages_fetched <= 50);
    let harvesting = got.harvesting.unwrap();
    assert!(harvesting.pages_fetched > 0);
    assert!(
        harvesting.harvest_rate_true.is_none(),
        "no truth on a user's web"
    );
    // The bookmarks are the seeds: the learning crawl starts from them.
    let learnt = lines(&out.join("learning"));
    assert!(outdoors
        .iter()
        .any(|p| learnt.iter().any(|l| l.url == p.url)));
    assert!(got.indexed > 0);
    server.shutdown().await;
}

/// A wrong `--out` is refused before the topics are read and the examples
/// fetched (a user's bookmarks can take minutes to fetch): with a
/// bookmarks file that does not exist, the error is still about `--out`;
/// and a phase folder that holds a crawl store is refused without
/// `--resume`.
#[tokio::test]
async fn a_wrong_out_is_refused_before_the_examples_are_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::common::a_file(dir.path());
    let held = dir.path().join("held");
    std::fs::create_dir_all(held.join("harvesting").join("store")).unwrap();
    let bookmarks = dir.path().join("no-such-bookmarks.html");
    for (out, says) in [
        (file.join("b"), "notes.txt is not a folder"),
        (held, "harvesting already holds a crawl store"),
    ] {
        let plan = plan(&out, &["--bookmarks", bookmarks.to_str().unwrap()]);
        let err = run_bingo(&plan).await.unwrap_err().to_string();
        assert!(err.contains(says), "--out {}: {err}", out.display());
    }
}
