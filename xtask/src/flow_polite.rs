//! `cargo xtask flow --polite`: batches and a stream under the real web's
//! politeness. Every host of the default websim asks for one request a
//! second (`--host-interval 1s`) and answers after a log-normal latency
//! (`--websim-latency 100`), so a focused crawl's pace is set by how many
//! hosts hold URLs it wants, not by its slowest answers. Several websim
//! seeds, because one web's path can flatter either flow: the report gives
//! per crawl how often it fetched one host (the gap between two fetches of
//! a host) and how many hosts it fetched at a time (distinct hosts per 30
//! seconds). Both flows of a seed crawl side by side (each waits on its
//! hosts' intervals and uses a few percent of a core). Writes
//! `docs/results/flow-polite.md`, which `docs/crawl.md` cites ("Batches or
//! a stream").

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::bench::process::spread;
use crate::{run_cargo, watch};

/// The websim's median latency, milliseconds.
const LATENCY_MS: u64 = 100;

/// How long one window of the hosts-at-a-time count lasts, milliseconds.
const WINDOW_MS: u64 = 30_000;

/// The flows compared: a name and `focus-soft`'s flags.
const FLOWS: [(&str, &str); 2] = [("batches (default)", "batches"), ("stream", "stream")];

/// The flags after `--polite`: `--seeds N` (websim seeds 1..=N, default 3)
/// and `--pages N` (default 2,000).
#[derive(Debug)]
pub(crate) struct PoliteArgs {
    seeds: u64,
    pages: u64,
}

impl PoliteArgs {
    pub(crate) fn parse(args: &[String]) -> Result<Self> {
        let n = crate::flow::numbers(
            args,
            &["--seeds", "--pages"],
            "`cargo xtask flow --polite` takes --seeds N and --pages N",
        )?;
        Ok(Self {
            seeds: n.get("--seeds").map_or(3, |&v| v.max(1)),
            pages: n.get("--pages").map_or(2_000, |&v| v.max(1)),
        })
    }
}

/// What one crawl measured.
#[derive(Debug, Clone, PartialEq)]
struct Measured {
    pages_per_s: f64,
    harvest: f64,
    held: u64,
    pace: Pace,
}

/// How a crawl spread its fetches over hosts, from its `pages.jsonl`.
#[derive(Debug, Clone, PartialEq)]
struct Pace {
    /// Distinct hosts fetched.
    hosts: usize,
    /// Median and 90th percentile of the gap between two fetches of one
    /// host, milliseconds.
    gap_median_ms: u64,
    gap_p90_ms: u64,
    /// Distinct hosts in each 30-second window after the first (the first
    /// holds the seeds and the crawl's opening spread).
    hosts_per_window: Vec<usize>,
}

pub(crate) fn run(root: &Path, f: &PoliteArgs) -> Result<()> {
    let commit = crate::commit(root);
    run_cargo(root, &["build", "--release", "-p", "focus-soft"])?;
    let exe = root.join("target/release/focus-soft");
    let work = root.join("target/flow-polite");
    let started = Instant::now();
    let mut rows = Vec::new();
    for seed in 1..=f.seeds {
        println!("seed {seed}: both flows, side by side");
        let mut running = Vec::new();
        for (name, flow) in FLOWS {
            let out = work.join(format!("seed-{seed}-{flow}"));
            match crawl(&exe, &out, seed, flow, f.pages) {
                Ok(r) => running.push((name, r)),
                Err(e) => {
                    for (_, mut r) in running {
                        let _ = r.child.kill();
                    }
                    return Err(e);
                }
            }
        }
        // Every crawl is waited for before an error is reported.
        let done: Vec<_> = running.into_iter().map(|(n, r)| (n, r.wait())).collect();
        for (name, m) in done {
            rows.push((seed, name, m?));
        }
    }
    let md = render(&rows, f, started.elapsed().as_secs(), &commit);
    let path = root.join("docs/results/flow-polite.md");
    std::fs::write(&path, md).with_context(|| format!("writing {}", path.display()))?;
    println!("written to {}", path.display());
    Ok(())
}

