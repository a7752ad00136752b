//! The "any web" path end to end: a websim on its own loopback listener
//! stands in for the web, and the crawl gets what a user gives it — an
//! example set on disk (pages, and a `urls.txt` fetched before training), a
//! seed file with a comment and a bad line, a `--connect-to` rule — and the
//! fetcher's real-web politeness (one request a second per host), in
//! batches and as a stream. Ground truth is read here, by the test, only
//! to judge the crawl.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use focus_app::run;
use focus_cli::{CrawlPlan, Crawler, Dispatch, Strategy, TopicSource};
use focus_core::Flow;
use focus_websim::{Site, Web, WebConfig};

const GOOD: &str = "recreation/outdoors/cycling";
const PAGES: u64 = 200;

/// Writes the example set and the seed file under `dir`.
fn user_inputs(web: &Web, dir: &Path) -> (PathBuf, PathBuf) {
    let examples = dir.join("examples");
    web.write_examples(&examples, 15).unwrap();
    let cycling = web.taxonomy().find(GOOD).unwrap();
    // Three more cycling examples given as URLs: the crawler fetches them.
    let urls: Vec<String> = web
        .sample(cycling, 18)
        .into_iter()
        .skip(15)
        .map(|p| p.url)
        .collect();
    let cycling_dir = examples.join(GOOD);
    std::fs::write(
        cycling_dir.join("urls.txt"),
        format!("# fetched before training\n{}\n", urls.join("\n")),
    )
    .unwrap();
    let seeds = dir.join("seeds.txt");
    let mut text = String::from("# cycling seeds\n");
    for u in web.seed_urls(cycling, 5) {
        text.push_str(&u);
        text.push('\n');
    }
    text.push_str("not a url\n");
    std::fs::write(&seeds, text).unwrap();
    (examples, seeds)
}

/// What every crawl of the test shares: the web, the `--connect-to` rule
/// that reaches it, the user's inputs, and the folder the crawls write under.
struct UserWeb<'a> {
    web: &'a Web,
    connect_to: String,
    examples: PathBuf,
    seeds: PathBuf,
    dir: &'a Path,
}

/// Crawls into `user.dir`'s `name` and returns the summary and what the
/// truth says of the fetched pages.
async fn crawl(
    user: &UserWeb<'_>,
    name: &str,
    dispatch: Dispatch,
    flow: Flow,
) -> (focus_eval::Summary, Truth) {
    let (web, out) = (user.web, user.dir.join(name));
    let source = TopicSource::Examples {
        dir: user.examples.clone(),
        good: vec![GOOD.to_owned()],
        seeds: user.seeds.clone(),
    };
    let plan = CrawlPlan {
        connect_to: vec![user.connect_to.clone()],
        max_pages: PAGES,
        strategy: Strategy {
            dispatch,
            ..Strategy::of(Crawler::SOFT)
        },
        flow,
        ..CrawlPlan::new(source, out.clone())
    };
    let summary = run(&plan).await.unwrap();
    let cycling = web.taxonomy().find(GOOD).unwrap();
    let lines = std::fs::read_to_string(out.join("pages.jsonl")).unwrap();
    let (mut n, mut relevant) = (0usize, 0usize);
    let mut judgement = focus_eval::Agreement::default();
    let mut r_of_relevant = 0.0;
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        n += 1;
        let truly = web.truth(v["url"].as_str().unwrap()) == Some(cycling);
        let r = v["relevance"].as_f64().unwrap_or(0.0);
        judgement.push(r, truly);
        if truly {
            relevant += 1;
            r_of_relevant += r;
        }
    }
    assert_eq!(n as u64, summary.pages_fetched);
    let truth = Truth {
        harvest: relevant as f64 / n.max(1) as f64,
        judgement,
        mean_r_of_relevant: r_of_relevant / relevant.max(1) as f64,
    };
    (summary, truth)
}

