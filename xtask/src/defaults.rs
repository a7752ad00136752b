//! `cargo xtask defaults`: the default `focus-soft` crawl beside the
//! configurations it replaced and beside `--dispatch fill`, on the embedded
//! websim: webs 1-3 with and without four in five cross-host links dead,
//! and the cycling and mutual funds leaves. Every
//! crawl is a release `focus-soft` run (5,000 pages, [`JOBS`] at a time,
//! each in its own process with its own websim) with the flags shown
//! in the table; the numbers come from its `summary.json` and
//! `pages.jsonl`. Writes `docs/results/websim-defaults.md`, the table
//! `docs/crawl.md` cites for every change of the default crawl.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use focus_core::contract::ROBOTS_DISALLOWED;
use focus_core::PageLine;

use crate::{run_cargo, watch};

/// The configurations compared: a name and `focus-soft`'s flags.
const CONFIGS: [(&str, &[&str]); 5] = [
    ("default", &[]),
    (
        "link model, no centroid floor (`--child-priority apprentice`)",
        &["--child-priority", "apprentice"],
    ),
    (
        "tempered relevance, no link model (`--child-priority learnt`)",
        &["--child-priority", "learnt"],
    ),
    (
        "previous default (`--relevance exact --child-priority learnt`)",
        &["--relevance", "exact", "--child-priority", "learnt"],
    ),
    (
        "default with batches always filled (`--dispatch fill`)",
        &["--dispatch", "fill"],
    ),
];

/// The crawls of each configuration: a label and their own flags.
const CRAWLS: [(&str, &[&str]); 8] = [
    ("web 1", &["--seed", "1"]),
    ("web 2", &["--seed", "2"]),
    ("web 3", &["--seed", "3"]),
    (
        "web 1, 80 % dead",
        &["--seed", "1", "--websim-dead-links", "80"],
    ),
    (
        "web 2, 80 % dead",
        &["--seed", "2", "--websim-dead-links", "80"],
    ),
    (
        "web 3, 80 % dead",
        &["--seed", "3", "--websim-dead-links", "80"],
    ),
    (
        "web 1, cycling leaf",
        &["--seed", "1", "--good", "recreation/outdoors/cycling"],
    ),
    (
        "web 1, mutual funds leaf",
        &["--seed", "1", "--good", "business/investment/mutual_funds"],
    ),
];

/// Crawls run at once. Most of a crawl's time is spent waiting out
/// `Crawl-delay` hosts on the logical clock, so several share the machine
/// well: one at a time the table took 83 minutes, four at a time 31 (the
/// same results; only the pages/s of crawls that do not wait moved).
const JOBS: usize = 4;

/// Fetch attempts before the error share is counted (the first tries of a
/// crawl's first hosts are not yet anything it could have learnt from).
const WARM_UP: usize = 500;

/// What one crawl measured.
struct Measured {
    harvest: f64,
    pages_per_s: f64,
    last_1000: f64,
    failed: u64,
    errors_after_warm_up: f64,
    harvest_per_success: f64,
}

fn measure(out: &Path) -> Result<Measured> {
    let summary = watch::summary(out).context("summary.json")?;
    let text = std::fs::read_to_string(out.join("pages.jsonl")).context("pages.jsonl")?;
    let lines: Vec<PageLine> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(PageLine::parse)
        .collect::<Result<_, _>>()
        .context("pages.jsonl")?;
    // A URL robots.txt forbids is recorded but never requested.
    let requested: Vec<&PageLine> = lines
        .iter()
        .skip(WARM_UP)
        .filter(|l| l.error.as_deref() != Some(ROBOTS_DISALLOWED))
        .collect();
    let errors = requested.iter().filter(|l| l.error.is_some()).count();
    let successes = lines.iter().filter(|l| l.error.is_none()).count();
    let relevant = lines
        .iter()
        .filter(|l| l.relevant_true == Some(true))
        .count();
    Ok(Measured {
        harvest: summary.harvest_rate_true.unwrap_or(0.0),
        pages_per_s: summary.pages_per_s,
        last_1000: summary.harvest_rate_true_last_1000.unwrap_or(0.0),
        failed: summary.failed_fetches,
        errors_after_warm_up: errors as f64 / requested.len().max(1) as f64,
        harvest_per_success: relevant as f64 / successes.max(1) as f64,
    })
}

pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    if let Some(a) = args.first() {
        bail!("`cargo xtask defaults` takes no arguments (got {a})");
    }
    let commit = crate::commit(root);
    run_cargo(root, &["build", "--release", "-p", "focus-soft"])?;
    let exe = root.join("target/release/focus-soft");
    let work = root.join("target/defaults");
    let started = Instant::now();
    // Every (configuration, crawl) pair, taken in turn by JOBS workers;
    // the first failure is reported once the crawls running then end.
    let jobs: Vec<(usize, usize)> = (0..CONFIGS.len())
        .flat_map(|c| (0..CRAWLS.len()).map(move |i| (c, i)))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Measured>>>> =
        Mutex::new(jobs.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..JOBS {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(c, i)) = jobs.get(k) else { break };
                let r = crawl(&exe, &work, c, i);
                if r.is_err() {
                    // No crawl starts after one has failed.
                    next.store(jobs.len(), Ordering::SeqCst);
                }
                if let Ok(mut all) = results.lock() {
                    all[k] = Some(r);
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a crawl's worker panicked"))?
        .into_iter();
    let mut rows: Vec<Vec<Measured>> = Vec::new();
    for _ in CONFIGS {
        let mut row = Vec::new();
        for _ in CRAWLS {
            row.push(results.next().flatten().context("a crawl did not run")??);
        }
        rows.push(row);
    }
    let md = render(&rows, started.elapsed().as_secs(), &commit);
    let path = root.join("docs/results/websim-defaults.md");
    std::fs::write(&path, md).with_context(|| format!("writing {}", path.display()))?;
    println!("written to {}", path.display());
    Ok(())
}

/// Runs configuration `c`'s crawl `i` into its own folder under `work`.
fn crawl(exe: &Path, work: &Path, c: usize, i: usize) -> Result<Measured> {
    let (name, flags) = CONFIGS[c];
    let (label, own) = CRAWLS[i];
    let out = work.join(format!("config-{c}-crawl-{i}"));
    if out.exists() {
        std::fs::remove_dir_all(&out)?;
    }
    println!("{name}: {label}");
    let status = Command::new(exe)
        .args(own)
        .args(flags)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("running {}", exe.display()))?;
    if !status.success() {
        bail!("focus-soft {own:?} {flags:?} failed ({status})");
    }
    measure(&out)
}

fn render(rows: &[Vec<Measured>], secs: u64, commit: &str) -> String {
    let mut md =
        String::from("# The default soft crawl on the websim, beside what it replaced\n\n");
    let _ = writeln!(
        md,
        "Generated by `cargo xtask defaults` at commit {commit} ({secs} s on this \
         machine, {JOBS} crawls at a time): release \
         `focus-soft` crawls of 5,000 pages of the embedded websim (good topic \
         `recreation/outdoors` unless the row says otherwise) with each configuration's \
         flags plus the row's (`--seed S`, `--websim-dead-links 80`, `--good \
         recreation/outdoors/cycling`, `--good business/investment/mutual_funds`). Cells: \
         true harvest / true harvest of the last 1,000 pages / fetches spent on errors \
         (`failed_fetches`) / pages per second (the websim answers in microseconds, so \
         they measure the engine and its waits on hosts that ask for a `Crawl-delay`; \
         with other crawls running beside it, a crawl that does not wait is slower than \
         alone). \
         The dead-link rows \
         add the share of requests after the first {WARM_UP} that failed (URLs robots.txt \
         forbids excluded), the true harvest per successful fetch, and the true harvest \
         relative to the same web without dead links.\n"
    );
    let _ = write!(md, "| crawl |");
    for (name, _) in CONFIGS {
        let _ = write!(md, " {name} |");
    }
    let _ = write!(md, "\n|---|");
    for _ in CONFIGS {
        md.push_str("---|");
    }
    md.push('\n');
    for (i, (label, _)) in CRAWLS.iter().enumerate() {
        let _ = write!(md, "| {label} |");
        for row in rows {
            let m = &row[i];
            let _ = write!(
                md,
                " {:.3} / {:.3} / {} / {:.0} pages/s",
                m.harvest, m.last_1000, m.failed, m.pages_per_s
            );
            // Rows 3-5 are webs 1-3 with dead links; rows 0-2 the same webs.
            if (3..6).contains(&i) {
                let live = &row[i - 3];
                let _ = write!(
                    md,
                    "; errors after {WARM_UP}: {:.3}, per success {:.3}, {:+.1} % of live",
                    m.errors_after_warm_up,
                    m.harvest_per_success,
                    100.0 * (m.harvest / live.harvest.max(1e-9) - 1.0)
                );
            }
            md.push_str(" |");
        }
        md.push('\n');
    }
    md
}
