//! The crawl at scale: one `focus-soft` crawl of the million-page websim
//! (politeness off: no interval on a web served in the process), sampled
//! from outside every half second; throughput around 10^4, 10^5 and 10^6
//! pages (over the window from half the count to the count) and resident
//! memory there, against the bound `docs/crawl.md` states.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Result};

use super::process::Log;
use crate::scale::bound_mb;
use crate::watch::{spawn, summary, watch, Sample};

/// Run the crawl to `pages` pages; returns the report section.
pub(crate) fn run(root: &Path, pages: u64, log: &mut Log) -> Result<String> {
    let work = crate::fresh_work_dir(root, "bench/growth")?;
    let out = work.join("out");
    let mut cmd = Command::new(root.join("target/release/focus-soft"));
    cmd.args([
        "--websim-pages",
        "1000000",
        "--max-pages",
        &pages.to_string(),
    ])
    .args(["--frontier-memory", "10000", "--dispatch", "fill", "--out"])
    .arg(&out);
    log.note(&cmd);
    println!("crawl of {pages} pages of the million-page websim");
    let child = spawn(&mut cmd, &work.join("crawl.log"))?;
    let (samples, _) = watch(child, &out, (None, Some(pages)), Duration::from_millis(500))?;
    let s = summary(&out)?;
    // The store of a million pages takes gigabytes (its size is in the
    // summary); the numbers are read.
    std::fs::remove_dir_all(out.join("store"))?;

    let Some(last) = samples.last().copied() else {
        bail!("the crawl was never sampled; see {}", work.display());
    };
    let mut o = String::new();
    writeln!(
        o,
        "One crawl, `focus-soft --dispatch fill`, of the million-page websim (in the \
         same process), hot tier of the frontier 10,000 URLs; pages counted from \
         `pages.jsonl`, memory and CPU time read from `/proc` every 0.5 s and at the \
         last page. Throughput and CPU per page at N are over the window from N/2 \
         to N pages; the bound is \
         `docs/crawl.md`'s. Pages/s is also set by which hosts the crawl is fetching \
         (a batch waits for its slowest fetch): once hosts with a robots.txt \
         `Crawl-delay` are in every cycle of the crawl's logical clock, pages/s \
         stops at that clock's ceiling (`docs/crawl.md`, \"Batches, concurrency and \
         the logical clock\"), whatever the work costs. CPU per page is what the work \
         costs (the summary below gives how many cores the crawl kept busy). The \
         dispatch is throughput-first: with the default `promising` rule, once this \
         web's good topic (about 69,000 pages) is used up, the crawl can spend long \
         stretches waiting on the few hosts that hold its most promising URLs \
         (robots.txt `Crawl-delay: 1` is obeyed whatever the politeness flags), which \
         measures that rule, not how the crawl's cost grows (`docs/crawl.md`, \
         \"Dispatch at scale\").\n"
    )?;
    writeln!(
        o,
        "| pages | pages/s (N/2 to N) | ÷ first row | CPU ms per page (N/2 to N) | ÷ first row | VmRSS MB | VmHWM MB | bound MB |"
    )?;
    writeln!(o, "|---|---|---|---|---|---|---|---|")?;
    let mut first = None;
    let mut first_cpu = None;
    let mut n = 10_000;
    while n <= pages {
        // The watcher samples the crawl at its last page; should the
        // process have exited before that read, its last checkpoint is the
        // last sample (the table gives its page count).
        let end = (n == pages).then_some(last);
        let (Some(a), Some(b)) = (at(&samples, n / 2), at(&samples, n).or(end)) else {
            bail!("the crawl ended before {n} pages; see {}", work.display());
        };
        let pages_in = (b.pages - a.pages).max(1) as f64;
        let rate = pages_in / (b.secs - a.secs).max(1e-3);
        let ratio = rate / *first.get_or_insert(rate);
        let cpu_ms = 1000.0 * (b.cpu_s - a.cpu_s) / pages_in;
        let cpu_ratio = cpu_ms / *first_cpu.get_or_insert(cpu_ms);
        writeln!(
            o,
            "| {} | {rate:.0} | {ratio:.2} | {cpu_ms:.3} | {cpu_ratio:.2} | {:.0} | {:.0} | {:.0} |",
            b.pages,
            b.rss_mb,
            b.hwm_mb,
            bound_mb(b.pages)
        )?;
        n *= 10;
    }
    writeln!(
        o,
        "\nSummary: {} pages in {:.0} s ({:.0} pages/s), {:.0} CPU s ({:.2} cores busy on \
         average), true harvest {:.3}, frontier left {}; the store took {:.0} MB on \
         disk at the end ({:.1} KB per page, `summary.json`'s `store_bytes`).",
        s.pages_fetched,
        s.elapsed_s,
        s.pages_per_s,
        last.cpu_s,
        last.cpu_s / last.secs.max(1e-3),
        s.harvest_rate_true.unwrap_or(0.0),
        s.frontier_left,
        s.store_bytes as f64 / (1024.0 * 1024.0),
        s.store_bytes as f64 / 1024.0 / s.pages_fetched.max(1) as f64,
    )?;
    Ok(o)
}

/// The first sample with at least `pages` pages.
fn at(samples: &[Sample], pages: u64) -> Option<Sample> {
    samples.iter().copied().find(|s| s.pages >= pages)
}
