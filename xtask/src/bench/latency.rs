//! The peer comparison on a web with latency: the same site, nginx and
//! crawlers as [`super::peers`], but every answer reaches the crawler
//! through `websim delay`, a proxy that waits a log-normal delay drawn
//! per URL (the same for every crawler and every run) before it passes the
//! request on. On loopback each answer comes at once and the crawl is
//! bound by its CPU; across the internet it is bound by how many requests
//! it keeps in flight while answers take their time, which is what this
//! section measures: our crawler in batches (the default) and as a stream
//! (`--flow stream`) beside `spider`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Child, Command};

use anyhow::Result;

use super::nginx::{free_port, wait_listening};
use super::peer_crawl::{crawl, Crawler, Run, Setup, Summary};
use super::peers::PeerSettings;
use super::process::Log;

/// Log-normal sigma of the delays: answer times across the internet spread
/// over more than an order of magnitude (docs/websim.md, "Latency").
pub(super) const SIGMA: f64 = 1.0;

/// The crawlers of this section, in the report's order.
const CRAWLERS: [Crawler; 3] = [Crawler::Ours, Crawler::OursStream, Crawler::Spider];

/// The delay in front of the server.
pub(super) struct Latency {
    /// Median delay of an answer, in milliseconds.
    pub(super) median_ms: u64,
}

/// `websim delay` in front of the run's nginx, stopped when dropped.
pub(super) struct DelayProxy {
    child: Child,
    /// The loopback port the crawler is sent to.
    pub(super) port: u16,
}