/// A crawl started and not yet waited for.
struct Running {
    child: std::process::Child,
    out: std::path::PathBuf,
    what: String,
}

impl Running {
    fn wait(mut self) -> Result<Measured> {
        let status = self.child.wait().context("waiting for focus-soft")?;
        if !status.success() {
            bail!("focus-soft {} failed ({status})", self.what);
        }
        let summary = watch::summary(&self.out).context("summary.json")?;
        let lines: Vec<_> = watch::page_lines(&self.out)?
            .into_iter()
            .map(|p| (p.url, p.fetched_at_ms))
            .collect();
        Ok(Measured {
            pages_per_s: summary.pages_per_s,
            harvest: summary.harvest_rate_true.unwrap_or(0.0),
            held: summary.held_for_promising,
            pace: pace(&lines),
        })
    }
}

/// Starts one crawl of `pages` pages of websim `seed` in `flow` into
/// `out`.
fn crawl(exe: &Path, out: &Path, seed: u64, flow: &str, pages: u64) -> Result<Running> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let what = format!("--seed {seed} --flow {flow}");
    let child = Command::new(exe)
        .args(["--flow", flow, "--seed", &seed.to_string()])
        .args(["--websim-latency", &LATENCY_MS.to_string()])
        .args(["--host-interval", "1s"])
        .args(["--max-pages", &pages.to_string()])
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("running {} {what}", exe.display()))?;
    Ok(Running {
        child,
        out: out.to_path_buf(),
        what,
    })
}

/// The host of a URL as `pages.jsonl` writes it (scheme, host, path).
fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}

/// How the fetches of `lines` (URL, fetch time) spread over hosts.
fn pace(lines: &[(String, u64)]) -> Pace {
    let mut by_host: HashMap<&str, Vec<u64>> = HashMap::new();
    for (url, at) in lines {
        by_host.entry(host_of(url)).or_default().push(*at);
    }
    let mut gaps: Vec<u64> = Vec::new();
    for times in by_host.values_mut() {
        times.sort_unstable();
        gaps.extend(times.windows(2).map(|w| w[1] - w[0]));
    }
    gaps.sort_unstable();
    let quantile = |q: f64| -> u64 {
        match gaps.len() {
            0 => 0,
            n => gaps[((n - 1) as f64 * q).round() as usize],
        }
    };
    let first = lines.iter().map(|(_, at)| *at).min().unwrap_or(0);
    let mut windows: Vec<Vec<&str>> = Vec::new();
    for (url, at) in lines {
        let w = usize::try_from((at - first) / WINDOW_MS).unwrap_or(usize::MAX);
        if windows.len() <= w {
            windows.resize(w + 1, Vec::new());
        }
        let host = host_of(url);
        if !windows[w].contains(&host) {
            windows[w].push(host);
        }
    }
    Pace {
        hosts: by_host.len(),
        gap_median_ms: quantile(0.5),
        gap_p90_ms: quantile(0.9),
        hosts_per_window: windows.iter().skip(1).map(Vec::len).collect(),
    }
}

