//! Per-host and per-domain politeness (concurrency limits and a minimum
//! interval between requests to one host) and failure accounting: a host
//! that times out is tagged slow; after N consecutive failures it is tagged
//! bad and refused for the rest of the crawl (BINGO!).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use focus_core::{CanonicalUrl, DomainKey, HostKey};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::outcome::FetchError;

/// What the fetcher knows about a host, for frontiers that schedule around it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HostStatus {
    /// Time until the host may be contacted again (zero when ready).
    pub ready_in: Duration,
    /// The host timed out at least once.
    pub slow: bool,
    /// The host failed too often and is excluded.
    pub bad: bool,
    /// Failures since the last success.
    pub consecutive_failures: u32,
    /// The host's politeness interval (the configured minimum, raised by
    /// its robots.txt `Crawl-delay`).
    pub interval: Duration,
    /// Requests to the host a crawler may hand the fetcher at once without
    /// one of them waiting: its connection limit (per host, and per domain
    /// if lower) when the host has no politeness interval and never timed
    /// out, otherwise 1 (0 before first contact).
    pub burst: u32,
}

struct HostState {
    sem: Arc<Semaphore>,
    next_at: Instant,
    interval: Duration,
    failures: u32,
    slow: bool,
    bad: bool,
}

/// Permits held while a request to a host is in progress.
pub(crate) struct Permit {
    _host: OwnedSemaphorePermit,
    _domain: OwnedSemaphorePermit,
}

pub(crate) struct Hosts {
    table: Mutex<HashMap<HostKey, HostState>>,
    domains: Mutex<HashMap<DomainKey, Arc<Semaphore>>>,
    per_host: usize,
    per_domain: usize,
    interval: Duration,
    bad_after: u32,
}

impl Hosts {
    pub(crate) fn new(
        per_host: usize,
        per_domain: usize,
        interval: Duration,
        bad_after: u32,
    ) -> Self {
        Self {
            table: Mutex::new(HashMap::new()),
            domains: Mutex::new(HashMap::new()),
            per_host: per_host.max(1),
            per_domain: per_domain.max(1),
            interval,
            bad_after: bad_after.max(1),
        }
    }

    fn with_host<T>(&self, host: &HostKey, f: impl FnOnce(&mut HostState) -> T) -> Option<T> {
        let mut map = self.table.lock().ok()?;
        let state = map.entry(host.clone()).or_insert_with(|| HostState {
            sem: Arc::new(Semaphore::new(self.per_host)),
            next_at: Instant::now(),
            interval: self.interval,
            failures: 0,
            slow: false,
            bad: false,
        });
        Some(f(state))
    }

