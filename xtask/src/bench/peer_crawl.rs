//! One crawl of the peer comparison's static site: what the comparison
//! sets up (the site, the example set, the binaries, nginx's port), the
//! crawlers it runs, one crawler's run under GNU time with the pages the
//! server saw, and what several runs of a crawler come to. Shared by the
//! loopback comparison (`peers.rs`) and the one with latency
//! (`latency.rs`); the reports are theirs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use super::latency::{DelayProxy, Latency};
use super::nginx::{free_port, Nginx, Served, Site};
use super::peers::PeerSettings;
use super::process::{cargo, spread, Log, Measured};

/// One crawler's run as the server saw it, and for ours its
/// `summary.json` (the seconds spent judging and applying pages, the
/// store's bytes on disk).
pub(super) struct Run {
    pub(super) measured: Measured,
    pub(super) served: Served,
    pub(super) own: Option<focus_core::Summary>,
}

/// The binaries and files the comparison uses.
pub(super) struct Setup {
    pub(super) work: PathBuf,
    pub(super) site: PathBuf,
    pub(super) focus_soft: PathBuf,
    pub(super) websim: PathBuf,
    pub(super) spider: PathBuf,
    pub(super) spider_judge: PathBuf,
    pub(super) examples: PathBuf,
    pub(super) good: String,
    /// nginx's port.
    pub(super) port: u16,
    pub(super) nginx: PathBuf,
}

impl Setup {
    /// What nginx serves in this comparison.
    pub(super) fn served(&self) -> Site<'_> {
        Site {
            exe: &self.nginx,
            root: &self.site,
            port: self.port,
        }
    }
}