/// What the crawl cannot see: its true harvest, and how its own judgement
/// (R >= 0.5) of its pages compares with the truth.
struct Truth {
    harvest: f64,
    judgement: focus_eval::Agreement,
    /// The mean R of the truly relevant pages.
    mean_r_of_relevant: f64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_web_crawl_stays_focused_under_real_politeness() {
    let web = Arc::new(Web::new(WebConfig::default(), 1).unwrap());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (examples, seeds) = user_inputs(&web, tmp.path());
    let user = UserWeb {
        web: &web,
        connect_to: server.connect_to(),
        examples,
        seeds,
        dir: tmp.path(),
    };

    let (held, held_truth) = crawl(&user, "held", Dispatch::Promising, Flow::Batches).await;
    let (filled, filled_truth) = crawl(&user, "filled", Dispatch::Fill, Flow::Batches).await;
    let (streamed, streamed_truth) =
        crawl(&user, "streamed", Dispatch::Promising, Flow::Stream).await;
    server.shutdown().await;
    let (held_true, filled_true) = (held_truth.harvest, filled_truth.harvest);
    eprintln!(
        "held {held_true:.3} / {:.3} in {:.1} s; filled {filled_true:.3} / {:.3} in {:.1} s",
        held.harvest_rate_estimated,
        held.elapsed_s,
        filled.harvest_rate_estimated,
        filled.elapsed_s
    );

    eprintln!(
        "held as a stream {:.3} / {:.3} in {:.1} s",
        streamed_truth.harvest, streamed.harvest_rate_estimated, streamed.elapsed_s
    );
    for s in [&held, &filled, &streamed] {
        assert_eq!(s.pages_fetched, PAGES);
        // Off the embedded websim the crawl has no ground truth to report.
        assert!(s.harvest_rate_true.is_none() && s.recall_true.is_none());
    }
    let share = web.truth_share(web.taxonomy().find(GOOD).unwrap());
    // Every host asks for a second between requests, so the best URLs are
    // usually waiting; filling batches from whatever host is ready spends
    // the crawl on poor URLs, holding them back keeps it focused.
    assert!(
        held_true >= 0.2 && held_true >= 3.0 * filled_true,
        "held {held_true:.3} (estimated {:.3}), filled {filled_true:.3} (estimated {:.3}), share {share:.3}",
        held.harvest_rate_estimated,
        filled.harvest_rate_estimated
    );
    // As a stream the crawl decides after every page, and a host busy
    // with an earlier slot's fetch is waited for as a cooling one: it
    // harvests what the batches do. When it saw only the hosts cooling, it
    // spent the slots on poor URLs while the topic's host was being
    // fetched (0.470 to 0.620 in five runs, docs/crawl.md).
    assert!(
        streamed_truth.harvest >= 0.9 * held_true,
        "as a stream {:.3}, in batches {held_true:.3}",
        streamed_truth.harvest
    );
    // The crawl's judgement (R >= 0.5) of its pages: what it calls
    // relevant nearly always is, and it finds most of the relevant ones
    // (precision 0.926 and recall 0.862 here at 29af00e; over the 5,000
    // pages of the embedded web's cycling crawl docs/crawl.md measures 0.948
    // and 0.670).
    let judged = held_truth.judgement;
    let (recall, precision) = (
        judged.recall().unwrap_or(0.0),
        judged.precision().unwrap_or(0.0),
    );
    let est = held.harvest_rate_estimated;
    eprintln!(
        "held: judged recall {recall:.3}, precision {precision:.3}, mean R of relevant pages {:.3}",
        held_truth.mean_r_of_relevant
    );
    assert!(
        precision >= 0.9 && recall > 0.5,
        "judged recall {recall:.3}, precision {precision:.3}"
    );
    // Its own estimate of its harvest (mean R) never overstates the truth
    // it cannot see, and falls short of it by what R under-rates: on this
    // leaf the tempered R of a truly relevant crawled page averages about
    // 0.7 (printed above), so the shortfall is a share of the harvest, not
    // a fixed amount (0.306 against 0.400 when the link model could only
    // raise a link, 0.377 against 0.505 with the shortfall rule, 0.396
    // against 0.550 with frontier sweeps, 0.498 against 0.650 at 29af00e:
    // 0.77, 0.75, 0.72 and 0.77 of it;
    // docs/crawl.md: 0.375 against 0.530 over 5,000 pages).
    assert!(
        est <= held_true + 0.05 && est >= 0.6 * held_true,
        "estimated {est:.3}, true {held_true:.3}"
    );
}

/// A program outside the crawl (the benchmark's peer doing our per-page
/// work) trains with [`focus_app::example_classifier`] and reads pages with
/// [`focus_crawl::reading::read_page`]: it must judge a page exactly as the
/// crawl did. Seeds are the pages the crawl judged without citing anchors,
/// as the peer judges every page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_outside_the_crawl_judges_pages_as_the_crawl_did() {
    use focus_core::{Canonicalizer, Relevance};
    use focus_fetch::{Body, ConnectTo, FetchConfig, Fetcher};