    /// Waits for a connection slot on the host and its domain and for the
    /// host's politeness interval; refuses bad hosts.
    pub(crate) async fn acquire(&self, url: &CanonicalUrl) -> Result<Permit, FetchError> {
        let host = url.host_key();
        let (sem, bad) = self
            .with_host(&host, |s| (s.sem.clone(), s.bad))
            .ok_or_else(|| FetchError::Protocol("host table poisoned".into()))?;
        if bad {
            return Err(FetchError::HostBad);
        }
        let domain_sem = {
            let mut map = self
                .domains
                .lock()
                .map_err(|_| FetchError::Protocol("domain table poisoned".into()))?;
            map.entry(url.domain_key())
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_domain)))
                .clone()
        };
        let domain = domain_sem
            .acquire_owned()
            .await
            .map_err(|_| FetchError::HostBad)?;
        let host_permit = sem.acquire_owned().await.map_err(|_| FetchError::HostBad)?;
        let start = self
            .with_host(&host, |s| {
                let start = s.next_at.max(Instant::now());
                s.next_at = start + s.interval;
                start
            })
            .unwrap_or_else(Instant::now);
        tokio::time::sleep_until(start).await;
        Ok(Permit {
            _host: host_permit,
            _domain: domain,
        })
    }

    /// Raises a host's interval to its robots.txt crawl-delay.
    pub(crate) fn set_crawl_delay(&self, host: &HostKey, delay: Duration) {
        self.with_host(host, |s| s.interval = s.interval.max(delay));
    }

    pub(crate) fn success(&self, host: &HostKey) {
        self.with_host(host, |s| s.failures = 0);
    }

    /// Counts a failure; returns true when the host just became bad.
    pub(crate) fn failure(&self, host: &HostKey, timed_out: bool) -> bool {
        let bad_after = self.bad_after;
        self.with_host(host, |s| {
            s.failures += 1;
            s.slow |= timed_out;
            let newly = !s.bad && s.failures >= bad_after;
            s.bad |= newly;
            newly
        })
        .unwrap_or(false)
    }

    pub(crate) fn status(&self, host: &HostKey) -> HostStatus {
        let now = Instant::now();
        self.table
            .lock()
            .ok()
            .and_then(|map| {
                map.get(host).map(|s| HostStatus {
                    ready_in: s.next_at.saturating_duration_since(now),
                    slow: s.slow,
                    bad: s.bad,
                    consecutive_failures: s.failures,
                    interval: s.interval,
                    burst: if s.interval.is_zero() && !s.slow {
                        u32::try_from(self.per_host.min(self.per_domain)).unwrap_or(u32::MAX)
                    } else {
                        1
                    },
                })
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::Canonicalizer;

    #[tokio::test]
    async fn interval_and_bad_tagging() {
        let hosts = Hosts::new(2, 5, Duration::from_millis(30), 3);
        let url = Canonicalizer::default()
            .canonicalize("http://a.example/")
            .unwrap();
        let t0 = Instant::now();
        drop(hosts.acquire(&url).await.unwrap());
        drop(hosts.acquire(&url).await.unwrap());
        assert!(
            t0.elapsed() >= Duration::from_millis(30),
            "second request waits for the interval"
        );
        let h = url.host_key();
        assert!(!hosts.failure(&h, true));
        assert!(!hosts.failure(&h, false));
        assert!(
            hosts.failure(&h, false),
            "third consecutive failure tags the host bad"
        );
        let st = hosts.status(&h);
        assert!(st.slow && st.bad && st.consecutive_failures == 3);
        assert!(matches!(
            hosts.acquire(&url).await,
            Err(FetchError::HostBad)
        ));
    }

    #[tokio::test]
    async fn success_resets_the_failure_count() {
        let hosts = Hosts::new(2, 5, Duration::ZERO, 3);
        let h = HostKey::new("b.example", None);
        hosts.failure(&h, false);
        hosts.failure(&h, false);
        hosts.success(&h);
        assert!(!hosts.failure(&h, false));
        assert!(!hosts.status(&h).bad);
    }

    #[test]
    fn burst_follows_politeness() {
        let hosts = Hosts::new(2, 5, Duration::ZERO, 3);
        let (a, b, c) = (
            HostKey::new("a.example", None),
            HostKey::new("b.example", None),
            HostKey::new("c.example", None),
        );
        assert_eq!(hosts.status(&a).burst, 0, "never contacted");
        hosts.success(&a);
        assert_eq!(hosts.status(&a).burst, 2, "no interval: every connection");
        hosts.set_crawl_delay(&b, Duration::from_secs(1));
        assert_eq!(hosts.status(&b).burst, 1, "a crawl-delay spaces requests");
        hosts.failure(&c, true);
        assert_eq!(hosts.status(&c).burst, 1, "a host that timed out");
        let polite = Hosts::new(2, 5, Duration::from_millis(1), 3);
        polite.success(&a);
        assert_eq!(polite.status(&a).burst, 1, "any interval spaces requests");
        let narrow = Hosts::new(4, 3, Duration::ZERO, 3);
        narrow.success(&a);
        assert_eq!(narrow.status(&a).burst, 3, "the domain limit binds");
    }
}
