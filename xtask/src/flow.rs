//! `cargo xtask flow`: the default `focus-soft` crawl in batches (the
//! default, reproducible page for page) and as a stream (`--flow
//! stream`), on the embedded websim answering at loopback speed and after
//! a log-normal latency as servers across the internet do
//! (`--websim-latency`). Every crawl is a release `focus-soft` run, one at
//! a time (the loopback crawls are bound by the CPU, so crawls side by side
//! would measure each other); the numbers come from its `summary.json` and
//! `pages.jsonl`. Writes `docs/results/flow.md`, which `docs/crawl.md`
//! cites ("Batches or a stream").

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::bench::process::spread;
use crate::{run_cargo, watch};

/// Median latencies of the websim's answers, milliseconds (0: loopback
/// speed, no `--websim-latency`).
const LATENCIES: [u64; 3] = [0, 100, 300];

/// The flows compared: a name and `focus-soft`'s flags.
const FLOWS: [(&str, &[&str]); 2] = [
    ("batches (default)", &[]),
    ("stream (`--flow stream`)", &["--flow", "stream"]),
];

/// What one crawl measured.
struct Measured {
    pages_per_s: f64,
    harvest: f64,
    failed: u64,
    urls: Vec<String>,
}

/// The flags: `--runs N` (default 3) and `--pages N` (default 5,000, the
/// demo crawl's).
struct FlowArgs {
    runs: usize,
    pages: u64,
}

impl FlowArgs {
    fn parse(args: &[String]) -> Result<Self> {
        let n = numbers(
            args,
            &["--runs", "--pages"],
            "`cargo xtask flow` takes --runs N and --pages N, or --polite first",
        )?;
        Ok(Self {
            runs: n
                .get("--runs")
                .map_or(Ok(3), |&v| usize::try_from(v))?
                .max(1),
            pages: n.get("--pages").map_or(5_000, |&v| v.max(1)),
        })
    }
}

/// The values of `args`, each one of `names` followed by a number (the
/// last of a flag given twice); any other flag is refused with `usage`.
pub(crate) fn numbers(
    args: &[String],
    names: &[&str],
    usage: &str,
) -> Result<HashMap<String, u64>> {
    let mut values = HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !names.contains(&a.as_str()) {
            bail!("{usage} (got {a})");
        }
        let v = it.next().with_context(|| format!("{a} needs a value"))?;
        let n = v
            .parse()
            .with_context(|| format!("{a} {v}: not a number"))?;
        values.insert(a.clone(), n);
    }
    Ok(values)
}

pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    if let Some(rest) = args.strip_prefix(&["--polite".to_owned()]) {
        let f = crate::flow_polite::PoliteArgs::parse(rest)?;
        return crate::flow_polite::run(root, &f);
    }
    let f = FlowArgs::parse(args)?;
    let commit = crate::commit(root);
    run_cargo(root, &["build", "--release", "-p", "focus-soft"])?;
    let exe = root.join("target/release/focus-soft");
    let work = root.join("target/flow");
    let started = Instant::now();
    let mut cells = Vec::new();
    for latency in LATENCIES {
        for (k, (flow, flags)) in FLOWS.iter().enumerate() {
            let mut runs = Vec::new();
            for r in 0..f.runs {
                let out = work.join(format!("latency-{latency}-flow-{k}-run-{r}"));
                println!("latency {latency} ms, {flow}: run {}", r + 1);
                runs.push(crawl(&exe, &out, latency, flags, f.pages)?);
            }
            cells.push((latency, *flow, runs));
        }
    }
    let md = render(&cells, &f, started.elapsed().as_secs(), &commit);
    let path = root.join("docs/results/flow.md");
    std::fs::write(&path, md).with_context(|| format!("writing {}", path.display()))?;
    println!("written to {}", path.display());
    Ok(())
}

/// One crawl of `pages` pages into `out`.
fn crawl(exe: &Path, out: &Path, latency: u64, flags: &[&str], pages: u64) -> Result<Measured> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let mut cmd = Command::new(exe);
    cmd.args(flags)
        .args(["--max-pages", &pages.to_string()])
        .arg("--out")
        .arg(out);
    if latency > 0 {
        cmd.args(["--websim-latency", &latency.to_string()]);
    }
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("running {}", exe.display()))?;
    if !status.success() {
        bail!("focus-soft {flags:?} with latency {latency} ms failed ({status})");
    }
    let summary = watch::summary(out).context("summary.json")?;
    let urls = watch::page_lines(out)?.into_iter().map(|p| p.url).collect();
    Ok(Measured {
        pages_per_s: summary.pages_per_s,
        harvest: summary.harvest_rate_true.unwrap_or(0.0),
        failed: summary.failed_fetches,
        urls,
    })
}