    let web = Arc::new(Web::new(WebConfig::default(), 2).unwrap());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (examples, seeds) = user_inputs(&web, tmp.path());
    let out = tmp.path().join("crawl");
    let source = TopicSource::Examples {
        dir: examples.clone(),
        good: vec![GOOD.to_owned()],
        seeds,
    };
    let plan = CrawlPlan {
        connect_to: vec![server.connect_to()],
        max_pages: 20,
        host_interval: Some(std::time::Duration::ZERO),
        ..CrawlPlan::new(source, out.clone())
    };
    run(&plan).await.unwrap();

    let fetcher = Fetcher::new(FetchConfig {
        connect_to: vec![ConnectTo::parse(&server.connect_to()).unwrap()],
        host_interval: std::time::Duration::ZERO,
        ..FetchConfig::default()
    })
    .unwrap();
    let (featurizer, canon) = (focus_crawl::Featurizer::default(), Canonicalizer::default());
    let (taxonomy, classifier) = focus_app::example_classifier(
        &examples,
        &[GOOD.to_owned()],
        Relevance::Tempered,
        &fetcher,
        &featurizer,
        &canon,
    )
    .await
    .unwrap();
    let lines = std::fs::read_to_string(out.join("pages.jsonl")).unwrap();
    let mut compared = 0;
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["depth"] != 0 || v["status"] != 200 {
            continue;
        }
        let url = canon.canonicalize(v["url"].as_str().unwrap()).unwrap();
        let page = fetcher.fetch(&url).await.unwrap();
        let Body::Text(html) = &page.body else {
            panic!("{url} is not text")
        };
        let read = focus_crawl::reading::read_page(
            html,
            &page.final_url,
            &[],
            &featurizer,
            &classifier,
            &canon,
        );
        let recorded = v["relevance"].as_f64().unwrap();
        assert!(
            (read.judgement.relevance - recorded).abs() < 1e-9,
            "{url}: read {} but the crawl recorded {recorded}",
            read.judgement.relevance
        );
        assert_eq!(
            read.judgement.best.map(|b| taxonomy.path(b).to_owned()),
            v["class"].as_str().map(str::to_owned)
        );
        compared += 1;
    }
    server.shutdown().await;
    assert!(compared >= 3, "only {compared} seeds compared");
}

/// A wrong `--out` is refused before the example set is read or fetched
/// (a user's examples may be URLs that take minutes to fetch): with an
/// example folder that does not exist, the error is still about `--out`.
#[tokio::test]
async fn a_wrong_out_is_refused_before_the_examples_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let source = TopicSource::Examples {
        dir: dir.path().join("no-such-examples"),
        good: vec![GOOD.to_owned()],
        seeds: dir.path().join("no-such-seeds.txt"),
    };
    let file = crate::common::a_file(dir.path());
    let held = dir.path().join("held");
    std::fs::create_dir_all(held.join("store")).unwrap();
    for (out, says) in [
        (file.join("crawl"), "is not a folder"),
        (held, "already holds a crawl store"),
    ] {
        let plan = CrawlPlan::new(source.clone(), out.clone());
        let err = run(&plan).await.unwrap_err().to_string();
        assert!(err.contains(says), "--out {}: {err}", out.display());
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}
