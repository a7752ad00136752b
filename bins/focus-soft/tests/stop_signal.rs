//! `focus-soft` stopped by SIGTERM (what `kill`, `timeout` and service
//! managers send) finishes its batch and writes its outputs, as Ctrl-C
//! does, instead of dying with `summary.json` unwritten.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

#[test]
fn sigterm_stops_the_crawl_between_batches_with_its_outputs_written() {
    let out = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_focus-soft"))
        .args(["--websim-pages", "20000", "--max-pages", "1000000", "--out"])
        .arg(out.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pages = out.path().join("pages.jsonl");
    let deadline = Instant::now() + Duration::from_secs(300);
    // Well into the crawl, so its signal handler is listening.
    while lines(&pages) < 100 {
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the crawl did not reach 100 pages");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = Pid::from_child(&child);
    kill_process(pid, Signal::TERM).unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the crawl did not stop after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["stopped_because"], "interrupted");
    let fetched = summary["pages_fetched"].as_u64().unwrap();
    assert!((100..1_000_000).contains(&fetched), "{fetched}");
    // Every fetch made is in pages.jsonl, whole.
    assert_eq!(lines(&pages) as u64, fetched);
}
