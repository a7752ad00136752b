//! `cargo xtask scale`: a long `focus-soft` crawl of the million-page
//! websim with the frontier's hot tier capped and every batch filled
//! (`--dispatch fill`), measured from outside the process (Linux
//! `/proc/<pid>/status`), once straight through and once killed with
//! SIGKILL part-way and resumed. Writes `docs/results/scale.md`: resident
//! memory, throughput and true harvest against pages fetched, each sample
//! checked against the memory bound that `docs/crawl.md` states
//! ([`bound_mb`]), and the resumed crawl's checks. With
//! `--compare-default` it also runs the same crawl with the default
//! dispatch, which waits on the hosts that hold its most promising URLs,
//! and sets the relevant pages each rule had found, and when, side by
//! side (hours: `docs/crawl.md`, "Dispatch at scale").

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use focus_core::Summary;

use crate::run_cargo;
use crate::watch::{relevant_every, spawn, summary, watch, Sample};

/// The documented bound on resident memory (MB) of a crawl that has
/// fetched `pages` pages, frontier hot tier capped: a fixed part (the
/// million-page websim in the same process, the classifier, the store's
/// cache) and a part per fetched page (the crawl graph the distiller
/// reads, the seen set, duplicate fingerprints, the store's page table).
/// `docs/crawl.md` ("Memory") states the same numbers.
pub(crate) fn bound_mb(pages: u64) -> f64 {
    BOUND_FIXED_MB + BOUND_PER_PAGE_KB * pages as f64 / 1000.0
}
const BOUND_FIXED_MB: f64 = 350.0;
const BOUND_PER_PAGE_KB: f64 = 3.5;

/// The crawl's settings.
struct Scale {
    pages: u64,
    web: u64,
    hot: u64,
    kill_at: u64,
    /// Also crawl with the default dispatch, for the side-by-side table.
    compare_default: bool,
}

impl Scale {
    fn parse(args: &[String]) -> Result<Self> {
        let mut s = Scale {
            pages: 200_000,
            web: 1_000_000,
            hot: 10_000,
            kill_at: 100_000,
            compare_default: false,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if flag == "--compare-default" {
                s.compare_default = true;
                continue;
            }
            let value = it
                .next()
                .with_context(|| format!("{flag} needs a value"))?
                .parse::<u64>()
                .with_context(|| format!("{flag} needs a number"))?;
            match flag.as_str() {
                "--pages" => s.pages = value,
                "--web" => s.web = value,
                "--frontier-memory" => s.hot = value,
                "--kill-at" => s.kill_at = value,
                other => bail!("unknown flag {other}"),
            }
        }
        if s.kill_at == 0 || s.kill_at >= s.pages {
            bail!("--kill-at must fall inside the crawl (0 < kill-at < pages)");
        }
        Ok(s)
    }

    /// The measured crawl's flags: every batch filled, so the crawl's
    /// pace is its work's, not its waits on the few hosts that hold its
    /// most promising URLs.
    fn args(&self, out: &Path) -> Vec<String> {
        let mut args = self.default_dispatch_args(out);
        args.extend(["--dispatch".into(), "fill".into()]);
        args
    }

    /// The same crawl with the default dispatch (`--compare-default`).
    fn default_dispatch_args(&self, out: &Path) -> Vec<String> {
        vec![
            "--websim-pages".into(),
            self.web.to_string(),
            "--max-pages".into(),
            self.pages.to_string(),
            "--frontier-memory".into(),
            self.hot.to_string(),
            "--out".into(),
            out.display().to_string(),
        ]
    }
}

