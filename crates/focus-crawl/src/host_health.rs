//! What the crawl has learnt of each host's and site's answers: how many
//! of its fetches returned a page and how many failed (an HTTP error, a
//! name that does not resolve, a refused or timed-out connection). Fed by
//! every fetch in pop order; read when a link is queued, so a link to a
//! host that has answered only errors sinks in the frontier instead of
//! spending the budget. Nothing is dropped: a sunk link is still queued,
//! and a host that answers again rises again. Must not read the frontier
//! or the evaluation's labels.
//!
//! A host's success rate is smoothed towards its site's (registered
//! domain), and the site's towards the whole crawl's, each with
//! [`PRIOR_WEIGHT`] pseudo-fetches: `s(site) = (ok + w·s(crawl)) / (n + w)`,
//! `s(host) = (ok + w·s(site)) / (n + w)`. The factor on a link's priority
//! is `min(1, s(host) / s(crawl))`: a host nobody has fetched yet keeps
//! its full priority (the crawl knows nothing against it); one that fails
//! more often than the crawl's average loses priority in proportion.
//! The same rule holds on any web: no constant depends on a corpus.
//!
//! Links already queued keep their priority, so a host that fails also
//! waits: after a failure in a row it is not tried again for
//! [`BACKOFF_MS`] of the crawl's logical time, doubled with each further
//! failure (up to [`MAX_BACKOFF_MS`]), and an answer ends the wait. Only
//! the host's faults count (see `FetchError::is_host_fault`): a 404 is
//! the URL's, and so is a URL timing out again on a retry (timeouts count
//! against a host across different URLs).

use std::collections::HashMap;

use focus_core::{DomainKey, HostKey};

/// Pseudo-fetches behind each level's prior.
pub const PRIOR_WEIGHT: f64 = 2.0;

/// How long (in the crawl's logical milliseconds, 50 a batch) a host
/// waits after its first failure in a row before it is tried again; each
/// further failure in a row doubles it, up to [`MAX_BACKOFF_MS`]. Its URLs
/// wait in the frontier meanwhile.
pub const BACKOFF_MS: u64 = 2_000;

/// The longest wait between two tries of a failing host (64 times
/// [`BACKOFF_MS`]).
pub const MAX_BACKOFF_MS: u64 = 64 * BACKOFF_MS;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Answers {
    ok: u64,
    failed: u64,
    /// Failures since the last answer.
    streak: u32,
}

impl Answers {
    fn record(&mut self, ok: bool) {
        if ok {
            self.ok += 1;
            self.streak = 0;
        } else {
            self.failed += 1;
            self.streak += 1;
        }
    }

    /// The success rate smoothed towards `prior`.
    fn rate(&self, prior: f64) -> f64 {
        (self.ok as f64 + PRIOR_WEIGHT * prior) / ((self.ok + self.failed) as f64 + PRIOR_WEIGHT)
    }
}

/// Fetch outcomes by host and by site, and over the whole crawl.
#[derive(Debug, Clone, Default)]
pub struct HostHealth {
    hosts: HashMap<u64, Answers>,
    sites: HashMap<DomainKey, Answers>,
    all: Answers,
}

impl HostHealth {
    /// Nothing fetched yet: every link keeps its priority.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one fetch of a URL on `host` (site `site`): `ok` when it
    /// returned a page.
    pub fn record(&mut self, host: &HostKey, site: &DomainKey, ok: bool) {
        self.hosts.entry(host.id()).or_default().record(ok);
        self.sites.entry(site.clone()).or_default().record(ok);
        self.all.record(ok);
    }

    /// The crawl's success rate so far (prior 1).
    fn crawl_rate(&self) -> f64 {
        self.all.rate(1.0)
    }

    /// The factor in (0, 1] on the priority of a link to `host` (site
    /// `site`).
    pub fn factor(&self, host: &HostKey, site: &DomainKey) -> f64 {
        let crawl = self.crawl_rate();
        let site_rate = self.sites.get(site).map_or(crawl, |a| a.rate(crawl));
        let host_rate = self
            .hosts
            .get(&host.id())
            .map_or(site_rate, |a| a.rate(site_rate));
        if crawl > 0.0 {
            (host_rate / crawl).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }

    /// How long `host` should wait before its next try: nothing while it
    /// answers, [`BACKOFF_MS`] after a failure, doubling with each further
    /// failure in a row up to [`MAX_BACKOFF_MS`].
    pub fn backoff_ms(&self, host: &HostKey) -> u64 {
        match self.hosts.get(&host.id()).map_or(0, |a| a.streak) {
            0 => 0,
            n => (BACKOFF_MS << (n - 1).min(6)).min(MAX_BACKOFF_MS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::CanonicalUrl;

    fn keys(url: &str) -> (HostKey, DomainKey) {
        let u: CanonicalUrl = url.parse().unwrap();
        (u.host_key(), u.domain_key())
    }

    #[test]
    fn a_host_nobody_has_fetched_keeps_its_priority() {
        let mut h = HostHealth::new();
        let (a, sa) = keys("http://a.example/");
        for _ in 0..10 {
            h.record(&a, &sa, true);
        }
        let (b, sb) = keys("http://b.example/");
        assert_eq!(h.factor(&b, &sb), 1.0);
        assert_eq!(h.factor(&a, &sa), 1.0);
    }

    #[test]
    fn a_host_that_only_fails_sinks_and_rises_again_when_it_answers() {
        let mut h = HostHealth::new();
        let (good, sg) = keys("http://good.example/");
        let (dead, sd) = keys("http://dead.example/");
        for _ in 0..20 {
            h.record(&good, &sg, true);
        }
        let mut last = 1.0;
        for _ in 0..5 {
            h.record(&dead, &sd, false);
            let f = h.factor(&dead, &sd);
            assert!(f < last, "{f} after another failure, was {last}");
            assert!(f > 0.0, "never dropped");
            last = f;
        }
        assert!(last < 0.3, "{last}");
        for _ in 0..20 {
            h.record(&dead, &sd, true);
        }
        assert!(h.factor(&dead, &sd) > 0.8);
        assert_eq!(h.all.failed, 5);
    }

    #[test]
    fn a_failing_host_waits_longer_after_each_failure_in_a_row() {
        let mut h = HostHealth::new();
        let (a, sa) = keys("http://a.example/");
        assert_eq!(h.backoff_ms(&a), 0);
        let mut waits = Vec::new();
        for _ in 0..9 {
            h.record(&a, &sa, false);
            waits.push(h.backoff_ms(&a));
        }
        assert_eq!(waits[..3], [BACKOFF_MS, 2 * BACKOFF_MS, 4 * BACKOFF_MS]);
        assert_eq!(waits[8], MAX_BACKOFF_MS);
        h.record(&a, &sa, true);
        assert_eq!(h.backoff_ms(&a), 0, "an answer ends the wait");
    }

    #[test]
    fn a_failing_site_lowers_its_other_hosts_before_they_are_tried() {
        let mut h = HostHealth::new();
        let (good, sg) = keys("http://good.example/");
        for _ in 0..20 {
            h.record(&good, &sg, true);
        }
        let (a, sa) = keys("http://a.gone.example.org/");
        for _ in 0..6 {
            h.record(&a, &sa, false);
        }
        let (b, sb) = keys("http://b.gone.example.org/");
        assert_eq!(sa, sb);
        let f = h.factor(&b, &sb);
        assert!(f < 1.0 && f > h.factor(&a, &sa), "{f}");
    }
}
