//! Our crawler against a generic Rust crawler on the same static site:
//! nginx (Debian's package) serves the websim written out as files
//! (`websim export`) on loopback; the `spider` crate (`bench/spider`, a
//! separate Cargo project) and `focus-soft --baseline bfs` (analysis and
//! classification on) crawl it from `/` with the same concurrency and no
//! politeness delay, in rotating order, each under GNU time; wrk
//! measures the server's own ceiling in the same run. A third crawler,
//! `spider-judge` (`bench/spider`'s second binary), is `spider` doing our
//! per-page work on every page, so the two crawlers are also compared
//! doing the same work. Pages are counted by the server (its access log),
//! the same way for every crawler. The crawls themselves are
//! `peer_crawl.rs`'s; this file runs them and writes the loopback report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use super::latency::Latency;
use super::nginx::Nginx;
use super::peer_crawl::{crawl, first_folder, prepare, Crawler, Run, Setup, Summary};
use super::process::{spread, Log};

/// The settings of the comparison.
pub(crate) struct PeerSettings {
    /// Pages of the generated site.
    pub(crate) site_pages: u32,
    /// Requests in flight, for both crawlers and the load tool.
    pub(crate) concurrency: usize,
    /// Runs of each crawler.
    pub(crate) runs: usize,
    /// Median delay of the comparison through `websim delay`, in
    /// milliseconds (0: that comparison is not run).
    pub(crate) latency_ms: u64,
}