/// How often the crawl is sampled.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let s = Scale::parse(args)?;
    let commit = crate::commit(root);
    run_cargo(root, &["build", "--release", "-p", "focus-soft"])?;
    let exe = root.join("target/release/focus-soft");
    let work = crate::fresh_work_dir(root, "scale")?;

    let straight = work.join("straight");
    let log = |name: &str| work.join(format!("{name}.log"));
    let (a, _) = crawl(
        &exe,
        &s.args(&straight),
        (&straight, &log("straight")),
        (None, s.pages),
    )?;

    // The same crawl with the default dispatch, for the price and the
    // gain of its holding for promising URLs.
    let held = if s.compare_default {
        let out = work.join("held");
        let (h, _) = crawl(
            &exe,
            &s.default_dispatch_args(&out),
            (&out, &log("held")),
            (None, s.pages),
        )?;
        Some((h, out))
    } else {
        None
    };

    let resumed = work.join("resumed");
    let (b1, killed) = crawl(
        &exe,
        &s.args(&resumed),
        (&resumed, &log("killed")),
        (Some(s.kill_at), s.pages),
    )?;
    if !killed {
        bail!("the crawl ended before {} pages", s.kill_at);
    }
    let mut resume_args = s.args(&resumed);
    resume_args.push("--resume".into());
    let (b2, _) = crawl(
        &exe,
        &resume_args,
        (&resumed, &log("resumed")),
        (None, s.pages),
    )?;

    let check = check_resumed(&resumed, s.pages)?;
    let runs = Runs {
        straight: (a, straight),
        held,
        killed: b1,
        resumed: (b2, resumed),
    };
    let report = report(&s, &runs, &check, &commit)?;
    let path = root.join("docs/results/scale.md");
    std::fs::write(&path, report)?;
    println!("wrote {}", path.display());
    let worst = runs
        .straight
        .0
        .iter()
        .chain(runs.held.iter().flat_map(|(h, _)| h))
        .chain(&runs.killed)
        .chain(&runs.resumed.0)
        .find(|x| x.hwm_mb > bound_mb(x.pages));
    if let Some(x) = worst {
        bail!(
            "peak resident memory {:.0} MB at {} pages is over the documented bound {:.0} MB",
            x.hwm_mb,
            x.pages,
            bound_mb(x.pages)
        );
    }
    Ok(())
}

/// The crawls' samples and output directories.
struct Runs {
    /// With `--dispatch fill`.
    straight: (Vec<Sample>, PathBuf),
    /// With the default dispatch (`--compare-default`).
    held: Option<(Vec<Sample>, PathBuf)>,
    /// The crawl that was killed (its output is `resumed`'s).
    killed: Vec<Sample>,
    resumed: (Vec<Sample>, PathBuf),
}

/// Runs `exe args` (its output directory `out`), logging to `log`, and
/// watches it as [`watch`] does.
fn crawl(
    exe: &Path,
    args: &[String],
    (out, log): (&Path, &Path),
    (kill_at, end_at): (Option<u64>, u64),
) -> Result<(Vec<Sample>, bool)> {
    println!("$ focus-soft {}", args.join(" "));
    let child = spawn(Command::new(exe).args(args), log)?;
    watch(child, out, (kill_at, Some(end_at)), SAMPLE_EVERY)
}

/// What the resumed crawl's `pages.jsonl` must be: every line whole, one
/// per fetch, no URL twice.
struct ResumeCheck {
    lines: usize,
    distinct: usize,
    torn: usize,
}

fn check_resumed(out: &Path, pages: u64) -> Result<ResumeCheck> {
    let text = std::fs::read_to_string(out.join("pages.jsonl"))?;
    let mut urls = std::collections::HashSet::new();
    let (mut lines, mut torn) = (0, 0);
    for line in text.lines() {
        lines += 1;
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => {
                urls.insert(v["url"].as_str().unwrap_or_default().to_owned());
            }
            Err(_) => torn += 1,
        }
    }
    let check = ResumeCheck {
        lines,
        distinct: urls.len(),
        torn,
    };
    if check.torn > 0 || check.lines as u64 != pages || check.distinct != check.lines {
        bail!(
            "resumed pages.jsonl: {} lines ({} torn, {} distinct URLs), expected {pages}",
            check.lines,
            check.torn,
            check.distinct
        );
    }
    Ok(check)
}

