//! A real web server judges the crawler: nginx, started by the test on
//! 127.0.0.1 with a generated config, serves a generated two-site web —
//! `good.test` (cycling) with a page that always fails, a redirect loop, a
//! moved page, a page over the size cap, a page trickling at 1 KB/s, a
//! gzip-encoded page and a robots.txt-disallowed folder, and `other.test`
//! (cooking) — and `focus_app::run` crawls it through a `--connect-to`
//! rule until the frontier is empty.
//!
//! The issue it accepts is "one broken page must not cost a site": every
//! healthy page of both hosts must still be fetched, each fault must end as
//! its own outcome after a bounded number of tries, and the crawl's
//! records must add up. What the crawler did is read from nginx's own
//! access log (what was requested, answered how, lasting how long), not
//! from the crawler's account of itself, and then checked against the
//! crawl's `pages.jsonl` and `summary.json`. Our websim cannot be the
//! judge here: it is written by the same hands as the crawler.
//!
//! Skipped (with `skipped: nginx not installed`) when nginx is missing,
//! unless `FOCUS_REQUIRE_NGINX` is set, as `.ci/run` does.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use focus_app::run;
use focus_cli::{CrawlPlan, TopicSource};
use focus_core::StopReason;
use focus_fetch::FetchConfig;
use serde_json::Value;

use crate::nginx::http::request;
use crate::nginx::server::{nginx_binary, Hit, Nginx};
use crate::nginx::site::{
    write_inputs, write_site, Site, BEHIND, BIG, BIG_BYTES, BROKEN, CYCLING, GOOD, LOOP_A, LOOP_B,
    MOVED, OTHER, PRIVATE, SLOW, TARGET, ZIPPED,
};

/// Large enough for every URL of the web and its retries: the crawl must
/// end because the frontier is empty, not on this budget.
const MAX_PAGES: u64 = 400;

/// A bound on the whole crawl, so a hang fails the test instead of CI.
const CRAWL_TIMEOUT: Duration = Duration::from_secs(120);

fn good_url(path: &str) -> String {
    format!("http://{GOOD}{path}")
}

