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

/// The two crawlers, as the table names them, and their flags.
const KINDS: [(&str, &[&str]); 2] = [
    ("focus-soft", &[]),
    ("focus-soft --baseline bfs", &["--baseline", "bfs"]),
];

/// One crawl: GNU time's measurement and what its `summary.json` says.
struct CostRun {
    measured: Measured,
    pages_per_s: f64,
    harvest: f64,
    held: u64,
}

/// Run both crawls `runs` times for `pages` pages; returns the report
/// section.
pub(crate) fn run(root: &Path, pages: u64, runs: usize, log: &mut Log) -> Result<String> {
    let work = crate::fresh_work_dir(root, "bench/focus-cost")?;
    let exe = root.join("target/release/focus-soft");
    let mut results: [Vec<CostRun>; 2] = [Vec::new(), Vec::new()];
    for r in 0..runs {
        let order = if r % 2 == 0 { [0, 1] } else { [1, 0] };
        for k in order {
            let out = work.join(format!("{k}-{r}"));
            let mut cmd = Command::new(&exe);
            cmd.args(KINDS[k].1)
                .args(["--max-pages", &pages.to_string(), "--out"])
                .arg(&out);
            println!("{} run {r}", KINDS[k].0);
            let measured = log.measure(&cmd, &work.join(format!("{k}-{r}.log")))?;
            let s = summary(&out)?;
            results[k].push(CostRun {
                measured,
                pages_per_s: s.pages_per_s,
                harvest: s.harvest_rate_true.unwrap_or(0.0),
                held: s.held_for_promising,
            });
        }
    }
    render(pages, runs, &results)
}

/// The report section: one row per crawler, then the ratio of the median
/// pages/s.
fn render(pages: u64, runs: usize, results: &[Vec<CostRun>; 2]) -> Result<String> {
    let mut o = String::new();
    writeln!(
        o,
        "The default embedded websim (200,000 pages, served in the same process), \
         {pages} pages, {runs} runs of each in alternating order. Crawl pages/s is \
         `summary.json`'s (fetching to the last page; the websim's generation and \
         the classifier's training before it are not counted); CPU is GNU time's for \
         the whole process. Held batches are `summary.json`'s `held_for_promising` \
         (median): batches the default dispatch sent short, or clock moves it \
         waited out, for a host with more promising URLs while other hosts had \
         URLs ready; each costs wall time, not fetches (`docs/crawl.md`, \
         \"Dispatch at scale: what holding costs\").\n"
    )?;
    writeln!(o, "| crawler | crawl pages/s min / median / max | CPU s per 1,000 pages | peak RSS MB | true harvest | held batches |")?;
    writeln!(o, "|---|---|---|---|---|---|")?;
    let mut medians = Vec::new();
    for (k, runs) in results.iter().enumerate() {
        let rates: Vec<f64> = runs.iter().map(|r| r.pages_per_s).collect();
        let cpu: Vec<f64> = runs
            .iter()
            .map(|r| r.measured.cpu_s * 1000.0 / pages as f64)
            .collect();
        let rss: Vec<f64> = runs.iter().map(|r| r.measured.peak_rss_mb).collect();
        let held: Vec<f64> = runs.iter().map(|r| r.held as f64).collect();
        let (lo, mid, hi) = spread(&rates);
        writeln!(
            o,
            "| {} | {lo:.0} / **{mid:.0}** / {hi:.0} | {:.2} | {:.0} | {:.3} | {:.0} |",
            KINDS[k].0,
            spread(&cpu).1,
            spread(&rss).2,
            runs.first().map_or(0.0, |r| r.harvest),
            spread(&held).1,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pages_per_s: f64, cpu_s: f64, harvest: f64, held: u64) -> CostRun {
        CostRun {
            measured: Measured {
                wall_s: 1.0,
                cpu_s,
                peak_rss_mb: 200.0,
                stdout: String::new(),
            },
            pages_per_s,
            harvest,
            held,
        }
    }

    #[test]
    fn the_table_sets_held_batches_beside_pages_per_second() {
        let results = [
            vec![run(40.0, 16.0, 0.73, 2600), run(44.0, 17.2, 0.73, 2700)],
            vec![run(480.0, 9.0, 0.07, 0), run(484.0, 9.0, 0.07, 0)],
        ];
        let md = render(20_000, 2, &results).unwrap();
        // Medians of two runs are their means; CPU is per 1,000 pages.
        assert!(
            md.contains("| focus-soft | 40 / **42** / 44 | 0.83 | 200 | 0.730 | 2650 |"),
            "{md}"
        );
        assert!(
            md.contains(
                "| focus-soft --baseline bfs | 480 / **482** / 484 | 0.45 | 200 | 0.070 | 0 |"
            ),
            "{md}"
        );
        assert!(md.contains("focused ÷ breadth-first: **0.09**"), "{md}");
    }
}