impl DelayProxy {
    /// Starts the proxy, its output under `dir`, and waits until it listens.
    pub(super) fn start(
        setup: &Setup,
        latency: &Latency,
        dir: &Path,
        log: &mut Log,
    ) -> Result<DelayProxy> {
        let port = free_port()?;
        let mut cmd = Command::new(&setup.websim);
        cmd.args(["delay", "--upstream"])
            .arg(format!("127.0.0.1:{}", setup.port))
            .arg("--addr")
            .arg(format!("127.0.0.1:{port}"))
            .args(["--latency", &latency.median_ms.to_string()])
            .args(["--latency-sigma", &SIGMA.to_string()]);
        log.note(&cmd);
        let child = crate::watch::spawn(&mut cmd, &dir.join("delay.log"))?;
        // Dropped, so stopped, if it never listens.
        let proxy = DelayProxy { child, port };
        wait_listening("websim delay", port, &dir.join("delay.log"))?;
        Ok(proxy)
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every crawler of the section `s.runs` times in rotating order; returns
/// the report's subsection.
pub(super) fn run(
    setup: &Setup,
    s: &PeerSettings,
    latency: &Latency,
    log: &mut Log,
) -> Result<String> {
    let mut runs: [Vec<Run>; 3] = Default::default();
    for r in 0..s.runs {
        for k in 0..CRAWLERS.len() {
            let i = (r + k) % CRAWLERS.len();
            let run = crawl(
                setup,
                r,
                CRAWLERS[i],
                s.concurrency,
                None,
                Some(latency),
                log,
            )?;
            runs[i].push(run);
        }
    }
    report(s, latency, &runs)
}

/// The most pages/s any crawler can fetch with `concurrency` requests in
/// flight when each waits its delay: in flight ÷ the mean delay.
fn ceiling(concurrency: usize, latency: &Latency) -> f64 {
    concurrency as f64 * 1000.0 / mean_delay_ms(latency).max(1e-9)
}

/// The mean of the log-normal delays: the median times e^(σ²/2).
fn mean_delay_ms(latency: &Latency) -> f64 {
    latency.median_ms as f64 * (SIGMA * SIGMA / 2.0).exp()
}

fn report(s: &PeerSettings, latency: &Latency, runs: &[Vec<Run>; 3]) -> Result<String> {
    let mut o = String::new();
    let bound = ceiling(s.concurrency, latency);
    writeln!(
        o,
        "The same site, server and flags, with every answer delayed: the crawlers reach \
         nginx through `websim delay`, which waits a log-normal delay (median {} ms, σ \
         {SIGMA}, drawn per URL, so each URL waits the same for every crawler and run) \
         before it passes a request on. {} runs of each in rotating order, whole crawls only \
         (the memory of a crawl's start is the loopback table's). With {} requests in flight \
         and answers taking {:.0} ms on average, no crawler can fetch more than **{bound:.0} \
         pages/s** (in flight ÷ mean delay).\n",
        latency.median_ms,
        s.runs,
        s.concurrency,
        mean_delay_ms(latency),
    )?;
    writeln!(
        o,
        "| crawler | pages (404s) | pages/s min / median / max | ÷ the bound | CPU s per 1,000 pages | peak RSS MB |"
    )?;
    writeln!(o, "|---|---|---|---|---|---|")?;
    let mut medians = Vec::new();
    for (who, runs) in CRAWLERS.iter().zip(runs) {
        let Summary {
            pages,
            missing,
            rate: (lo, mid, hi),
            cpu_per_1000,
            peak_rss_mb,
        } = Summary::of(runs);
        writeln!(
            o,
            "| {} | {pages} ({missing}) | {lo:.0} / **{mid:.0}** / {hi:.0} | {:.2} | {cpu_per_1000:.2} | {peak_rss_mb:.0} |",
            who.row_name(),
            mid / bound,
        )?;
        medians.push((mid, peak_rss_mb));
    }
    if let [(batches, batches_rss), (stream, stream_rss), (spider, spider_rss)] = medians[..] {
        writeln!(
            o,
            "\nMedian pages/s with latency, ours ÷ spider: in batches **{:.2}**, as a stream \
             **{:.2}**; peak memory, ours ÷ spider: in batches **{:.2}**, as a stream **{:.2}**.",
            batches / spider.max(1e-9),
            stream / spider.max(1e-9),
            batches_rss / spider_rss.max(1e-9),
            stream_rss / spider_rss.max(1e-9),
        )?;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::peer_crawl::tests::run;

    #[test]
    fn the_bound_is_in_flight_over_the_mean_delay() {
        // 100 ms median, σ 1: a mean of 164.9 ms; 32 in flight: 194 pages/s.
        let b = ceiling(32, &Latency { median_ms: 100 });
        assert!((b - 194.1).abs() < 0.1, "{b}");
    }

    #[test]
    fn the_report_sets_each_crawler_against_the_bound_and_spider() {
        let s = PeerSettings {
            site_pages: 1000,
            concurrency: 32,
            runs: 2,
            latency_ms: 100,
        };
        let runs = [
            vec![run(1000, 40.0, 60.0), run(1000, 44.0, 62.0)],
            vec![run(1000, 10.0, 70.0), run(1000, 9.0, 66.0)],
            vec![run(1000, 6.0, 20.0), run(1000, 6.5, 21.0)],
        ];
        let md = report(&s, &Latency { median_ms: 100 }, &runs).unwrap();
        assert!(md.contains("**194 pages/s**"), "{md}");
        // The median of two runs is their mean: 1000 / 40 and 1000 / 44 s.
        assert!(
            md.contains(
                "| focus-soft --baseline bfs | 1000 (0) | 23 / **24** / 25 | 0.12 | 42.00 | 62 |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| focus-soft --baseline bfs --flow stream | 1000 (0) | 100 / **106** / 111 | 0.54 | 9.50 | 70 |"),
            "{md}"
        );
        assert!(
            md.contains("| spider | 1000 (0) | 154 / **160** / 167 | 0.83 |"),
            "{md}"
        );
        assert!(
            md.contains("in batches **0.15**, as a stream **0.66**"),
            "{md}"
        );
        assert!(
            md.contains("in batches **2.95**, as a stream **3.33**"),
            "{md}"
        );
    }
}