/// nginx alone, without the crawler: each fault of the generated web is
/// what the crawl test takes it to be. Uses only tokio TCP, so it runs
/// whatever state the fetcher is in.
#[tokio::test]
async fn nginx_serves_the_generated_web_with_its_faults() {
    let Some(bin) = nginx_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let site = write_site(&tmp.path().join("www"));
    let mut server = Nginx::start(&bin, tmp.path(), &site);
    let port = server.port();
    let quick = Duration::from_secs(3);
    let get = |host: &'static str, path: &'static str| request(port, "GET", host, path, &[], quick);

    let index = get(GOOD, "/").await;
    assert_eq!(index.status, 200);
    assert!(
        index.text().contains("href=\"/s/1.html\""),
        "{}",
        index.text()
    );
    eprintln!("GET {GOOD}/ -> {}", index.status);

    let broken = get(GOOD, BROKEN).await;
    assert_eq!(broken.status, 500);
    eprintln!("GET {GOOD}{BROKEN} -> {}", broken.status);

    for (from, to) in [(LOOP_A, LOOP_B), (LOOP_B, LOOP_A)] {
        let r = request(port, "GET", GOOD, from, &[], quick).await;
        assert_eq!(r.status, 302);
        assert_eq!(r.header("location"), Some(good_url(to).as_str()));
        eprintln!(
            "GET {GOOD}{from} -> {} to {:?}",
            r.status,
            r.header("location")
        );
    }

    let moved = get(GOOD, MOVED).await;
    assert_eq!(moved.status, 301);
    assert_eq!(moved.header("location"), Some(good_url(TARGET).as_str()));
    let target = get(GOOD, TARGET).await;
    assert_eq!(target.status, 200);
    assert!(target.text().contains(&format!("href=\"{BEHIND}\"")));
    eprintln!(
        "GET {GOOD}{MOVED} -> {} to {:?}; {TARGET} -> {} linking {BEHIND}",
        moved.status,
        moved.header("location"),
        target.status
    );

    let robots = get(GOOD, "/robots.txt").await;
    assert_eq!(robots.status, 200);
    assert!(robots.text().contains("Disallow: /private/"));
    let private = get(GOOD, PRIVATE[0]).await;
    assert_eq!(
        private.status, 200,
        "the private page exists: only robots.txt keeps a crawler out"
    );
    eprintln!(
        "GET {GOOD}/robots.txt -> {} {:?}; {} -> {}",
        robots.status,
        robots.text(),
        PRIVATE[0],
        private.status
    );

    let zipped = request(port, "GET", GOOD, ZIPPED, &["Accept-Encoding: gzip"], quick).await;
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    assert_eq!(
        zipped.body.get(..2),
        Some(&[0x1f, 0x8b][..]),
        "a gzip stream"
    );
    let plain = get(GOOD, ZIPPED).await;
    assert_eq!(plain.header("content-encoding"), None);
    eprintln!(
        "GET {GOOD}{ZIPPED} with Accept-Encoding: gzip -> {} {:?}, {} bytes (plain: {} bytes)",
        zipped.status,
        zipped.header("content-encoding"),
        zipped.body.len(),
        plain.body.len()
    );

    let big = request(port, "HEAD", GOOD, BIG, &[], quick).await;
    let length: usize = big.header("content-length").unwrap().parse().unwrap();
    assert_eq!(big.status, 200);
    assert!(length >= BIG_BYTES && length > FetchConfig::default().max_html_bytes);
    eprintln!("HEAD {GOOD}{BIG} -> {} Content-Length {length}", big.status);

    let slow = request(port, "GET", GOOD, SLOW, &[], Duration::from_secs(2)).await;
    let declared: usize = slow.header("content-length").unwrap().parse().unwrap();
    assert_eq!(slow.status, 200);
    assert!(
        !slow.complete && slow.body.len() < 5 * 1024,
        "{} of {declared} bytes in 2 s",
        slow.body.len()
    );
    eprintln!(
        "GET {GOOD}{SLOW} -> {}: {} of {declared} bytes in 2 s",
        slow.status,
        slow.body.len()
    );

    let other = get(OTHER, "/").await;
    assert_eq!(other.status, 200);
    assert!(other.text().contains("href=\"/r/1.html\""));
    let not_there = get(OTHER, "/p/1.html").await;
    assert_eq!(not_there.status, 404, "each host has its own root");
    eprintln!(
        "GET {OTHER}/ -> {}; {OTHER}/p/1.html -> {}",
        other.status, not_there.status
    );

    // The access log has a line for each of those, in the parsed format.
    let hits = server.access_log();
    server.stop();
    let status_of = |host: &str, uri: &str| -> Vec<u16> {
        hits.iter()
            .filter(|h| h.host == host && h.uri == uri)
            .map(|h| h.status)
            .collect()
    };
    assert_eq!(status_of(GOOD, BROKEN), [500]);
    assert_eq!(status_of(GOOD, LOOP_A), [302]);
    assert_eq!(status_of(GOOD, MOVED), [301]);
    assert_eq!(status_of(GOOD, "/robots.txt"), [200]);
    assert_eq!(status_of(OTHER, "/p/1.html"), [404]);
    let zipped: Vec<&Hit> = hits.iter().filter(|h| h.uri == ZIPPED).collect();
    assert_eq!(zipped.len(), 2);
    assert_eq!(zipped[0].encoding.as_deref(), Some("gzip"));
    assert_eq!(zipped[1].encoding, None);
    let slow = hits
        .iter()
        .find(|h| h.uri == SLOW)
        .expect("the slow request is logged when the client hangs up");
    assert!(
        slow.seconds >= 1.5 && slow.seconds < 10.0 && slow.bytes_sent < 8 * 1024,
        "{slow:?}"
    );
    assert!(hits.iter().all(|h| h.at > 1e9 && !h.method.is_empty()));
    eprintln!("access log: {} lines; slow request {slow:?}", hits.len());
}

/// The crawl of the generated web, judged by nginx's access log and the
/// crawl's own output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_broken_page_does_not_cost_a_site() {
    let Some(bin) = nginx_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let site = write_site(&tmp.path().join("www"));
    let (examples, seeds) = write_inputs(tmp.path());
    let out = tmp.path().join("out");
    let mut server = Nginx::start(&bin, tmp.path(), &site);

    let source = TopicSource::Examples {
        dir: examples,
        good: vec![CYCLING.to_owned()],
        seeds,
    };
    let plan = CrawlPlan {
        connect_to: vec![server.connect_to()],
        max_pages: MAX_PAGES,
        host_interval: Some(Duration::from_millis(20)),
        ..CrawlPlan::new(source, out.clone())
    };
    let summary = tokio::time::timeout(CRAWL_TIMEOUT, run(&plan))
        .await
        .unwrap_or_else(|_| panic!("the crawl did not end within {CRAWL_TIMEOUT:?}"))
        .unwrap();
    let hits = server.access_log();
    server.stop();
    let lines = read_pages(&out.join("pages.jsonl"));
    let summary_json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    for l in &lines {
        *outcomes.entry(outcome(l)).or_default() += 1;
    }
    eprintln!(
        "{} attempts in {:.1} s ({outcomes:?}), {} requests to nginx; stopped because {}",
        lines.len(),
        summary.elapsed_s,
        hits.len(),
        summary.stopped_because
    );

    assert_eq!(summary.stopped_because, StopReason::FrontierEmpty);
    no_page_is_a_duplicate(&lines);
    every_healthy_page_answered_200(&site, &hits);
    robots_txt_obeyed(&hits, &lines, &summary_json, &site);
    slow_body_cut_in_time(&hits);
    broken_page_retried_without_writing_off_its_host(&hits, &lines, plan.max_tries);
    attempts_add_up(&lines, &summary_json, summary.pages_fetched);
    redirect_followed_and_expanded(&lines);
    faults_end_as_their_outcomes(&hits, &lines);
}

