//! `--flow stream` end to end, on the embedded websim answering after a
//! latency (`--websim-latency`) over real loopback HTTP: the crawl keeps
//! its slots full, spends its budget exactly, stores every page it
//! fetched even when stopped mid-flight, resumes, and stays focused.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use focus_app::run;
use focus_cli::{CrawlPlan, Crawler, Strategy, TopicSource};
use focus_core::{Flow, StopReason};

use crate::common::urls;

/// A stream crawl by `crawler` of the default websim whose answers take a
/// few milliseconds (median 5 ms), stopped after `pages`.
fn plan(out: &Path, pages: u64, crawler: Crawler) -> CrawlPlan {
    let source = TopicSource::Websim {
        good: vec![],
        seeds: None,
        pages: None,
        dead_links: None,
        page_faults: None,
        latency_ms: Some(5),
    };
    CrawlPlan {
        max_pages: pages,
        concurrency: 8,
        flow: Flow::Stream,
        strategy: Strategy::of(crawler),
        ..CrawlPlan::new(source, out.to_path_buf())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_crawl_spends_its_budget_stays_focused_and_resumes_a_stop() {
    let dir = tempfile::tempdir().unwrap();
    let soft = dir.path().join("soft");
    let s = run(&plan(&soft, 200, Crawler::SOFT)).await.unwrap();
    assert_eq!(s.pages_fetched, 200);
    assert_eq!(s.stopped_because, StopReason::MaxPages);
    let fetched = urls(&soft);
    assert_eq!(
        fetched.len(),
        200,
        "one line per fetch, none left in flight"
    );
    assert_eq!(fetched.iter().collect::<HashSet<_>>().len(), 200);
    let bfs = run(&plan(&dir.path().join("bfs"), 200, Crawler::BreadthFirst))
        .await
        .unwrap();
    let (soft_h, bfs_h) = (s.harvest_rate_true.unwrap(), bfs.harvest_rate_true.unwrap());
    assert!(
        soft_h > bfs_h + 0.3,
        "soft {soft_h} against breadth-first {bfs_h}"
    );

    // A stop (here the time limit) stops popping; the pages in flight are
    // applied, so every fetch made is stored and written, and resume goes
    // on without fetching a page twice. Where a limit falls depends on the
    // machine, so try a few until one stops the crawl part-way.
    let mut stopped_part_way = false;
    for (i, ms) in [200, 60, 600, 20, 2000].into_iter().enumerate() {
        let out = dir.path().join(format!("limited-{i}"));
        let mut limited = plan(&out, 200, Crawler::SOFT);
        limited.time_limit = Some(Duration::from_millis(ms));
        let l = run(&limited).await.unwrap();
        if l.pages_fetched == 0 || l.pages_fetched >= 200 {
            continue;
        }
        assert_eq!(l.stopped_because, StopReason::TimeLimit);
        assert_eq!(urls(&out).len() as u64, l.pages_fetched);
        let mut resumed = plan(&out, 200, Crawler::SOFT);
        resumed.resume = true;
        let r = run(&resumed).await.unwrap();
        assert_eq!(r.pages_fetched, 200);
        let all = urls(&out);
        assert_eq!(all.len(), 200);
        assert_eq!(
            all.iter().collect::<HashSet<_>>().len(),
            200,
            "resume never refetches a stored page"
        );
        stopped_part_way = true;
        break;
    }
    assert!(stopped_part_way, "no time limit stopped the crawl part-way");
}