/// One row per round page count: pages, throughput and true harvest
/// since the previous row, resident memory, its peak and the bound.
fn table(o: &mut String, first: &str, samples: &[Sample], every: u64) -> Result<()> {
    writeln!(
        o,
        "| {first} | pages/s since previous row | true harvest since previous row \
         | VmRSS MB | VmHWM MB | bound MB |"
    )?;
    writeln!(o, "|---|---|---|---|---|---|")?;
    for row in rows(samples, every) {
        let x = row.at;
        writeln!(
            o,
            "| {} | {} | {} | {:.0} | {:.0} | {:.0} |",
            x.pages,
            row.rate.map_or("-".into(), |r| format!("{r:.0}")),
            row.harvest.map_or("-".into(), |h| format!("{h:.3}")),
            x.rss_mb,
            x.hwm_mb,
            bound_mb(x.pages)
        )?;
    }
    Ok(())
}

/// A sample at a round page count.
struct Row {
    at: Sample,
    /// Pages per second since the previous row.
    rate: Option<f64>,
    /// Relevant pages per page since the previous row.
    harvest: Option<f64>,
}

/// Samples at round page counts, with the throughput and harvest since
/// the previous row.
fn rows(samples: &[Sample], every: u64) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let mut next = every;
    for x in samples {
        if x.pages >= next {
            let since = out.last().map(|r| r.at);
            out.push(Row {
                at: *x,
                rate: since.map(|p| (x.pages - p.pages) as f64 / (x.secs - p.secs).max(1e-9)),
                harvest: since.map(|p| {
                    x.relevant.saturating_sub(p.relevant) as f64
                        / x.pages.saturating_sub(p.pages).max(1) as f64
                }),
            });
            next = (x.pages / every + 1) * every;
        }
    }
    out
}

/// The two dispatch rules side by side at round page counts: relevant
/// pages found so far (counted in each crawl's `pages.jsonl`) and seconds
/// taken (interpolated between the samples either side; the summary's
/// elapsed time at the crawl's last page).
fn dispatch_table(
    o: &mut String,
    (held, held_out, held_end): (&[Sample], &Path, &Summary),
    (filled, filled_out, filled_end): (&[Sample], &Path, &Summary),
    every: u64,
) -> Result<()> {
    writeln!(
        o,
        "| pages fetched | default: relevant pages found | default: s | \
         `--dispatch fill`: relevant pages found | `fill`: s |"
    )?;
    writeln!(o, "|---|---|---|---|---|")?;
    let (h_found, f_found) = (
        relevant_every(held_out, every)?,
        relevant_every(filled_out, every)?,
    );
    for (i, (h, f)) in h_found.iter().zip(&f_found).enumerate() {
        let at = (i as u64 + 1) * every;
        let secs = |samples: &[Sample], end: &Summary| {
            secs_at(samples, end, at).map_or("-".into(), |t| format!("{t:.0}"))
        };
        writeln!(
            o,
            "| {at} | {h} | {} | {f} | {} |",
            secs(held, held_end),
            secs(filled, filled_end)
        )?;
    }
    Ok(())
}

/// When the crawl had fetched `pages` pages, interpolated between the
/// samples either side; its summary (pages and elapsed time at the end)
/// is the last point, so pages fetched after the last sample have a time.
/// The two clocks start apart: the samples' at the process's start, the
/// summary's when the engine starts, after the set-up (about 0.6 s on the
/// million-page web: the websim is built lazily), under the table's
/// whole seconds.
fn secs_at(samples: &[Sample], end: &Summary, pages: u64) -> Option<f64> {
    let points: Vec<(u64, f64)> = samples
        .iter()
        .map(|x| (x.pages, x.secs))
        .chain([(end.pages_fetched, end.elapsed_s)])
        .collect();
    let after = points.iter().position(|&(p, _)| p >= pages)?;
    let (pb, tb) = points[after];
    let Some((pa, ta)) = after.checked_sub(1).map(|i| points[i]) else {
        return Some(tb);
    };
    let span = pb.saturating_sub(pa).max(1) as f64;
    Some(ta + (tb - ta) * pages.saturating_sub(pa) as f64 / span)
}