/// `pages.jsonl`, one JSON value per line.
fn read_pages(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A line's outcome: `ok` when `error` is null, else the error label.
fn outcome(line: &Value) -> String {
    line["error"].as_str().unwrap_or("ok").to_owned()
}

/// The last line of each URL: where the crawl left it.
fn final_lines(lines: &[Value]) -> BTreeMap<String, &Value> {
    lines
        .iter()
        .map(|l| (l["url"].as_str().unwrap().to_owned(), l))
        .collect()
}

fn final_line<'a>(lines: &'a [Value], url: &str) -> &'a Value {
    lines
        .iter()
        .rev()
        .find(|l| l["url"] == url)
        .unwrap_or_else(|| panic!("no line for {url} in pages.jsonl"))
}

/// The generated pages are all distinct: a page the crawl took for a
/// duplicate would not be expanded, and the pages behind it would be
/// missed for a reason that is the generator's, not the crawler's.
fn no_page_is_a_duplicate(lines: &[Value]) {
    let duplicates: Vec<&Value> = lines.iter().filter(|l| !l["duplicate"].is_null()).collect();
    assert!(
        duplicates.is_empty(),
        "generated pages taken for duplicates: {duplicates:?}"
    );
}

/// 1. Every healthy page of both hosts — those reachable only through the
///    redirect and the gzip-encoded one included — was requested and
///    answered 200.
fn every_healthy_page_answered_200(site: &Site, hits: &[Hit]) {
    let missing: Vec<String> = site
        .healthy
        .iter()
        .filter(|(host, path)| {
            !hits
                .iter()
                .any(|h| h.host == *host && h.uri == *path && h.status == 200)
        })
        .map(|(host, path)| format!("{host}{path}"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} healthy pages never answered 200: {missing:?}",
        missing.len(),
        site.healthy.len()
    );
}

/// 2. robots.txt was asked for, and nothing under `/private/` ever was.
///    `good.test`'s robots.txt is fetched before its first page, so every
///    link to a disallowed page is met with the rules known: it is left out
///    and counted, and spends no attempt of the budget.
fn robots_txt_obeyed(hits: &[Hit], lines: &[Value], summary: &Value, site: &Site) {
    assert!(
        hits.iter()
            .any(|h| h.host == GOOD && h.uri == "/robots.txt" && h.status == 200),
        "robots.txt of {GOOD} never fetched"
    );
    let private: Vec<&Hit> = hits
        .iter()
        .filter(|h| h.uri.starts_with("/private/"))
        .collect();
    assert!(
        private.is_empty(),
        "disallowed paths requested: {private:?}"
    );
    for path in PRIVATE {
        let url = good_url(path);
        assert!(
            !lines.iter().any(|l| l["url"] == url.as_str()),
            "{path} was queued and attempted though robots.txt was known"
        );
    }
    assert!(site.private_links >= 2, "the site links its private pages");
    assert_eq!(
        summary["robots_refused_links"], site.private_links,
        "every link to a disallowed page is left out and counted"
    );
}

/// 3. The 1 KB/s body was cut once it fell below the fetcher's minimum
///    rate: no request for it lasted much longer than the rate window,
///    and none came near the total timeout.
fn slow_body_cut_in_time(hits: &[Hit]) {
    let cfg = FetchConfig::default();
    let limit = cfg.min_rate_window + Duration::from_secs(3);
    assert!(
        limit < cfg.total_timeout / 2,
        "the rate cut-off ({limit:?}) must be well below the total timeout ({:?})",
        cfg.total_timeout
    );
    let slow: Vec<&Hit> = hits.iter().filter(|h| h.uri == SLOW).collect();
    assert!(!slow.is_empty(), "{SLOW} never requested");
    for h in &slow {
        assert!(
            Duration::from_secs_f64(h.seconds) <= limit,
            "{SLOW} held for {:.1} s, more than the {:?} window ({} B/s) + 3 s: {h:?}",
            h.seconds,
            cfg.min_rate_window,
            cfg.min_rate_bytes_per_s
        );
    }
}

