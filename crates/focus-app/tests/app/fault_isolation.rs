//! One broken page must not cost a site: a crawl of a small websim whose
//! otherwise healthy hosts have broken pages (500, 503 with Retry-After, a
//! trickling body, a reset connection: `WebConfig::page_faults`), with the
//! budget to fetch everything. Every healthy page the crawl could reach is
//! fetched, every broken one is tried `max_tries` times through the
//! frontier and then abandoned for its cause, and `summary.json`'s counts
//! add up. Then the same crawl is killed (SIGKILL) while retries are
//! pending and resumed: the retried URLs keep their numtries and the crawl
//! ends with the same pages, attempts and outcomes. The crawl runs as a
//! user's would (an example folder, a seed file, `--connect-to`); ground
//! truth is read here only to judge it.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use crate::common::lines;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use focus_app::run;
use focus_cli::{CrawlPlan, TopicSource};
use focus_core::{PageLine, StopReason, Summary};
use focus_websim::{LinkTarget, PageFault, Site, Web, WebConfig};

const GOOD: &str = "recreation/outdoors";

/// A web small enough to crawl out: 800 pages on 25 hosts, no fault
/// hosts (whose calendars never end), one page in ten broken.
fn faulty_web() -> Web {
    let mut c = WebConfig::small();
    c.pages = 800;
    c.hosts = 25;
    c.universal_hosts = 2;
    c.max_host_share = 0.15;
    c.faults = Vec::new();
    c.links.fault_rate = 0.0;
    c.page_faults = 0.1;
    // A trickling page stalls this long, then its connection closes.
    c.stall_ms = 300;
    Web::new(c, 1).unwrap()
}

fn inputs(web: &Web, dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let examples = dir.join("examples");
    web.write_examples(&examples, 8).unwrap();
    let seeds = dir.join("seeds.txt");
    let cycling = web.taxonomy().find(GOOD).unwrap();
    std::fs::write(&seeds, web.seed_urls(cycling, 5).join("\n")).unwrap();
    (examples, seeds)
}

/// Crawls the faulty web into `out` (resuming the crawl stored there when
/// `resume`), with its own loopback server; inputs go to `dir`.
async fn crawl(dir: &Path, out: &Path, resume: bool) -> (Arc<Web>, PathBuf, Summary, u32) {
    let web = Arc::new(faulty_web());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (examples, seeds) = inputs(&web, dir);
    let source = TopicSource::Examples {
        dir: examples,
        good: vec![GOOD.to_owned()],
        seeds: seeds.clone(),
    };
    let plan = CrawlPlan {
        connect_to: vec![server.connect_to()],
        max_pages: 4_000,
        host_interval: Some(Duration::ZERO),
        resume,
        ..CrawlPlan::new(source, out.to_path_buf())
    };
    let summary = run(&plan).await.unwrap();
    server.shutdown().await;
    (web, seeds, summary, plan.max_tries)
}

/// Each URL's attempts and the outcome of its last one.
fn attempts_and_outcome(lines: &[PageLine]) -> BTreeMap<String, (u32, Option<String>)> {
    let mut out = BTreeMap::new();
    for l in lines {
        out.insert(l.url.clone(), (l.attempt, l.error.clone()));
    }
    out
}

const CHILD_ENV: &str = "FOCUS_FAULT_ISOLATION_CHILD";

