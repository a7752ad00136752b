//! How long the server waits before it answers, as a server across the
//! internet would: off by default (the websim answers at loopback speed,
//! which keeps the tests fast), and when on, a log-normal delay whose
//! median is set per host (servers differ: a host's own median is drawn
//! about the web's) and varies per page about it. A draw is a hash of the
//! seed, the host and the path, so the same web answers each URL after the
//! same delay every run. The fault hosts' delays and stalls come on top.

use std::time::Duration;

use crate::rng::{hash3, unit};

/// Salt of the latency draws.
const LATENCY_SALT: u64 = 0x01A7_E0C7;

/// The delay added to every answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Latency {
    /// The web's median delay in milliseconds (0: no delay at all).
    pub median_ms: u64,
    /// Log-normal sigma of a host's own median about the web's.
    pub host_sigma: f64,
    /// Log-normal sigma of one page's delay about its host's median.
    pub page_sigma: f64,
    /// Seed of the draws.
    pub seed: u64,
}

impl Latency {
    /// No delay: the websim's default.
    pub const NONE: Latency = Latency {
        median_ms: 0,
        host_sigma: 0.0,
        page_sigma: 0.0,
        seed: 0,
    };

    /// A web whose median delay is `median_ms`, spread by `sigma` (the
    /// log-normal sigma of one answer's delay, shared equally, in variance,
    /// between the host's median and the page's own draw).
    pub fn lognormal(median_ms: u64, sigma: f64, seed: u64) -> Self {
        let half = sigma.max(0.0) / std::f64::consts::SQRT_2;
        Self {
            median_ms,
            host_sigma: half,
            page_sigma: half,
            seed,
        }
    }

    /// One server's answers: median `median_ms`, each page's delay spread
    /// by `sigma` about it and none of it drawn for the host (a proxy in
    /// front of one server, [`crate::delay_proxy`]).
    pub fn one_server(median_ms: u64, sigma: f64, seed: u64) -> Self {
        Self {
            median_ms,
            host_sigma: 0.0,
            page_sigma: sigma.max(0.0),
            seed,
        }
    }

    /// The delay before the answer to `path_and_query` on `host`.
    pub fn of(&self, host: &str, path_and_query: &str) -> Duration {
        if self.median_ms == 0 {
            return Duration::ZERO;
        }
        let host_key = key(host);
        let z_host = standard_normal(self.seed, host_key, 0);
        let z_page = standard_normal(self.seed, host_key, key(path_and_query));
        let ms =
            self.median_ms as f64 * (self.host_sigma * z_host + self.page_sigma * z_page).exp();
        // A day is longer than any client waits; the cap keeps the
        // conversion finite whatever the settings.
        Duration::from_secs_f64((ms / 1000.0).clamp(0.0, 86_400.0))
    }
}

impl Default for Latency {
    fn default() -> Self {
        Self::NONE
    }
}

/// A 64-bit key of a string.
fn key(s: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(s.as_bytes())
}

/// A standard normal draw (Box-Muller) from the hash of `a` and `b`.
fn standard_normal(seed: u64, a: u64, b: u64) -> f64 {
    let u1 = unit(hash3(seed ^ LATENCY_SALT, a, b, 1)).max(1e-12);
    let u2 = unit(hash3(seed ^ LATENCY_SALT, a, b, 2));
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delays(l: &Latency, hosts: usize, pages: usize) -> Vec<f64> {
        (0..hosts)
            .flat_map(|h| (0..pages).map(move |p| (h, p)))
            .map(|(h, p)| {
                l.of(&format!("www.host-{h}.com"), &format!("/page/{p}.html"))
                    .as_secs_f64()
            })
            .collect()
    }

    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    #[test]
    fn no_latency_is_no_delay() {
        assert_eq!(Latency::NONE.of("a.com", "/"), Duration::ZERO);
        assert_eq!(Latency::default(), Latency::NONE);
        assert_eq!(
            Latency::lognormal(0, 1.0, 7).of("a.com", "/x"),
            Duration::ZERO
        );
    }

    #[test]
    fn the_same_url_waits_the_same_and_other_seeds_differ() {
        let l = Latency::lognormal(300, 1.0, 1);
        assert_eq!(l.of("a.com", "/p"), l.of("a.com", "/p"));
        assert_ne!(l.of("a.com", "/p"), l.of("a.com", "/q"));
        let other = Latency::lognormal(300, 1.0, 2);
        assert_ne!(l.of("a.com", "/p"), other.of("a.com", "/p"));
    }

    #[test]
    fn delays_are_log_normal_about_the_median() {
        let l = Latency::lognormal(400, 1.0, 3);
        let d = delays(&l, 200, 50);
        let m = median(d.clone());
        assert!((0.34..0.47).contains(&m), "median {m} s");
        // ln(delay / median) has the sigma asked for.
        let logs: Vec<f64> = d.iter().map(|x| (x / 0.4).ln()).collect();
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / logs.len() as f64).sqrt();
        assert!((0.85..1.15).contains(&sd), "sigma {sd}");
    }

    #[test]
    fn hosts_differ_more_than_pages_of_one_host_when_the_host_share_is_all() {
        let l = Latency {
            median_ms: 400,
            host_sigma: 1.0,
            page_sigma: 0.0,
            seed: 4,
        };
        // Every page of a host waits the host's own median.
        assert_eq!(l.of("h.com", "/a"), l.of("h.com", "/b"));
        let per_host: Vec<f64> = (0..100)
            .map(|h| l.of(&format!("h{h}.com"), "/").as_secs_f64())
            .collect();
        let lo = per_host.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = per_host.iter().copied().fold(0.0, f64::max);
        assert!(hi / lo > 10.0, "hosts spread {lo}..{hi}");
    }

    #[test]
    fn one_server_waits_its_median_and_spreads_by_page_only() {
        let l = Latency::one_server(100, 1.0, 5);
        // Each of a few hosts waits the median asked for: no host draw.
        for h in 0..3 {
            let one: Vec<f64> = (0..4_000)
                .map(|p| l.of(&format!("h{h}.com"), &format!("/{p}.html")))
                .map(|d| d.as_secs_f64())
                .collect();
            let m = median(one);
            assert!((0.093..0.107).contains(&m), "host {h}: median {m} s");
        }
        // Over many hosts the spread is the page's alone.
        let d = delays(&l, 100, 100);
        let logs: Vec<f64> = d.iter().map(|x| (x / 0.1).ln()).collect();
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / logs.len() as f64).sqrt();
        assert!((0.95..1.05).contains(&sd), "sigma {sd}");
    }
}
