//! `focus-soft` stopped by SIGTERM (what `kill`, `timeout` and service
//! managers send) finishes its batch and writes its outputs, as Ctrl-C
//! does, instead of dying with `summary.json` unwritten; a second signal
//! stops it at once, even in a batch that waits on a server that never
//! answers.
#![cfg(unix)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
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
    poll(
        &mut child,
        deadline,
        "the crawl did not reach 100 pages",
        |c| {
            assert!(c.try_wait().unwrap().is_none(), "the crawl ended early");
            (lines(&pages) >= 100).then_some(())
        },
    );
    kill_process(Pid::from_child(&child), Signal::TERM).unwrap();
    let status = poll(&mut child, deadline, "the crawl did not stop", |c| {
        c.try_wait().unwrap()
    });
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

/// Polls `ready` until it gives a value; past `deadline`, kills the child
/// and fails with `what`.
fn poll<T>(
    child: &mut Child,
    deadline: Instant,
    what: &str,
    mut ready: impl FnMut(&mut Child) -> Option<T>,
) -> T {
    loop {
        if let Some(value) = ready(child) {
            return value;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_second_signal_stops_a_crawl_whose_batch_waits_on_a_silent_server() {
    // A server on 127.0.0.1 that accepts connections and never answers:
    // the crawl's first batch (robots.txt, then the seed) waits on it.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (accepted, first_accept) = mpsc::channel();
    std::thread::spawn(move || {
        let mut open = Vec::new();
        for stream in listener.incoming().flatten() {
            open.push(stream);
            let _ = accepted.send(());
        }
    });
    let dir = tempfile::tempdir().unwrap();
    for (topic, text) in [
        ("cycling", "bicycle saddle gears chain road race tour pedal"),
        ("cooking", "recipe oven flour butter sugar bake kitchen"),
    ] {
        let folder = dir.path().join("examples").join(topic);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("a.txt"), text).unwrap();
    }
    let seeds = dir.path().join("seeds.txt");
    std::fs::write(&seeds, "http://silent.test/\n").unwrap();
    let log = dir.path().join("stderr.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_focus-soft"))
        .arg("--examples")
        .arg(dir.path().join("examples"))
        .args(["--good", "cycling", "--seeds"])
        .arg(&seeds)
        .args(["--connect-to", &format!("::127.0.0.1:{port}"), "--out"])
        .arg(dir.path().join("out"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    if first_accept.recv_timeout(Duration::from_secs(60)).is_err() {
        let _ = child.kill();
        panic!("the crawl never connected");
    }
    let pid = Pid::from_child(&child);
    kill_process(pid, Signal::TERM).unwrap();
    // The first signal is handled (signals of one kind arriving before the
    // crawl has seen the first would count once), and the batch still waits.
    poll(
        &mut child,
        deadline,
        "the first signal was not handled",
        |c| {
            assert!(c.try_wait().unwrap().is_none(), "the batch did not wait");
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            log.contains("finishing the current batch").then_some(())
        },
    );
    kill_process(pid, Signal::TERM).unwrap();
    let status = poll(&mut child, deadline, "the crawl did not stop", |c| {
        c.try_wait().unwrap()
    });
    assert_eq!(status.code(), Some(130), "{status}");
}