fn render(rows: &[(u64, &str, Measured)], f: &PoliteArgs, secs: u64, commit: &str) -> String {
    let mut md = String::from("# Batches or a stream under the real web's politeness\n\n");
    let _ = writeln!(
        md,
        "Generated by `cargo xtask flow --polite --seeds {seeds} --pages {pages}` at commit \
         {commit} ({secs} s on this machine; the two crawls of a seed side by side): release \
         `focus-soft --websim-latency {LATENCY_MS} --host-interval 1s --max-pages {pages} \
         --flow batches|stream --seed N`, the default embedded websim of seeds 1 to {seeds} \
         (good topic `recreation/outdoors`), once each. Every host takes one request a second \
         and answers after a log-normal delay (median {LATENCY_MS} ms, sigma 1), so a focused \
         crawl's pace is set by how many hosts hold the URLs it wants. From `summary.json`: \
         pages/s (from the first fetch), true harvest, held decisions (`held_for_promising`). \
         From `pages.jsonl`: the hosts fetched; the gap between two fetches of one host \
         (median and 90th percentile, `fetched_at_ms`); the distinct hosts fetched in each \
         30-second window after the first, as median and minimum, and the windows with one \
         host only (the crawl fetching one host a second while every other host's URLs \
         stay below its promising floor).\n",
        seeds = f.seeds,
        pages = f.pages,
    );
    md.push_str(
        "| seed | flow | pages/s | true harvest | held | hosts | gap between fetches of a \
         host, median / p90 (s) | hosts per 30 s, median / min | one-host windows |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for (seed, flow, m) in rows {
        let w: Vec<f64> = m.pace.hosts_per_window.iter().map(|&n| n as f64).collect();
        let (min, median, _) = if w.is_empty() {
            (0.0, 0.0, 0.0)
        } else {
            spread(&w)
        };
        let lone = m.pace.hosts_per_window.iter().filter(|&&n| n == 1).count();
        let _ = writeln!(
            md,
            "| {seed} | {flow} | **{:.2}** | {:.3} | {} | {} | {:.2} / {:.2} | {median:.0} / \
             {min:.0} | {lone} of {} |",
            m.pages_per_s,
            m.harvest,
            m.held,
            m.pace.hosts,
            m.pace.gap_median_ms as f64 / 1_000.0,
            m.pace.gap_p90_ms as f64 / 1_000.0,
            w.len(),
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(url: &str, at: u64) -> (String, u64) {
        (url.to_owned(), at)
    }

    #[test]
    fn pace_counts_gaps_per_host_and_hosts_per_window() {
        let lines = [
            line("http://a.example/1", 1_000),
            line("http://b.example/", 1_500),
            line("http://a.example/2?x=1", 2_200),
            line("http://a.example/3", 31_000),
            line("https://c.example:8080/x", 65_000),
            line("http://a.example/4", 66_000),
        ];
        let p = pace(&lines);
        assert_eq!(p.hosts, 3);
        // a's gaps: 1,200, 28,800 and 35,000 ms; none for b or c.
        assert_eq!((p.gap_median_ms, p.gap_p90_ms), (28_800, 35_000));
        // Windows from 1,000 ms: [1,000, 31,000) holds a and b; then a;
        // then c and a.
        assert_eq!(p.hosts_per_window, vec![1, 2]);
    }

    #[test]
    fn the_table_names_the_command_and_counts_one_host_windows() {
        let f = PoliteArgs {
            seeds: 2,
            pages: 40,
        };
        let m = |pages_per_s, windows: Vec<usize>| Measured {
            pages_per_s,
            harvest: 0.9,
            held: 12,
            pace: Pace {
                hosts: 7,
                gap_median_ms: 1_070,
                gap_p90_ms: 1_230,
                hosts_per_window: windows,
            },
        };
        let rows = [
            (1, "batches (default)", m(7.4, vec![9, 1, 5])),
            (1, "stream", m(4.25, vec![1, 1, 1, 8])),
        ];
        let md = render(&rows, &f, 9, "abc1234");
        assert!(md.contains("`cargo xtask flow --polite --seeds 2 --pages 40` at commit abc1234"));
        assert!(
            md.contains("| 1 | batches (default) | **7.40** | 0.900 | 12 | 7 | 1.07 / 1.23 | 5 / 1 | 1 of 3 |"),
            "{md}"
        );
        assert!(
            md.contains(
                "| 1 | stream | **4.25** | 0.900 | 12 | 7 | 1.07 / 1.23 | 1 / 1 | 3 of 4 |"
            ),
            "{md}"
        );
    }

    #[test]
    fn flags_are_checked() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let f = PoliteArgs::parse(&args(&["--seeds", "5", "--pages", "100"])).unwrap();
        assert_eq!((f.seeds, f.pages), (5, 100));
        assert!(PoliteArgs::parse(&args(&["--runs", "3"])).is_err());
        assert!(PoliteArgs::parse(&args(&["--seeds"])).is_err());
        assert!(PoliteArgs::parse(&args(&["--seeds", "x"])).is_err());
    }
}
