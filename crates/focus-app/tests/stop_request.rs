//! A stop request is for the whole process: asked for during BINGO!'s
//! learning phase, that crawl finishes its batch and writes its outputs,
//! the harvesting phase does not start, and no later crawl of the process
//! starts either. In its own test binary: the request is never reset.

use std::path::Path;
use std::time::{Duration, Instant};

use clap::Parser;
use focus_app::{request_stop, run, run_bingo, stop_requested, AppError};
use focus_cli::{BingoArgs, CrawlPlan};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: BingoArgs,
}

/// Complete lines in `path` so far (0 if it is not there yet).
fn complete_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.matches('\n').count())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_stop_ends_the_running_crawl_cleanly_and_starts_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bingo");
    let out_arg = out.to_string_lossy().into_owned();
    let plan = Cli::parse_from([
        "bingo",
        "--out",
        &out_arg,
        "--websim-pages",
        "20000",
        "--good",
        "recreation/outdoors/cycling",
        "--max-pages",
        "40000",
        "--learning-pages",
        "20000",
    ])
    .args
    .plan()
    .unwrap();
    // After the stop: a plain crawl of the same web into its own folder.
    let later = dir.path().join("later");
    let later_plan = CrawlPlan {
        out: later.clone(),
        ..plan.crawl.clone()
    };
    // On a thread of its own: the test watches its output meanwhile.
    let bingo = std::thread::spawn(move || runtime().block_on(run_bingo(&plan)));

    let pages = out.join("learning").join("pages.jsonl");
    let deadline = Instant::now() + Duration::from_secs(300);
    while complete_lines(&pages) < 50 {
        assert!(
            !bingo.is_finished(),
            "the learning phase ended before the stop"
        );
        assert!(Instant::now() < deadline, "no 50 learning pages in 300 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(request_stop(), "the first request");
    assert!(stop_requested());

    match bingo.join().unwrap() {
        Err(AppError::Stopped(why)) => assert!(why.contains("harvesting phase was not started")),
        other => panic!("expected a stop, got {:?}", other.map(|o| o.learning)),
    }
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("learning").join("summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["stopped_because"], "interrupted");
    let fetched = summary["pages_fetched"].as_u64().unwrap();
    assert!(
        (50..20_000).contains(&fetched),
        "cut short after its batch: {fetched} pages"
    );
    let attempts: u64 = summary["attempts_by_outcome"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(
        complete_lines(&pages) as u64,
        attempts,
        "pages.jsonl written out: a line per attempt"
    );
    assert!(
        !out.join("harvesting").exists(),
        "the harvest did not start"
    );

    // A later crawl of the same process refuses to start, before it makes
    // its output directory.
    match runtime().block_on(run(&later_plan)) {
        Err(AppError::Stopped(why)) => assert!(why.contains("not started"), "{why}"),
        other => panic!(
            "expected a refusal, got {:?}",
            other.map(|s| s.pages_fetched)
        ),
    }
    assert!(
        !later.exists(),
        "nothing written for a crawl that did not start"
    );
}