/// Builds `bench/spider`, writes the site and samples the example set
/// from it (`websim export`, `websim sample`) into a fresh work folder,
/// and picks nginx's port.
pub(super) fn prepare(
    root: &Path,
    s: &PeerSettings,
    nginx: PathBuf,
    log: &mut Log,
) -> Result<Setup> {
    let work = crate::fresh_work_dir(root, "bench/peers")?;
    let spider_target = root.join("target/bench-spider");
    let mut build = cargo(
        root,
        &[
            "build",
            "--release",
            "--manifest-path",
            "bench/spider/Cargo.toml",
            "--target-dir",
        ],
    );
    build.arg(&spider_target);
    log.run(&mut build, &work.join("build-spider.log"))?;

    let websim = root.join("target/release/websim");
    let site = work.join("site");
    let examples = work.join("examples");
    let pages = s.site_pages.to_string();
    let mut export = Command::new(&websim);
    export
        .args(["--pages", &pages, "export", "--out"])
        .arg(&site);
    log.run(&mut export, &work.join("export.log"))?;
    let mut sample = Command::new(&websim);
    sample
        .args(["--pages", &pages, "sample", "--per-topic", "20", "--out"])
        .arg(&examples);
    log.run(&mut sample, &work.join("sample.log"))?;
    if count_files(&examples) == 0 {
        bail!(
            "`websim sample` found no example pages on a {pages}-page site, so our crawler \
             would have nothing to train on: give a larger --site-pages (the default is 10000)"
        );
    }
    let good = first_folder(&examples)?;
    Ok(Setup {
        work,
        site,
        focus_soft: root.join("target/release/focus-soft"),
        websim,
        spider: spider_target.join("release/spider-peer"),
        spider_judge: spider_target.join("release/spider-judge"),
        examples,
        good,
        port: free_port()?,
        nginx,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Crawler {
    Ours,
    /// Ours with `--flow stream`: every slot refilled as its page arrives.
    OursStream,
    Spider,
    /// `spider` doing our per-page work (`bench/spider/src/bin/spider-judge.rs`).
    SpiderJudge,
}

impl Crawler {
    /// Every crawler of the comparison, in the report's order.
    pub(super) const ALL: [Crawler; 3] = [Crawler::Ours, Crawler::Spider, Crawler::SpiderJudge];

    /// The crawler's name in run folders and logs.
    fn name(self) -> &'static str {
        match self {
            Crawler::Ours => "focus",
            Crawler::OursStream => "focus-stream",
            Crawler::Spider => "spider",
            Crawler::SpiderJudge => "spider-judge",
        }
    }

    /// The crawler's name in the report's tables.
    pub(super) fn row_name(self) -> &'static str {
        match self {
            Crawler::Ours => "focus-soft --baseline bfs",
            Crawler::OursStream => "focus-soft --baseline bfs --flow stream",
            Crawler::Spider => "spider",
            Crawler::SpiderJudge => "spider-judge",
        }
    }
}

/// Crawl `r` of `who`, stopped after `limit` pages when given, through a
/// proxy that delays each answer by `latency` (`websim delay`) when given.
pub(super) fn crawl(
    setup: &Setup,
    r: usize,
    who: Crawler,
    concurrency: usize,
    limit: Option<u32>,
    latency: Option<&Latency>,
    log: &mut Log,
) -> Result<Run> {
    let name = who.name();
    let mut run_dir = match limit {
        None => format!("{name}-{r}"),
        Some(n) => format!("{name}-{r}-limit-{n}"),
    };
    if let Some(l) = latency {
        run_dir = format!("{run_dir}-latency-{}ms", l.median_ms);
    }
    let run_dir = setup.work.join(run_dir);
    // Spider's "no limit" is 0; ours is a number larger than any site.
    let (spider_limit, max_pages) = match limit {
        None => ("0".to_owned(), "10000000".to_owned()),
        Some(n) => (n.to_string(), n.to_string()),
    };
    std::fs::create_dir_all(&run_dir)?;
    let server = Nginx::start(&setup.served(), &run_dir, log)?;
    let proxy = match latency {
        Some(l) => Some(DelayProxy::start(setup, l, &run_dir, log)?),
        None => None,
    };
    let port = proxy.as_ref().map_or(setup.port, |p| p.port);
    let root_url = format!("http://127.0.0.1:{port}/");
    let c = concurrency.to_string();
    let mut cmd = match who {
        Crawler::Spider => {
            let mut cmd = Command::new(&setup.spider);
            cmd.args([root_url.as_str(), c.as_str(), spider_limit.as_str()]);
            cmd
        }
        Crawler::SpiderJudge => {
            let mut cmd = Command::new(&setup.spider_judge);
            cmd.args([root_url.as_str(), c.as_str(), spider_limit.as_str()])
                .arg(&setup.examples)
                .arg(&setup.good);
            cmd
        }
        Crawler::Ours | Crawler::OursStream => {
            let seeds = run_dir.join("seeds.txt");
            std::fs::write(&seeds, format!("{root_url}\n"))?;
            let mut cmd = Command::new(&setup.focus_soft);
            cmd.arg("--examples")
                .arg(&setup.examples)
                .args(["--good", &setup.good, "--seeds"])
                .arg(&seeds)
                // The operator's own route to loopback, which the fetcher's
                // SSRF guard otherwise refuses.
                .args(["--connect-to", &format!("::127.0.0.1:{port}")])
                .args(["--baseline", "bfs", "--host-interval", "0s"])
                .args(["--host-connections", &c, "--concurrency", &c])
                .args(["--max-pages", max_pages.as_str(), "--out"])
                .arg(run_dir.join("out"));
            if who == Crawler::OursStream {
                cmd.args(["--flow", "stream"]);
            }
            cmd
        }
    };
    cmd.stdout(Stdio::piped());
    let measured = log.measure(&cmd, &run_dir.join("crawl.log"));
    drop(proxy);
    let served = server.stop()?;
    let measured = measured?;
    println!(
        "{name} run {r}: {} pages served in {:.1} s",
        served.ok, measured.wall_s
    );
    let own = match who {
        Crawler::Ours | Crawler::OursStream => Some(crate::watch::summary(&run_dir.join("out"))?),
        Crawler::Spider | Crawler::SpiderJudge => None,
    };
    Ok(Run {
        measured,
        served,
        own,
    })
}

/// What the runs of one crawler come to: the first run's pages (and
/// 404s), pages/s min, median and max, the median CPU seconds per 1,000
/// pages, and the highest peak of resident memory.
pub(super) struct Summary {
    pub(super) pages: u64,
    pub(super) missing: u64,
    pub(super) rate: (f64, f64, f64),
    pub(super) cpu_per_1000: f64,
    pub(super) peak_rss_mb: f64,
}

impl Summary {
    pub(super) fn of(runs: &[Run]) -> Summary {
        let rates: Vec<f64> = runs.iter().map(Run::pages_per_s).collect();
        let cpu: Vec<f64> = runs.iter().map(Run::cpu_per_1000).collect();
        let rss: Vec<f64> = runs.iter().map(|r| r.measured.peak_rss_mb).collect();
        Summary {
            pages: runs.first().map_or(0, |r| r.served.ok),
            missing: runs.first().map_or(0, |r| r.served.not_found),
            rate: spread(&rates),
            cpu_per_1000: spread(&cpu).1,
            peak_rss_mb: spread(&rss).2,
        }
    }
}

impl Run {
    fn pages_per_s(&self) -> f64 {
        self.served.ok as f64 / self.measured.wall_s.max(1e-3)
    }

    fn cpu_per_1000(&self) -> f64 {
        self.measured.cpu_s * 1000.0 / (self.served.ok.max(1) as f64)
    }
}

/// The first sub-folder of `dir`, by name.
pub(super) fn first_folder(dir: &Path) -> Result<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| dir.display().to_string())?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .next()
        .with_context(|| format!("{} has no sub-folder", dir.display()))
}

/// Files anywhere under `dir` (0 when it cannot be read).
pub(super) fn count_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .map(|p| if p.is_dir() { count_files(&p) } else { 1 })
        .sum()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A run of `pages` in `wall_s` seconds, all of them CPU.
    pub(in crate::bench) fn run(pages: u64, wall_s: f64, peak_rss_mb: f64) -> Run {
        Run {
            measured: Measured {
                wall_s,
                cpu_s: wall_s,
                peak_rss_mb,
                stdout: String::new(),
            },
            served: Served {
                ok: pages,
                not_found: 0,
                other: 0,
            },
            own: Some(focus_core::Summary {
                judge_busy_s: wall_s / 4.0,
                apply_busy_s: wall_s / 8.0,
                store_bytes: pages * 2048,
                ..focus_core::Summary::default()
            }),
        }
    }

    #[test]
    fn example_pages_are_counted_in_every_topic_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(count_files(&dir.path().join("missing")), 0);
        let leaf = dir.path().join("recreation").join("cycling");
        std::fs::create_dir_all(&leaf).unwrap();
        std::fs::create_dir_all(dir.path().join("arts")).unwrap();
        assert_eq!(count_files(dir.path()), 0, "folders without pages");
        std::fs::write(leaf.join("1.html"), "<p>a</p>").unwrap();
        std::fs::write(leaf.join("urls.txt"), "http://a.test/\n").unwrap();
        assert_eq!(count_files(dir.path()), 2);
    }
}
