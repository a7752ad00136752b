//! The cost of focus: `focus-soft` with its defaults against
//! `focus-soft --baseline bfs` (the same fetcher, parser, classifier and
//! store, without link scoring, the online link model and the distiller)
//! on the same embedded websim, in alternating order.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::Result;

use super::process::{spread, Log, Measured};
use crate::watch::summary;

/// Run both crawls `runs` times for `pages` pages; returns the report
/// section.
pub(crate) fn run(root: &Path, pages: u64, runs: usize, log: &mut Log) -> Result<String> {
    let work = crate::fresh_work_dir(root, "bench/focus-cost")?;
    let exe = root.join("target/release/focus-soft");
    let kinds: [(&str, &[&str]); 2] = [
        ("focus-soft", &[]),
        ("focus-soft --baseline bfs", &["--baseline", "bfs"]),
    ];
    let mut results: Vec<Vec<(Measured, f64, f64)>> = vec![Vec::new(), Vec::new()];
    for r in 0..runs {
        let order = if r % 2 == 0 { [0, 1] } else { [1, 0] };
        for k in order {
            let out = work.join(format!("{k}-{r}"));
            let mut cmd = Command::new(&exe);
            cmd.args(kinds[k].1)
                .args(["--max-pages", &pages.to_string(), "--out"])
                .arg(&out);
            println!("{} run {r}", kinds[k].0);
            let m = log.measure(&cmd, &work.join(format!("{k}-{r}.log")))?;
            let s = summary(&out)?;
            results[k].push((m, s.pages_per_s, s.harvest_rate_true.unwrap_or(0.0)));
        }
    }
    let mut o = String::new();
    writeln!(
        o,
        "The default embedded websim (200,000 pages, served in the same process), \
         {pages} pages, {runs} runs of each in alternating order. Crawl pages/s is \
         `summary.json`'s (fetching to the last page; the websim's generation and \
         the classifier's training before it are not counted); CPU is GNU time's for \
         the whole process.\n"
    )?;
    writeln!(o, "| crawler | crawl pages/s min / median / max | CPU s per 1,000 pages | peak RSS MB | true harvest |")?;
    writeln!(o, "|---|---|---|---|---|")?;
    let mut medians = Vec::new();
    for (k, runs) in results.iter().enumerate() {
        let rates: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let cpu: Vec<f64> = runs
            .iter()
            .map(|r| r.0.cpu_s * 1000.0 / pages as f64)
            .collect();
        let rss: Vec<f64> = runs.iter().map(|r| r.0.peak_rss_mb).collect();
        let (lo, mid, hi) = spread(&rates);
        writeln!(
            o,
            "| {} | {lo:.0} / **{mid:.0}** / {hi:.0} | {:.2} | {:.0} | {:.3} |",
            kinds[k].0,
            spread(&cpu).1,
            spread(&rss).2,
            runs.first().map_or(0.0, |r| r.2),
        )?;
        medians.push(mid);
    }
    if let [focused, bfs] = medians[..] {
        writeln!(
            o,
            "\nMedian crawl pages/s, focused ÷ breadth-first: **{:.2}** (the two fetch \
             different hosts, so this mixes the price of focus with each order's host \
             mix; CPU per 1,000 pages is the price of the work itself).",
            focused / bfs
        )?;
    }
    Ok(o)
}