fn peak(samples: &[Sample]) -> Sample {
    samples
        .iter()
        .copied()
        .fold(samples[0], |a, b| if b.hwm_mb > a.hwm_mb { b } else { a })
}

fn report(s: &Scale, runs: &Runs, check: &ResumeCheck, commit: &str) -> Result<String> {
    let (a, straight) = &runs.straight;
    let (b1, (b2, resumed)) = (&runs.killed, &runs.resumed);
    let held_empty = runs.held.as_ref().is_some_and(|(h, _)| h.is_empty());
    if a.is_empty() || held_empty || b1.is_empty() || b2.is_empty() {
        bail!("no samples: the crawl ended within a second");
    }
    let mut o = String::new();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    writeln!(
        o,
        "# A long crawl: memory, throughput and resume after SIGKILL\n"
    )?;
    // What the command line adds, and where the default dispatch is.
    let (flag, default_at) = if s.compare_default {
        (" --compare-default", "the default is set beside it below")
    } else {
        (
            "",
            "`--compare-default` sets it beside this crawl; `docs/crawl.md`, \
             \"Dispatch at scale\"",
        )
    };
    writeln!(
        o,
        "Written by `cargo xtask scale{flag}` (defaults: `--pages 200000 --web 1000000 \
         --frontier-memory 10000 --kill-at 100000`) at commit {commit} on a {cpus}-CPU \
         machine; the crawl \
         is `target/release/focus-soft {}` (the websim runs in the same process). \
         Every batch is filled (`--dispatch fill`): the default dispatch waits, once \
         the topic runs low, on the few hosts that hold the crawl's most promising \
         URLs (robots.txt `Crawl-delay`), so its pace would measure those waits, not \
         what the crawl's work costs as it grows ({default_at}). \
         Resident memory is the process's VmRSS and its peak VmHWM, read from \
         `/proc` every second and when the crawl reaches its last page; the bound \
         is the one `docs/crawl.md` states: \
         {BOUND_FIXED_MB} MB + {BOUND_PER_PAGE_KB} kB per fetched page. True harvest \
         is the share of fetches the websim's truth marks relevant.\n",
        s.args(Path::new("OUT")).join(" "),
    )?;
    writeln!(o, "## Straight through\n")?;
    let every = (s.pages / 10).max(1);
    table(&mut o, "pages fetched", a, every)?;
    let sa = summary(straight)?;
    crawl_line(&mut o, a, &sa)?;
    if let Some((h, held)) = &runs.held {
        writeln!(o, "## The default dispatch against `--dispatch fill`\n")?;
        writeln!(
            o,
            "The default dispatch (`promising`) keeps a batch's room for hosts holding \
             URLs at least as promising as the crawl's recent harvest while they wait \
             out a politeness interval (here robots.txt `Crawl-delay`), rather than \
             fetch worse URLs from hosts that are ready; `--dispatch fill` fills every \
             batch. The same crawl both ways (the default without `--dispatch fill`):\n"
        )?;
        let sh = summary(held)?;
        dispatch_table(&mut o, (h, held, &sh), (a, straight, &sa), every)?;
        writeln!(o, "\nWith the default dispatch:\n")?;
        table(&mut o, "pages fetched", h, every)?;
        crawl_line(&mut o, h, &sh)?;
    }
    writeln!(o, "## Killed with SIGKILL and resumed\n")?;
    let (p1, p2) = (peak(b1), peak(b2));
    let sb = summary(resumed)?;
    let killed_at = b1.last().map_or(0, |x| x.pages);
    writeln!(
        o,
        "Killed at {killed_at} lines of `pages.jsonl`; peak before the kill {:.0} MB, \
         after `--resume` {:.0} MB (at {} pages; bound {:.0} MB). The resumed \
         `pages.jsonl` has {} lines, all whole, {} distinct URLs. Summary: {} pages, \
         true harvest {:.3} (straight through: {:.3}), frontier left {} ({}).\n",
        p1.hwm_mb,
        p2.hwm_mb,
        p2.pages,
        bound_mb(p2.pages),
        check.lines,
        check.distinct,
        sb.pages_fetched,
        sb.harvest_rate_true.unwrap_or(0.0),
        sa.harvest_rate_true.unwrap_or(0.0),
        sb.frontier_left,
        sa.frontier_left,
    )?;
    // Before the resumed crawl has rewritten pages.jsonl the line count is
    // the killed crawl's: its rows start past the kill.
    let after: Vec<Sample> = b2.iter().copied().filter(|x| x.pages > killed_at).collect();
    table(&mut o, "after resume: pages fetched", &after, every)?;
    Ok(o)
}

