//! A stop asked for during an evaluation's crawls (Ctrl-C, SIGTERM,
//! `focus_app::request_stop`) ends it without a report or saved scores:
//! they would pass the crawl cut short for a finished one. In its own test
//! binary: the request is for the whole process and never reset.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use focus_app::{request_stop, AppError};
use focus_experiments::eval::crawls::{default_categories, Crawler, EvalConfig};
use focus_websim::{write_labelled_folder, Corpus, Web, WebConfig};

/// Every file named `name` under `dir`.
fn files_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_named(&path, name));
        } else if path.file_name().is_some_and(|n| n == name) {
            found.push(path);
        }
    }
    found
}

/// Complete lines in `path` so far.
fn complete_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.matches('\n').count())
}

#[test]
fn a_stop_during_the_crawls_writes_no_report() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus_dir = tmp.path().join("deadweb");
    let web = Web::new(WebConfig::small().with_pages(3_000).with_dead_links(50), 5).unwrap();
    write_labelled_folder(&web, &corpus_dir).unwrap();
    let corpus = Corpus::load(&corpus_dir).unwrap();
    let (out, work) = (tmp.path().join("results"), tmp.path().join("work"));
    let cfg = EvalConfig {
        corpus: corpus_dir,
        out: out.clone(),
        work: work.clone(),
        seed: 1,
        pages: 2_000,
        reference: None,
        crawlers: vec![Crawler::Soft, Crawler::BreadthFirst],
        categories: default_categories(&corpus)[..1].to_vec(),
        distill_every: Some(50),
    };
    let eval = std::thread::spawn(move || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
            .block_on(focus_experiments::eval::crawl_report(&cfg))
    });

    let deadline = Instant::now() + Duration::from_secs(300);
    while files_named(&work, "pages.jsonl")
        .iter()
        .all(|p| complete_lines(p) < 30)
    {
        assert!(!eval.is_finished(), "the evaluation ended before the stop");
        assert!(Instant::now() < deadline, "no crawl of 30 pages in 300 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(request_stop());

    match eval.join().unwrap() {
        Err(AppError::Stopped(why)) => assert!(why.contains("not"), "{why}"),
        other => panic!("expected a stop, got {:?}", other.map(|md| md.len())),
    }
    assert!(
        files_named(&out, "deadweb.md").is_empty() && files_named(&out, "mean-hub.svg").is_empty(),
        "no report"
    );
    assert!(
        files_named(&work, "scores.jsonl").is_empty(),
        "no saved scores"
    );
    let interrupted = files_named(&work, "summary.json")
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|s| s.contains("\"stopped_because\": \"interrupted\""))
        })
        .count();
    assert!(
        interrupted >= 1,
        "the crawl running at the stop was cut short"
    );
}