fn render(cells: &[(u64, &str, Vec<Measured>)], f: &FlowArgs, secs: u64, commit: &str) -> String {
    let mut md = String::from("# Batches or a stream\n\n");
    let _ = writeln!(
        md,
        "Generated by `cargo xtask flow --runs {runs} --pages {pages}` at commit {commit} \
         ({secs} s on this machine, one crawl at a time): release `focus-soft` crawls of \
         {pages} pages of the default embedded websim (good topic `recreation/outdoors`, \
         seed 1), {runs} runs of each, with `--websim-latency MS` where the latency is not \
         0: every answer waits a log-normal delay (sigma 1; each host's own median drawn \
         about the web's, each page's delay about its host's; the same delay for a URL \
         every run) and the fetcher keeps the real web's timeouts (20 s to the first \
         byte). At latency 0 the websim answers at loopback speed with the websim's \
         one-second timeouts. Pages/s is `summary.json`'s (the crawl from its first \
         fetch; the websim's generation and the training before it are not counted); \
         relevant pages/s is the true harvest times pages/s; *same pages as run 1* is \
         the smallest share of run 1's URLs that another run fetched (1.000: every run \
         fetched the same pages).\n",
        runs = f.runs,
        pages = f.pages,
    );
    md.push_str(
        "| latency (median) | flow | pages/s min / median / max | true harvest min / median / \
         max | relevant pages/s (median) | failed fetches (median) | same pages as run 1 |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (latency, flow, runs) in cells {
        let rate = spread(&runs.iter().map(|m| m.pages_per_s).collect::<Vec<_>>());
        let harvest = spread(&runs.iter().map(|m| m.harvest).collect::<Vec<_>>());
        let relevant = spread(
            &runs
                .iter()
                .map(|m| m.harvest * m.pages_per_s)
                .collect::<Vec<_>>(),
        );
        let failed = spread(&runs.iter().map(|m| m.failed as f64).collect::<Vec<_>>());
        let first: HashSet<&String> = runs[0].urls.iter().collect();
        let same = runs
            .iter()
            .skip(1)
            .map(|m| {
                let shared = m.urls.iter().filter(|u| first.contains(u)).count();
                shared as f64 / first.len().max(1) as f64
            })
            .fold(1.0, f64::min);
        let latency = if *latency == 0 {
            "0 (loopback)".to_owned()
        } else {
            format!("{latency} ms")
        };
        let _ = writeln!(
            md,
            "| {latency} | {flow} | {:.0} / **{:.0}** / {:.0} | {:.3} / **{:.3}** / {:.3} | \
             {:.1} | {:.0} | {same:.3} |",
            rate.0, rate.1, rate.2, harvest.0, harvest.1, harvest.2, relevant.1, failed.1
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(pages_per_s: f64, harvest: f64, urls: &[&str]) -> Measured {
        Measured {
            pages_per_s,
            harvest,
            failed: 1,
            urls: urls.iter().map(|u| (*u).to_owned()).collect(),
        }
    }

    #[test]
    fn the_table_gives_spreads_medians_and_the_share_of_pages_in_common() {
        let f = FlowArgs { runs: 3, pages: 4 };
        let cells = vec![
            (
                0,
                "batches (default)",
                vec![
                    measured(100.0, 0.5, &["a", "b", "c", "d"]),
                    measured(300.0, 0.5, &["a", "b", "c", "d"]),
                    measured(200.0, 0.5, &["a", "b", "c", "d"]),
                ],
            ),
            (
                300,
                "stream (`--flow stream`)",
                vec![
                    measured(50.0, 0.9, &["a", "b", "c", "d"]),
                    measured(60.0, 0.8, &["a", "b", "x", "y"]),
                    measured(40.0, 1.0, &["a", "b", "c", "y"]),
                ],
            ),
        ];
        let md = render(&cells, &f, 7, "abc1234");
        assert!(md.contains("`cargo xtask flow --runs 3 --pages 4` at commit abc1234"));
        assert!(
            md.contains("| 0 (loopback) | batches (default) | 100 / **200** / 300 | 0.500 / **0.500** / 0.500 | 100.0 | 1 | 1.000 |"),
            "{md}"
        );
        assert!(
            md.contains("| 300 ms | stream (`--flow stream`) | 40 / **50** / 60 | 0.800 / **0.900** / 1.000 | 45.0 | 1 | 0.500 |"),
            "{md}"
        );
    }

    #[test]
    fn flags_are_checked() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let f = FlowArgs::parse(&args(&["--runs", "5", "--pages", "100"])).unwrap();
        assert_eq!((f.runs, f.pages), (5, 100));
        assert!(FlowArgs::parse(&args(&["--fast"])).is_err());
        assert!(FlowArgs::parse(&args(&["--runs"])).is_err());
        assert!(FlowArgs::parse(&args(&["--runs", "x"])).is_err());
    }
}