/// 4. The page that always fails was tried again (through the frontier),
///    but at most `max_tries` times; its host was not written off: healthy
///    pages of the host were still fetched after its first failure, and no
///    attempt was refused as `host_bad`.
fn broken_page_retried_without_writing_off_its_host(hits: &[Hit], lines: &[Value], max_tries: u32) {
    let broken: Vec<&Hit> = hits
        .iter()
        .filter(|h| h.host == GOOD && h.uri == BROKEN)
        .collect();
    assert!(
        broken.len() >= 2 && broken.len() <= max_tries as usize,
        "{BROKEN} requested {} times; expected 2..={max_tries}",
        broken.len()
    );
    assert!(broken.iter().all(|h| h.status == 500), "{broken:?}");
    let first_failure = broken.iter().map(|h| h.at).fold(f64::INFINITY, f64::min);
    let after = hits
        .iter()
        .filter(|h| h.host == GOOD && h.status == 200 && h.at > first_failure)
        .count();
    assert!(
        after > 0,
        "no healthy page of {GOOD} was fetched after {BROKEN} first failed"
    );
    let host_bad: Vec<&str> = lines
        .iter()
        .filter(|l| outcome(l) == "host_bad")
        .map(|l| l["url"].as_str().unwrap_or_default())
        .collect();
    assert!(
        host_bad.is_empty(),
        "URLs refused as host_bad: {host_bad:?}"
    );
}

/// 5. Every URL's last line is final (no `retry: true`); the summary's
///    `attempts_by_outcome` sums to `pages_fetched` and is exactly
///    `pages.jsonl` grouped by outcome; `abandoned_by_cause` gives up on
///    the one always-failing URL.
fn attempts_add_up(lines: &[Value], summary: &Value, pages_fetched: u64) {
    let unfinished: Vec<String> = final_lines(lines)
        .into_iter()
        .filter(|(_, l)| l["retry"].as_bool().unwrap_or(false))
        .map(|(url, _)| url)
        .collect();
    assert!(
        unfinished.is_empty(),
        "URLs whose last line still waits for a retry: {unfinished:?}"
    );

    assert_eq!(lines.len() as u64, pages_fetched);
    assert_eq!(summary["pages_fetched"].as_u64(), Some(pages_fetched));
    let mut counted: BTreeMap<String, u64> = BTreeMap::new();
    for l in lines {
        *counted.entry(outcome(l)).or_default() += 1;
    }
    let reported: BTreeMap<String, u64> = summary["attempts_by_outcome"]
        .as_object()
        .unwrap_or_else(|| panic!("summary.json has no attempts_by_outcome: {summary}"))
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(
        reported.values().sum::<u64>(),
        pages_fetched,
        "{reported:?}"
    );
    assert_eq!(reported, counted, "attempts_by_outcome against pages.jsonl");

    let abandoned = &summary["abandoned_by_cause"];
    assert_eq!(
        abandoned["status_500"].as_u64(),
        Some(1),
        "abandoned_by_cause: {abandoned}"
    );
}

/// 6. The moved page's line names where the redirect ended, and that
///    page's links were followed.
fn redirect_followed_and_expanded(lines: &[Value]) {
    let moved = good_url(MOVED);
    let target = good_url(TARGET);
    assert!(
        lines
            .iter()
            .any(|l| l["url"] == moved.as_str() && l["final_url"] == target.as_str()),
        "no line with url {moved} and final_url {target}: {:?}",
        lines
            .iter()
            .filter(|l| l["url"] == moved.as_str())
            .collect::<Vec<_>>()
    );
    assert_eq!(outcome(final_line(lines, &good_url(BEHIND))), "ok");
}

/// 7. Each fault ends as its own outcome; the gzip-encoded page is fine,
///    and nginx did send it gzip-encoded.
fn faults_end_as_their_outcomes(hits: &[Hit], lines: &[Value]) {
    for (path, label) in [
        (BIG, "too_large"),
        (LOOP_A, "redirect_loop"),
        (SLOW, "timeout_slow"),
        (BROKEN, "status_500"),
        (ZIPPED, "ok"),
    ] {
        assert_eq!(outcome(final_line(lines, &good_url(path))), label, "{path}");
    }
    assert_eq!(final_line(lines, &good_url(ZIPPED))["status"], 200);
    assert!(
        hits.iter()
            .any(|h| h.uri == ZIPPED && h.status == 200 && h.encoding.as_deref() == Some("gzip")),
        "{ZIPPED} was never sent gzip-encoded"
    );
}
