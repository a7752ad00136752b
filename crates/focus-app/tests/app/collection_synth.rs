//! Collection synthesis end to end on the embedded websim over real
//! loopback HTTP: topics queried on the search service, one centroid per
//! topic, one crawl, every collection ranked and judged; the policy's
//! rules hold on what the crawl did (with cutoff 0, every fetched page was
//! linked from a nugget; never-follow patterns are never fetched); a topics
//! file of seed URLs and a pre-crawl idf pass work; a resumed crawl goes on
//! from its pages.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::common::lines;

use focus_app::run_collections;
use focus_cli::{CollectionArgs, CollectionPlan};
use focus_core::{Canonicalizer, PageLine};
use focus_websim::{Web, WebConfig};

use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: CollectionArgs,
}

fn plan(out: &Path, extra: &[&str]) -> CollectionPlan {
    let out = out.to_string_lossy().into_owned();
    let mut v = vec!["collection-synth", "--out", out.as_str()];
    v.extend_from_slice(extra);
    Cli::parse_from(v).args.plan().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collections_grow_from_nuggets_and_rank_above_their_categorys_share() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let crawl = plan(
        &out,
        &[
            "--max-pages",
            "800",
            "--never-follow",
            "/links",
            "--never-follow",
            "Click here",
        ],
    );
    let got = run_collections(&crawl).await.unwrap();
    let r = &got.report;
    assert_eq!(r.collections.len(), focus_app::WEBSIM_TOPICS.len());
    for f in [
        "pages.jsonl",
        "summary.json",
        "collections.json",
        "collections.svg",
        "collections.md",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    for c in &r.collections {
        assert!(c.query.as_deref().is_some_and(|q| !q.is_empty()));
        assert!(c.has_centroid && c.seed_pages >= 4, "{c:?}");
        let tsv = out
            .join("collections")
            .join(format!("{}.tsv", c.name.replace('/', "_")));
        let rows = std::fs::read_to_string(&tsv).unwrap().lines().count();
        assert_eq!(rows, c.size + 1, "{}: header plus one row per page", c.name);
    }
    // Ranking by correlation finds each collection's category far above
    // its share of what the crawl fetched.
    let reached: Vec<_> = r
        .collections
        .iter()
        .filter_map(|c| Some((c.precision[0]?, c.category_share?)))
        .collect();
    assert!(reached.len() >= 6, "{reached:?}");
    let precision = reached.iter().map(|p| p.0).sum::<f64>() / reached.len() as f64;
    let share = reached.iter().map(|p| p.1).sum::<f64>() / reached.len() as f64;
    assert!(
        precision > 0.5 && precision > 5.0 * share,
        "P@10 {precision:.2}, share {share:.2}"
    );

    // Cutoff 0: a fetched page's parent was a nugget (classified, at least
    // the threshold); no URL with the never-follow text was queued.
    let pages = lines(&out);
    let by_url: HashMap<&str, &PageLine> = pages.iter().map(|p| (p.url.as_str(), p)).collect();
    let mut children = 0;
    for p in &pages {
        assert!(
            !p.url.contains("/links"),
            "{} was never to be followed",
            p.url
        );
        if let Some(parent) = p.parent.as_deref().and_then(|u| by_url.get(u)) {
            children += 1;
            assert!(
                parent.class.is_some() && parent.relevance >= r.threshold,
                "{} came from {} of correlation {}",
                p.url,
                parent.url,
                parent.relevance
            );
        }
    }
    assert!(children > 400, "{children}");

    // Nor was a page reached by a link whose anchor text is a never-follow
    // text: the parent's link to it (the first, which the crawl reads) says
    // something else, though parents have "click here" links to spare.
    let web = Web::new(WebConfig::default(), crawl.crawl.seed).unwrap();
    let canon = Canonicalizer::default();
    let (mut checked, mut spared) = (0, 0);
    for p in &pages {
        let Some(parent) = p.parent.as_deref() else {
            continue;
        };
        let html = web
            .page_id(parent)
            .and_then(|id| web.page_html(id))
            .unwrap();
        let doc = focus_html::analyze(&html, &canon.canonicalize(parent).unwrap(), &canon);
        let mut links = doc.links.iter().filter(|l| !l.nofollow);
        let anchor = |l: &focus_html::Link| l.anchor_text.trim().to_lowercase();
        spared += links.clone().filter(|l| anchor(l) == "click here").count();
        let to_page = links.find(|l| l.url.as_str() == p.url).unwrap();
        assert_ne!(anchor(to_page), "click here", "{} from {parent}", p.url);
        checked += 1;
    }
    assert!(
        checked > 400 && spared > 50,
        "{checked} links, {spared} spared"
    );

    // Resumed, the crawl goes on from its pages to the new budget.
    let more = run_collections(&plan(&out, &["--max-pages", "900", "--resume"]))
        .await
        .unwrap();
    assert_eq!(more.summary.pages_fetched, 900);
    assert_eq!(lines(&out).len(), pages.len() + 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_topics_file_of_seed_urls_and_a_pre_crawl_idf_pass() {
    let dir = tempfile::tempdir().unwrap();
    // Seed URLs found by a first run's search: the top pages of two topics.
    let first = dir.path().join("first");
    let found = run_collections(&plan(
        &first,
        &[
            "--max-pages",
            "50",
            "--good",
            "arts/music/jazz",
            "--good",
            "science/biology/genetics",
        ],
    ))
    .await
    .unwrap();
    assert_eq!(found.report.collections.len(), 2);
    let mut file = String::from("# topic<TAB>seed URLs\n");
    for name in ["arts/music/jazz", "science/biology/genetics"] {
        let tsv = std::fs::read_to_string(
            first
                .join("collections")
                .join(format!("{}.tsv", name.replace('/', "_"))),
        )
        .unwrap();
        let urls: Vec<&str> = tsv
            .lines()
            .skip(1)
            .filter_map(|l| l.split('\t').nth(4))
            .take(6)
            .collect();
        assert!(urls.len() >= 4, "{name}: {urls:?}");
        writeln!(file, "{name}\t{}", urls.join(" ")).unwrap();
    }
    let topics = dir.path().join("topics.tsv");
    std::fs::write(&topics, file).unwrap();

    let out = dir.path().join("c");
    let got = run_collections(&plan(
        &out,
        &[
            "--max-pages",
            "300",
            "--topics",
            topics.to_str().unwrap(),
            "--idf",
            "pre-crawl",
            "--idf-pages",
            "200",
            "--cutoff",
            "1",
        ],
    ))
    .await
    .unwrap();
    assert!(
        got.report.idf.contains("pre-crawl of"),
        "{}",
        got.report.idf
    );
    assert!(out.join("idf.json").is_file());
    assert_eq!(lines(&out.join("idf-pass")).len(), 200);
    assert_eq!(got.report.collections.len(), 2);
    for c in &got.report.collections {
        assert!(c.query.is_none() && c.has_centroid, "{c:?}");
        assert!(c.size > 0, "{c:?}");
    }
    assert_eq!(got.summary.pages_fetched, 300);
}

/// A wrong `--out` is refused before the topics are read and searched (on
/// the web, queries and a statistics crawl): with a topics file that does
/// not exist, the error is still about `--out`.
#[tokio::test]
async fn a_wrong_out_is_refused_before_the_topics_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::common::a_file(dir.path());
    let topics = dir.path().join("no-such-topics.tsv");
    let crawl = plan(&file.join("c"), &["--topics", topics.to_str().unwrap()]);
    let err = run_collections(&crawl).await.unwrap_err().to_string();
    assert!(err.contains("notes.txt is not a folder"), "{err}");
}