/// A crawl's peak memory and its summary, after its table.
fn crawl_line(o: &mut String, samples: &[Sample], summary: &Summary) -> Result<()> {
    let p = peak(samples);
    writeln!(
        o,
        "\nPeak {:.0} MB (bound at {} pages: {:.0} MB). Summary: {} pages in {:.0} s \
         ({:.0} pages/s), true harvest {:.3}, frontier left {}.\n",
        p.hwm_mb,
        p.pages,
        bound_mb(p.pages),
        summary.pages_fetched,
        summary.elapsed_s,
        summary.pages_per_s,
        summary.harvest_rate_true.unwrap_or(0.0),
        summary.frontier_left,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(secs: f64, pages: u64) -> Sample {
        Sample {
            secs,
            pages,
            relevant: 0,
            rss_mb: 0.0,
            hwm_mb: 0.0,
            cpu_s: 0.0,
        }
    }

    #[test]
    fn the_measured_crawl_fills_its_batches_and_the_default_is_asked_for() {
        let args = |a: &[&str]| a.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        let s = Scale::parse(&args(&["--pages", "1000", "--kill-at", "500"])).unwrap();
        assert!(!s.compare_default);
        let out = Path::new("OUT");
        assert!(s.args(out).windows(2).any(|w| w == ["--dispatch", "fill"]));
        assert!(!s
            .default_dispatch_args(out)
            .contains(&"--dispatch".to_owned()));
        let s = Scale::parse(&args(&[
            "--compare-default",
            "--pages",
            "1000",
            "--kill-at",
            "500",
        ]))
        .unwrap();
        assert!(s.compare_default && s.pages == 1000 && s.kill_at == 500);
        assert!(Scale::parse(&args(&["--pages"])).is_err());
        assert!(Scale::parse(&args(&["--kill-at", "300000"])).is_err());
    }

    #[test]
    fn the_time_a_page_count_was_reached_is_interpolated() {
        let samples = [sample(1.0, 100), sample(2.0, 300), sample(3.0, 400)];
        let end = Summary {
            pages_fetched: 600,
            elapsed_s: 5.0,
            ..Summary::default()
        };
        assert_eq!(secs_at(&samples, &end, 200), Some(1.5));
        assert_eq!(
            secs_at(&samples, &end, 50),
            Some(1.0),
            "before the first sample"
        );
        assert_eq!(
            secs_at(&samples, &end, 500),
            Some(4.0),
            "after the last sample"
        );
        assert_eq!(secs_at(&samples, &end, 700), None, "never reached");
    }

    #[test]
    fn rows_give_throughput_and_harvest_since_the_previous_row() {
        let mut samples = vec![sample(1.0, 1_000), sample(3.0, 2_100)];
        samples[0].relevant = 900;
        samples[1].relevant = 1_450;
        let rows = rows(&samples, 1_000);
        assert_eq!(rows.len(), 2);
        assert!(rows[0].rate.is_none() && rows[0].harvest.is_none());
        assert_eq!(rows[1].rate, Some(550.0));
        assert_eq!(rows[1].harvest, Some(0.5));
    }
}