/// Run the comparison (`focus-soft` and `websim` already built with
/// `--release`); returns the report section.
pub(crate) fn run(root: &Path, s: &PeerSettings, log: &mut Log) -> Result<String> {
    let missing = |tool: &str| {
        anyhow::anyhow!("`{tool}` is not installed (Debian: apt-get install nginx wrk time)")
    };
    let nginx = which("nginx").ok_or_else(|| missing("nginx"))?;
    which("wrk").ok_or_else(|| missing("wrk"))?;
    if !Path::new(super::process::GNU_TIME).is_file() {
        return Err(missing(super::process::GNU_TIME));
    }
    let setup = prepare(root, s, nginx, log)?;
    let home = first_host_home(&setup.site)?;
    let ceiling = wrk(&setup, &home, s.concurrency, log)?;
    let mut runs: [Runs; 3] = Default::default();
    for r in 0..s.runs {
        // Rotate who goes first, so none always meets a warm cache.
        for k in 0..Crawler::ALL.len() {
            let i = (r + k) % Crawler::ALL.len();
            let (who, runs) = (Crawler::ALL[i], &mut runs[i]);
            runs.whole
                .push(crawl(&setup, r, who, s.concurrency, None, None, log)?);
            // The same process stopped after one page: what it holds before
            // the crawl grows (start-up, and the first page's links).
            runs.one_page
                .push(crawl(&setup, r, who, s.concurrency, Some(1), None, log)?);
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let [ours, theirs, judged] = &runs;
    let mut o = report(s, &setup, ceiling, cores, ours, theirs, judged)?;
    if s.latency_ms > 0 {
        let latency = Latency {
            median_ms: s.latency_ms,
        };
        writeln!(o, "\n### With latency\n")?;
        o.push_str(&super::latency::run(&setup, s, &latency, log)?);
    }
    Ok(o)
}

/// One crawler's runs: whole crawls, and crawls stopped after one page.
#[derive(Default)]
struct Runs {
    whole: Vec<Run>,
    one_page: Vec<Run>,
}

/// The server's ceiling: requests per second for one page of the site.
fn wrk(setup: &Setup, page: &str, concurrency: usize, log: &mut Log) -> Result<f64> {
    let dir = setup.work.join("wrk");
    std::fs::create_dir_all(&dir)?;
    let server = Nginx::start(&setup.served(), &dir, log)?;
    let mut cmd = Command::new("wrk");
    cmd.args(["-t2", &format!("-c{concurrency}"), "-d10s"])
        .arg(format!("http://127.0.0.1:{}{page}", setup.port));
    log.note(&cmd);
    let out = cmd.output().context("starting wrk");
    server.stop()?;
    let out = out?;
    let text = String::from_utf8_lossy(&out.stdout);
    std::fs::write(dir.join("wrk.log"), text.as_bytes())?;
    text.lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .with_context(|| format!("no Requests/sec in wrk's output:\n{text}"))
}

fn report(
    s: &PeerSettings,
    setup: &Setup,
    ceiling: f64,
    cores: usize,
    ours: &Runs,
    theirs: &Runs,
    judged: &Runs,
) -> Result<String> {
    let mut o = String::new();
    writeln!(
        o,
        "nginx serves the websim of {} pages written out as static files (`websim export`) \
         on 127.0.0.1, one worker process; each crawler starts at `/` and crawls until it \
         finds nothing new, with {} requests in flight and no delay, {} runs each in \
         rotating order (each run, the next crawler goes first). Pages are the 200 \
         responses in nginx's access log; \
         pages/s is pages over the process's whole wall time (start-up, classifier \
         training and writing the output included); CPU and peak resident memory are GNU \
         time's for the crawler's process. Our crawler is `focus-soft --baseline bfs` \
         (every page parsed, tokenised, classified against the example set's {} topics \
         and stored), with `--connect-to ::127.0.0.1:PORT` since its fetcher refuses \
         loopback addresses unless the operator routes to them; `spider` gathers \
         links; `spider-judge` is `spider`'s crawl doing our per-page work on every page \
         it receives (`bench/spider`: trained on the same examples, it parses, featurises, \
         classifies and fingerprints each page with the focus crates, on rayon while the \
         crawl goes on, with our allocator; it keeps no store and writes no output). Each run is followed by the same crawler stopped after one page \
         (`--max-pages 1`; spider's `with_limit(1)`): its peak is what the process holds \
         before the crawl grows (start-up, the trained classifier and store for ours, and \
         the site's index page with its links for both), and the growth beyond it is what \
         the crawl itself costs in memory.\n",
        s.site_pages,
        s.concurrency,
        s.runs,
        count_folders(&setup.examples),
    )?;
    writeln!(
        o,
        "The server's ceiling, wrk with {} connections for 10 s on one page: \
         **{ceiling:.0} requests/s**.\n",
        s.concurrency
    )?;
    writeln!(
        o,
        "| crawler | pages (404s) | pages/s min / median / max | CPU s per 1,000 pages | peak RSS MB | peak RSS MB, one page | growth beyond one page: MB, KB per page |"
    )?;
    writeln!(o, "|---|---|---|---|---|---|---|")?;
    let mut rows = Vec::new();
    for (who, runs) in Crawler::ALL.into_iter().zip([ours, theirs, judged]) {
        let name = who.row_name();
        let Summary {
            pages,
            missing,
            rate: (lo, mid, hi),
            cpu_per_1000: cpu_mid,
            peak_rss_mb: whole,
        } = Summary::of(&runs.whole);
        let one = Summary::of(&runs.one_page).peak_rss_mb;
        let growth = whole - one;
        writeln!(
            o,
            "| {name} | {pages} ({missing}) | {lo:.0} / **{mid:.0}** / {hi:.0} | {:.2} | {whole:.0} | {one:.0} | {growth:.0}, {:.1} |",
            cpu_mid,
            growth * 1024.0 / pages.max(1) as f64,
        )?;
        rows.push((mid, whole, growth, cpu_mid));
    }
    // Medians per page served, so each run's value is of the same measure
    // whatever it fetched.
    let per_page = |runs: &[Run], pick: fn(&focus_core::Summary) -> f64| {
        let v: Vec<f64> = runs
            .iter()
            .filter_map(|r| Some(pick(r.own.as_ref()?) / r.served.ok.max(1) as f64))
            .collect();
        spread(&v).1
    };
    let ours_cpu = rows.first().map_or(0.0, |r| r.3);
    let (judge, apply) = (
        1000.0 * per_page(&ours.whole, |s| s.judge_busy_s),
        1000.0 * per_page(&ours.whole, |s| s.apply_busy_s),
    );
    writeln!(
        o,
        "\nWhere our CPU goes (medians, seconds per 1,000 pages; `summary.json`'s \
         `judge_busy_s` and `apply_busy_s`): judging pages (parse, tokenise, classify, \
         fingerprint; on rayon, in parallel) **{judge:.2}**; applying them in crawl order \
         (link scoring, frontier, store, `pages.jsonl`; one sequential stage) **{apply:.2}**; \
         the rest of the process's {:.2} (fetching, HTTP, the runtimes, start-up and \
         training) **{:.2}**.",
        ours_cpu,
        ours_cpu - judge - apply,
    )?;
    let store_kb = per_page(&ours.whole, |s| s.store_bytes as f64) / 1024.0;
    let pages = ours.whole.first().map_or(0, |r| r.served.ok);
    writeln!(
        o,
        "\nOur crawl also writes every page's record, links and queue to its store as \
         it goes, so a killed crawl resumes: **{store_kb:.1} KB per page** on disk when \
         the crawl ended (median; {:.0} MB for {pages} pages; `summary.json`'s \
         `store_bytes`). `spider` keeps its crawl in memory and writes nothing.",
        store_kb * pages as f64 / 1024.0,
    )?;
    if let [(ours_rate, ours_rss, ours_growth, ours_cpu), (their_rate, their_rss, their_growth, their_cpu), (judged_rate, judged_rss, _, judged_cpu)] =
        rows[..]
    {
        writeln!(
            o,
            "\nMedian pages/s, ours ÷ spider: **{:.2}**; peak memory, ours ÷ spider: **{:.2}**; \
             memory growth beyond one page, ours ÷ spider: **{:.2}**.",
            ours_rate / their_rate,
            ours_rss / their_rss,
            ours_growth / their_growth.max(1e-9)
        )?;
        writeln!(o, "\n{}", cpu_bound(cores, ours_cpu, their_cpu, their_rate))?;
        writeln!(
            o,
            "\nDoing the same per-page work (`spider-judge`): median pages/s, ours ÷ \
             spider-judge: **{:.2}**; CPU per page, ours ÷ spider-judge: **{:.2}**; peak \
             memory, ours ÷ spider-judge: **{:.2}**.",
            ours_rate / judged_rate.max(1e-9),
            ours_cpu / judged_cpu.max(1e-9),
            ours_rss / judged_rss.max(1e-9)
        )?;
    }
    Ok(o)
}

/// The most pages/s each crawler's CPU per page allows on `cores` cores
/// (every core busy with the crawl all the time, none left to the
/// server), and whether ours could reach `spider`'s measured rate at all:
/// below it, the gap is the work each page costs, not how the stages
/// share the cores.
fn cpu_bound(
    cores: usize,
    ours_cpu_per_1000: f64,
    their_cpu_per_1000: f64,
    their_rate: f64,
) -> String {
    let bound = |cpu_per_1000: f64| cores as f64 * 1000.0 / cpu_per_1000.max(1e-9);
    let (ours, theirs) = (bound(ours_cpu_per_1000), bound(their_cpu_per_1000));
    let ratio = ours / their_rate.max(1e-9);
    let verdict = if ratio < 1.0 {
        "below 1: at its CPU per page, our crawler could not match spider's pages/s on this \
         machine even with every core busy all the time, so no overlap of the crawl's stages \
         closes the gap; only less work per page does"
    } else {
        "at least 1: the gap is how the crawl keeps the cores busy, not the work per page"
    };
    format!(
        "CPU-bound ceiling on this machine's {cores} cores (cores ÷ CPU s per page; the \
         server's own CPU not subtracted, so an upper bound): ours **{ours:.0}** pages/s, \
         spider **{theirs:.0}**. Our ceiling ÷ spider's measured pages/s: **{ratio:.2}**, \
         {verdict}."
    )
}

/// The path of the first host's home page on the site (for wrk).
fn first_host_home(site: &Path) -> Result<String> {
    Ok(format!("/{}/", first_folder(site)?))
}

/// Leaf folders (topics) under `dir`.
fn count_folders(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let subs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    if subs.is_empty() {
        return 1;
    }
    subs.iter().map(|p| count_folders(p)).sum()
}

/// The path of `tool` on `PATH`, if any.
pub(crate) fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::peer_crawl::tests::run;

    #[test]
    fn the_report_sets_memory_growth_beyond_one_page_beside_the_peaks() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup {
            work: dir.path().into(),
            site: dir.path().into(),
            focus_soft: PathBuf::new(),
            websim: PathBuf::new(),
            spider: PathBuf::new(),
            spider_judge: PathBuf::new(),
            examples: dir.path().into(),
            good: "arts".into(),
            port: 0,
            nginx: PathBuf::new(),
        };
        let s = PeerSettings {
            site_pages: 1024,
            concurrency: 32,
            runs: 1,
            latency_ms: 0,
        };
        let ours = Runs {
            whole: vec![run(1024, 2.0, 60.0)],
            one_page: vec![run(1, 0.1, 40.0)],
        };
        let theirs = Runs {
            whole: vec![run(1024, 1.0, 15.0)],
            one_page: vec![run(1, 0.1, 10.0)],
        };
        let judged = Runs {
            whole: vec![run(1024, 2.5, 120.0)],
            one_page: vec![run(1, 0.1, 20.0)],
        };
        let md = report(&s, &setup, 1000.0, 2, &ours, &theirs, &judged).unwrap();
        // 20 MB over 1,024 pages: 20 KB a page.
        assert!(
            md.contains("| focus-soft --baseline bfs | 1024 (0) | 512 / **512** / 512 | 1.95 | 60 | 40 | 20, 20.0 |"),
            "{md}"
        );
        assert!(
            md.contains("| spider | 1024 (0) | 1024 / **1024** / 1024 | 0.98 | 15 | 10 | 5, 5.0 |"),
            "{md}"
        );
        // 2 s of CPU over 1,024 pages: judging 0.5 s, applying 0.25 s.
        assert!(
            md.contains("fingerprint; on rayon, in parallel) **0.49**; applying"),
            "{md}"
        );
        assert!(md.contains("the rest of the process's 1.95"), "{md}");
        assert!(md.contains("start-up and training) **1.22**."), "{md}");
        // 2,048 bytes a page.
        assert!(
            md.contains(
                "**2.0 KB per page** on disk when the crawl ended (median; 2 MB for 1024 pages;"
            ),
            "{md}"
        );
        assert!(
            md.contains("ours ÷ spider: **0.50**; peak memory, ours ÷ spider: **4.00**; memory growth beyond one page, ours ÷ spider: **4.00**."),
            "{md}"
        );
        assert!(
            md.contains(
                "| spider-judge | 1024 (0) | 410 / **410** / 410 | 2.44 | 120 | 20 | 100, 100.0 |"
            ),
            "{md}"
        );
        assert!(
            md.contains("ours ÷ spider-judge: **1.25**; CPU per page, ours ÷ spider-judge: **0.80**; peak memory, ours ÷ spider-judge: **0.50**."),
            "{md}"
        );
        // 2 cores over 1.95 ms a page: 1,024 pages/s, spider's measured rate.
        assert!(
            md.contains("ours **1024** pages/s, spider **2048**. Our ceiling ÷ spider's measured pages/s: **1.00**, at least 1"),
            "{md}"
        );
    }

    #[test]
    fn a_ceiling_below_the_peers_rate_says_only_less_work_closes_the_gap() {
        // 2026-11-29's report: 0.24 and 0.15 CPU s per 1,000 pages, spider 9,710 pages/s.
        let line = cpu_bound(2, 0.24, 0.15, 9710.0);
        assert!(
            line.contains("ours **8333** pages/s, spider **13333**"),
            "{line}"
        );
        assert!(line.contains("**0.86**, below 1"), "{line}");
        assert!(cpu_bound(4, 0.24, 0.15, 9710.0).contains("**1.72**, at least 1"));
    }
}
