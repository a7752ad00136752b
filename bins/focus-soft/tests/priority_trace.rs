//! `RUST_LOG=focus_crawl::priority=trace` explains every fetch of a
//! `focus-soft` crawl: each page fetched has a `fetched` line in fetch
//! order, each page found on another was offered by that page before it
//! was fetched, and the priority it was fetched at is the last one the
//! trace gave it (offered, re-scored or raised by a hub citation), so no
//! priority change goes untraced. The log is plain text in a pipe.

use std::collections::HashMap;
use std::process::Command;

/// The value of `key=` in a trace line (up to the next space).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    line[at..].split(' ').next()
}

/// A priority as the trace writes it: `0.5`, or `Some(0.5)` for a
/// frontier's answer.
fn priority(value: &str) -> Option<f64> {
    value
        .strip_prefix("Some(")
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or(value)
        .parse()
        .ok()
}

#[test]
fn the_priority_trace_accounts_for_every_fetch() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_focus-soft"))
        .args(["--websim-pages", "20000", "--max-pages", "60", "--out"])
        .arg(out.path())
        .env("RUST_LOG", "focus_crawl::priority=trace")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = String::from_utf8(run.stderr).unwrap();
    assert!(!log.contains('\u{1b}'), "no colour codes in a pipe");
    let pages: Vec<serde_json::Value> = std::fs::read_to_string(out.path().join("pages.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(pages.len(), 60);

    // Replay the trace: the last priority each URL was given, and the
    // pages that offered it a link.
    let mut last: HashMap<&str, f64> = HashMap::new();
    let mut offered_by: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut fetched: Vec<(&str, f64)> = Vec::new();
    let mut rescored = 0;
    for line in log.lines().filter(|l| l.contains("focus_crawl::priority")) {
        let url = field(line, "url").unwrap();
        let given = field(line, "priority").and_then(priority);
        if line.contains(": link offered ") || line.contains(": root ascent ") {
            offered_by
                .entry(url)
                .or_default()
                .push(field(line, "from").unwrap());
        } else if line.contains(": re-scored ") {
            rescored += 1;
        } else if line.contains(": fetched ") {
            fetched.push((url, given.unwrap()));
            continue;
        }
        if let Some(p) = given {
            last.insert(url, p);
        }
    }
    assert!(rescored > 0, "a soft crawl of 60 pages re-scores links");

    let urls: Vec<&str> = fetched.iter().map(|(u, _)| *u).collect();
    let logged: Vec<&str> = pages.iter().map(|p| p["url"].as_str().unwrap()).collect();
    assert_eq!(urls, logged, "one `fetched` line per page, in fetch order");
    for (page, (url, at)) in pages.iter().zip(&fetched) {
        let Some(parent) = page["parent"].as_str() else {
            assert_eq!(*at, 1.0, "a seed starts at the top");
            continue;
        };
        assert!(
            offered_by
                .get(url)
                .is_some_and(|from| from.contains(&parent)),
            "{url} was offered by its parent {parent}"
        );
        assert_eq!(
            last.get(url),
            Some(at),
            "{url} is fetched at the last priority the trace gave it"
        );
    }
}