/// Only does something when re-executed by the kill test: crawls into the
/// folder the variable names until it is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_child() {
    if let Ok(dir) = std::env::var(CHILD_ENV) {
        let dir = PathBuf::from(dir);
        crawl(&dir.join("inputs"), &dir.join("crawl"), false).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_pages_cost_their_own_retries_and_never_their_host() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("crawl");
    let (web, seeds, summary, max_tries) = crawl(tmp.path(), &out, false).await;
    let lines = lines(&out);

    // The crawl had the budget: it ended because nothing was left.
    assert_eq!(summary.stopped_because, StopReason::FrontierEmpty);
    assert_eq!(lines.len() as u64, summary.pages_fetched);

    // Every attempt is counted by outcome, and the counts are the lines'.
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    for l in &lines {
        *outcomes
            .entry(l.error.clone().unwrap_or_else(|| "ok".into()))
            .or_default() += 1;
    }
    assert_eq!(summary.attempts_by_outcome, outcomes);
    assert_eq!(
        summary.attempts_by_outcome.values().sum::<u64>(),
        summary.pages_fetched
    );
    // Every URL's last line is final; the attempts before it were retries.
    let mut last: HashMap<&str, &PageLine> = HashMap::new();
    let mut attempts: HashMap<&str, u32> = HashMap::new();
    for l in &lines {
        if let Some(prev) = last.insert(l.url.as_str(), l) {
            assert!(
                prev.retry,
                "{} was tried again after a final attempt",
                l.url
            );
        }
        let n = attempts.entry(l.url.as_str()).or_default();
        *n += 1;
        assert_eq!(l.attempt, *n, "{} numbers its attempts", l.url);
    }
    let mut abandoned: BTreeMap<String, u64> = BTreeMap::new();
    for l in last.values() {
        assert!(!l.retry, "{} is still waiting for a retry", l.url);
        if let Some(e) = &l.error {
            *abandoned.entry(e.clone()).or_default() += 1;
        }
    }
    assert_eq!(summary.abandoned_by_cause, abandoned);
    assert_eq!(
        summary.retried_attempts,
        lines.iter().filter(|l| l.retry).count() as u64
    );

    // Broken pages: tried max_tries times through the frontier, then
    // abandoned for their own cause; healthy pages: fetched (or refused by
    // robots.txt), whatever their host's broken pages did.
    let mut broken_tried = 0;
    for (url, l) in &last {
        match web.page_fault(url) {
            // robots.txt forbade it: no request was sent.
            Some(_) if l.error.as_deref() == Some("robots_disallowed") => {}
            Some(kind) => {
                broken_tried += 1;
                assert_eq!(attempts[url], max_tries, "{url} ({kind:?})");
                let cause = l.error.as_deref().unwrap_or("ok");
                let expected = match kind {
                    PageFault::ServerError => cause == "status_500",
                    PageFault::Unavailable => cause == "status_503",
                    PageFault::Trickle | PageFault::Reset => {
                        cause == "protocol_error" || cause.starts_with("timeout_")
                    }
                };
                assert!(expected, "{url} ({kind:?}) abandoned as {cause}");
            }
            None => assert!(
                l.error.is_none() || l.error.as_deref() == Some("robots_disallowed"),
                "healthy page {url} ended as {:?} after {} attempts",
                l.error,
                attempts[url]
            ),
        }
    }
    assert!(broken_tried >= 15, "only {broken_tried} broken pages met");
    assert!(!outcomes.contains_key("host_bad"));

    // Nothing the crawl could reach was left: every page reachable from the
    // seeds through pages it fetched whole is in pages.jsonl.
    let fetched_whole: HashSet<u32> = last
        .values()
        .filter(|l| l.error.is_none() && l.duplicate.is_none())
        .filter_map(|l| web.page_id(&l.url))
        .collect();
    let seen: HashSet<u32> = last.keys().filter_map(|u| web.page_id(u)).collect();
    let mut queue: VecDeque<u32> = std::fs::read_to_string(&seeds)
        .unwrap()
        .lines()
        .filter_map(|u| web.page_id(u))
        .collect();
    let mut reached: HashSet<u32> = queue.iter().copied().collect();
    while let Some(p) = queue.pop_front() {
        assert!(seen.contains(&p), "{:?} was reachable", web.page_url(p));
        if !fetched_whole.contains(&p) {
            continue;
        }
        for link in web.out_links(p) {
            if let LinkTarget::Page(q) = link.target {
                if reached.insert(q) {
                    queue.push_back(q);
                }
            }
        }
    }
    assert!(reached.len() > 500, "reached only {}", reached.len());
    // A broken page's host lost only that page: its other pages came in.
    let hosts_with_broken: HashSet<&str> = last
        .keys()
        .filter(|u| web.page_fault(u).is_some())
        .filter_map(|u| u.split('/').nth(2))
        .collect();
    assert!(hosts_with_broken.len() >= 8, "{hosts_with_broken:?}");
    for host in &hosts_with_broken {
        let ok = last
            .iter()
            .filter(|(u, l)| u.split('/').nth(2) == Some(*host) && l.error.is_none())
            .count();
        assert!(ok >= 1, "{host} gave no page");
    }

    // Killed while retries are pending, then resumed: the same crawl.
    let killed = tmp.path().join("killed");
    let lines_of =
        |dir: &Path| std::fs::read_to_string(dir.join("crawl/pages.jsonl")).unwrap_or_default();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "fault_isolation::crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, &killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let text = lines_of(&killed);
        if text.lines().count() >= 300 && text.contains(r#""retry":true"#) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the child crawl made no progress"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the child crawl ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // The store keeps the pending retries with their numtries.
    let pending: Vec<(String, u32)> = {
        let store = focus_store::Store::open(&killed.join("crawl/store")).unwrap();
        store
            .queued()
            .map(Result::unwrap)
            .filter(|q| q.numtries > 0)
            .map(|q| (q.url, q.numtries))
            .collect()
    };
    assert!(!pending.is_empty(), "no retry was pending at the kill");
    let (_, _, resumed, _) = crawl(&killed.join("inputs"), &killed.join("crawl"), true).await;
    assert_eq!(resumed.stopped_because, StopReason::FrontierEmpty);
    let after = self::lines(&killed.join("crawl"));
    let mut tries: HashMap<&str, u32> = HashMap::new();
    for l in &after {
        let n = tries.entry(l.url.as_str()).or_default();
        *n += 1;
        assert_eq!(
            l.attempt,
            *n,
            "{} numbers its attempts across the kill: {:?}",
            l.url,
            after.iter().filter(|x| x.url == l.url).collect::<Vec<_>>()
        );
    }
    for (url, numtries) in &pending {
        let n = tries[url.as_str()];
        assert!(
            n > *numtries && n <= max_tries,
            "{url}: {numtries} tries before the kill, {n} in all"
        );
    }
    assert_eq!(
        attempts_and_outcome(&after),
        attempts_and_outcome(&lines),
        "the resumed crawl fetched the same pages with the same attempts and outcomes"
    );
    assert_eq!(resumed.attempts_by_outcome, summary.attempts_by_outcome);
    assert_eq!(resumed.abandoned_by_cause, summary.abandoned_by_cause);
}
