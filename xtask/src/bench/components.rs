//! The component benchmarks already in the crates, in one run and one
//! table: every criterion bench (a short warm-up and measurement window
//! unless `--full`), the frontier at 10^4, 10^6 (and, with `--full` or
//! `--peers`, 10^7) queued URLs, and the classifiers' accuracy.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result};

use super::process::{cargo, example, Log};

/// `(package, bench target)` of every criterion benchmark.
const CRITERION: &[(&str, &str)] = &[
    ("focus-html", "analyze"),
    ("focus-classify", "classify"),
    ("focus-fetch", "fetch_loopback"),
    ("focus-fetch", "simhash"),
    ("focus-distill", "hits"),
    ("focus-store", "record_fetch"),
    ("focus-websim", "render"),
];

/// Run them all; returns the report section.
pub(crate) fn run(root: &Path, full: bool, big_frontier: bool, log: &mut Log) -> Result<String> {
    let work = root.join("target/bench/components");
    std::fs::create_dir_all(&work)?;
    let started = SystemTime::now();
    for (package, bench) in CRITERION {
        let mut cmd = cargo(root, &["bench", "-p", package, "--bench", bench, "--"]);
        if !full {
            cmd.args(["--warm-up-time", "1", "--measurement-time", "3"]);
        }
        println!("criterion: {package} {bench}");
        log.run(&mut cmd, &work.join(format!("{bench}.log")))?;
    }
    let mut o = String::new();
    writeln!(o, "### Criterion benchmarks\n")?;
    writeln!(o, "| benchmark | median time | throughput |")?;
    writeln!(o, "|---|---|---|")?;
    for row in criterion_rows(&root.join("target/criterion"), started)? {
        writeln!(o, "| {} | {} | {} |", row.id, row.time, row.throughput)?;
    }

    let mut sizes = vec!["10000", "1000000"];
    if full || big_frontier {
        sizes.push("10000000");
    }
    let cmd = example(root, "focus-frontier", "frontier_bench", &sizes);
    println!("frontier at {} queued URLs", sizes.join(", "));
    let frontier = log.measure(&cmd, &work.join("frontier.log"))?;
    writeln!(
        o,
        "\n### Frontier (spilling to its disk tier beyond 10^6 URLs in memory)\n"
    )?;
    o.push_str(frontier.stdout.trim_end());
    o.push('\n');

    let cmd = example(root, "focus-crawl", "classifier_accuracy", &[]);
    println!("classifier accuracy");
    let accuracy = log.measure(&cmd, &work.join("classifier_accuracy.log"))?;
    writeln!(o, "\n### Classifiers on the websim's examples\n")?;
    writeln!(o, "```")?;
    o.push_str(accuracy.stdout.trim_end());
    writeln!(o, "\n```")?;
    Ok(o)
}

/// One criterion result.
struct Row {
    id: String,
    time: String,
    throughput: String,
}

/// Every criterion result under `dir` written since `since`, by id.
fn criterion_rows(dir: &Path, since: SystemTime) -> Result<Vec<Row>> {
    let mut files = Vec::new();
    find_named(dir, "estimates.json", &mut files);
    let mut rows = Vec::new();
    for estimates in files {
        let Some(new) = estimates.parent().filter(|p| p.ends_with("new")) else {
            continue;
        };
        let fresh = std::fs::metadata(&estimates)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since);
        if !fresh {
            continue;
        }
        let read = |name: &str| -> Result<serde_json::Value> {
            let path = new.join(name);
            let text =
                std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
            Ok(serde_json::from_str(&text)?)
        };
        let (bench, est) = (read("benchmark.json")?, read("estimates.json")?);
        let ns = est["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN);
        let throughput = match (
            bench["throughput"]["Bytes"].as_f64(),
            bench["throughput"]["Elements"].as_f64(),
        ) {
            (Some(bytes), _) => format!("{:.1} MB/s", bytes / ns * 1e9 / 1e6),
            (_, Some(n)) => format!("{:.0} elements/s", n / ns * 1e9),
            _ => "-".into(),
        };
        rows.push(Row {
            id: bench["full_id"].as_str().unwrap_or("?").to_owned(),
            time: duration(ns),
            throughput,
        });
    }
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(rows)
}

fn find_named(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let path = e.path();
        if path.is_dir() {
            find_named(&path, name, out);
        } else if path.file_name().is_some_and(|n| n == name) {
            out.push(path);
        }
    }
}

/// `ns` nanoseconds in the unit that reads best.
fn duration(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_unit() {
        assert_eq!(duration(850.0), "850 ns");
        assert_eq!(duration(12_340.0), "12.34 µs");
        assert_eq!(duration(5_600_000.0), "5.60 ms");
        assert_eq!(duration(2_500_000_000.0), "2.50 s");
    }

    #[test]
    fn fresh_criterion_results_become_rows() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let new = dir.join("group/case/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            r#"{"full_id":"group/case","throughput":{"Bytes":1000000}}"#,
        )
        .unwrap();
        std::fs::write(
            new.join("estimates.json"),
            r#"{"median":{"point_estimate":1000000.0}}"#,
        )
        .unwrap();
        let since = SystemTime::now() - std::time::Duration::from_secs(60);
        let rows = criterion_rows(dir, since).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].id, "group/case");
        assert_eq!(rows[0].time, "1.00 ms");
        assert_eq!(rows[0].throughput, "1000.0 MB/s");
        let later = SystemTime::now() + std::time::Duration::from_secs(60);
        assert!(criterion_rows(dir, later).unwrap().is_empty());
    }
}
