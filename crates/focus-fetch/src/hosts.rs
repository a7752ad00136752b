//! Per-host and per-domain politeness (concurrency limits, a minimum
//! interval between requests to one host, a server's `Retry-After`) and
//! failure accounting: a host that times out is tagged slow; after N host
//! faults in a row (refused connections, unresolvable names, TLS failures,
//! timeouts of different URLs — never a URL's own status or body) it is
//! set aside (BINGO!'s bad host), its requests refused for a backoff, then
//! re-probed with one request; an answer clears it, another fault doubles
//! the wait.

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
    /// The host failed too often and is set aside until its probe.
    pub bad: bool,
    /// Host faults since the last answer.
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
    /// URLs (page ids) that timed out since the last answer: a timeout
    /// counts against the host only for a URL not already among them.
    timed_out: Vec<u64>,
    slow: bool,
    /// Set aside until this time; then one probe goes through.
    bad_until: Option<Instant>,
    /// Times the host was set aside in a row (the backoff's exponent).
    times_bad: u32,
    /// The probe is in flight: other requests still wait.
    probing: bool,
}

/// The backoff of a host set aside doubles at most this many times (to 64
/// times the first).
const MAX_BAD_BACKOFF_DOUBLINGS: u32 = 6;

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
    bad_after: Option<u32>,
    bad_backoff: Duration,
}

impl Hosts {
    pub(crate) fn new(
        per_host: usize,
        per_domain: usize,
        interval: Duration,
        bad_after: Option<u32>,
        bad_backoff: Duration,
    ) -> Self {
        Self {
            table: Mutex::new(HashMap::new()),
            domains: Mutex::new(HashMap::new()),
            per_host: per_host.max(1),
            per_domain: per_domain.max(1),
            interval,
            bad_after: bad_after.map(|n| n.max(1)),
            bad_backoff,
        }
    }

    fn with_host<T>(&self, host: &HostKey, f: impl FnOnce(&mut HostState) -> T) -> Option<T> {
        let mut map = self.table.lock().ok()?;
        let state = map.entry(host.clone()).or_insert_with(|| HostState {
            sem: Arc::new(Semaphore::new(self.per_host)),
            next_at: Instant::now(),
            interval: self.interval,
            failures: 0,
            timed_out: Vec::new(),
            slow: false,
            bad_until: None,
            times_bad: 0,
            probing: false,
        });
        Some(f(state))
    }

    /// Waits for a connection slot on the host and its domain and for the
    /// host's politeness interval; refuses a host set aside until its
    /// backoff has passed, then lets one probe through.
    pub(crate) async fn acquire(&self, url: &CanonicalUrl) -> Result<Permit, FetchError> {
        let host = url.host_key();
        let (sem, refused) = self
            .with_host(&host, |s| {
                let refused = match s.bad_until {
                    None => false,
                    Some(until) if s.probing || Instant::now() < until => true,
                    Some(_) => {
                        s.probing = true;
                        false
                    }
                };
                (s.sem.clone(), refused)
            })
            .ok_or_else(|| FetchError::Protocol("host table poisoned".into()))?;
        if refused {
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
        // Only a real wait goes to the timer: one set for "now" fires at the
        // runtime's next millisecond tick, not at once.
        if start > Instant::now() {
            tokio::time::sleep_until(start).await;
        }
        Ok(Permit {
            _host: host_permit,
            _domain: domain,
        })
    }

    /// Raises a host's interval to its robots.txt crawl-delay.
    pub(crate) fn set_crawl_delay(&self, host: &HostKey, delay: Duration) {
        self.with_host(host, |s| s.interval = s.interval.max(delay));
    }

    /// The server asked (`Retry-After`) not to be asked again before `after`.
    pub(crate) fn defer(&self, host: &HostKey, after: Duration) {
        self.with_host(host, |s| s.next_at = s.next_at.max(Instant::now() + after));
    }

    /// The host answered (whatever the status): its fault count ends, and a
    /// host set aside is back.
    pub(crate) fn success(&self, host: &HostKey) {
        self.with_host(host, |s| {
            s.failures = 0;
            s.timed_out.clear();
            s.bad_until = None;
            s.times_bad = 0;
            s.probing = false;
        });
    }

    /// Counts a host fault of `url` (a timeout counts only for a URL that
    /// has not timed out since the host last answered); returns true when
    /// the host was just set aside.
    pub(crate) fn failure(&self, host: &HostKey, url: &CanonicalUrl, timed_out: bool) -> bool {
        let (bad_after, base) = (self.bad_after, self.bad_backoff);
        let id = url.page_id().0;
        self.with_host(host, |s| {
            s.slow |= timed_out;
            let probe_failed = std::mem::take(&mut s.probing);
            if timed_out && !probe_failed {
                if s.timed_out.contains(&id) {
                    return false;
                }
                s.timed_out.push(id);
            }
            s.failures += 1;
            let Some(n) = bad_after else { return false };
            if s.failures < n || (s.bad_until.is_some() && !probe_failed) {
                return false;
            }
            let factor = 1u32 << s.times_bad.min(MAX_BAD_BACKOFF_DOUBLINGS);
            s.times_bad += 1;
            s.bad_until = Some(Instant::now() + base.saturating_mul(factor));
            true
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
                    bad: s.bad_until.is_some(),
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

    fn url(u: &str) -> CanonicalUrl {
        Canonicalizer::default().canonicalize(u).unwrap()
    }

    #[tokio::test]
    async fn interval_and_setting_a_host_aside_then_probing_it() {
        let hosts = Hosts::new(
            2,
            5,
            Duration::from_millis(30),
            Some(3),
            Duration::from_millis(80),
        );
        let u = url("http://a.example/");
        let t0 = Instant::now();
        drop(hosts.acquire(&u).await.unwrap());
        drop(hosts.acquire(&u).await.unwrap());
        assert!(
            t0.elapsed() >= Duration::from_millis(30),
            "second request waits for the interval"
        );
        let h = u.host_key();
        assert!(!hosts.failure(&h, &u, true));
        assert!(!hosts.failure(&h, &u, false));
        assert!(
            hosts.failure(&h, &u, false),
            "third host fault in a row sets the host aside"
        );
        let st = hosts.status(&h);
        assert!(st.slow && st.bad && st.consecutive_failures == 3);
        assert!(matches!(hosts.acquire(&u).await, Err(FetchError::HostBad)));
        // After the backoff one probe goes through; the others still wait.
        tokio::time::sleep(Duration::from_millis(90)).await;
        let probe = hosts.acquire(&u).await.unwrap();
        assert!(matches!(hosts.acquire(&u).await, Err(FetchError::HostBad)));
        drop(probe);
        // The probe failed: set aside again, for twice as long.
        assert!(hosts.failure(&h, &u, false));
        tokio::time::sleep(Duration::from_millis(90)).await;
        assert!(
            matches!(hosts.acquire(&u).await, Err(FetchError::HostBad)),
            "the second backoff is twice the first"
        );
        tokio::time::sleep(Duration::from_millis(90)).await;
        drop(hosts.acquire(&u).await.unwrap());
        hosts.success(&h);
        assert!(!hosts.status(&h).bad, "an answer brings the host back");
        drop(hosts.acquire(&u).await.unwrap());
    }

    /// A request with no interval to wait out is let through at once: a
    /// timer set for "now" fires only at the runtime's next millisecond
    /// tick, which cost every fetch of a fast local crawl up to a
    /// millisecond (the peer benchmark of `cargo xtask bench --peers`).
    #[tokio::test]
    async fn a_request_with_nothing_to_wait_for_is_not_handed_to_the_timer() {
        use std::future::Future as _;
        let hosts = Hosts::new(2, 5, Duration::ZERO, Some(3), Duration::from_secs(60));
        let u = url("http://b.example/");
        for n in 0..20 {
            let mut acquire = std::pin::pin!(hosts.acquire(&u));
            let first_poll =
                std::future::poll_fn(|cx| std::task::Poll::Ready(acquire.as_mut().poll(cx))).await;
            assert!(
                matches!(first_poll, std::task::Poll::Ready(Ok(_))),
                "request {n} waited"
            );
        }
    }

    #[test]
    fn a_timeout_counts_against_the_host_once_per_url() {
        let hosts = Hosts::new(2, 5, Duration::ZERO, Some(3), Duration::from_secs(60));
        let (slow, other) = (url("http://c.example/slow"), url("http://c.example/x"));
        let h = slow.host_key();
        for _ in 0..10 {
            assert!(!hosts.failure(&h, &slow, true));
        }
        assert_eq!(hosts.status(&h).consecutive_failures, 1, "one slow page");
        assert!(!hosts.failure(&h, &other, true));
        assert!(
            hosts.failure(&h, &url("http://c.example/y"), true),
            "three different URLs timing out is the host's fault"
        );
    }

    #[test]
    fn success_resets_the_failure_count_and_none_never_sets_aside() {
        let hosts = Hosts::new(2, 5, Duration::ZERO, Some(3), Duration::from_secs(60));
        let u = url("http://b.example/");
        let h = u.host_key();
        hosts.failure(&h, &u, false);
        hosts.failure(&h, &u, false);
        hosts.success(&h);
        assert!(!hosts.failure(&h, &u, false));
        assert!(!hosts.status(&h).bad);
        let patient = Hosts::new(2, 5, Duration::ZERO, None, Duration::from_secs(60));
        for _ in 0..100 {
            assert!(!patient.failure(&h, &u, false));
        }
        assert!(!patient.status(&h).bad);
    }

    #[tokio::test]
    async fn retry_after_defers_the_host() {
        let hosts = Hosts::new(2, 5, Duration::ZERO, Some(3), Duration::from_secs(60));
        let u = url("http://d.example/");
        hosts.defer(&u.host_key(), Duration::from_millis(40));
        let t0 = Instant::now();
        drop(hosts.acquire(&u).await.unwrap());
        assert!(t0.elapsed() >= Duration::from_millis(40));
    }

    #[test]
    fn burst_follows_politeness() {
        let new = |per_host, per_domain, interval| {
            Hosts::new(
                per_host,
                per_domain,
                interval,
                Some(3),
                Duration::from_secs(60),
            )
        };
        let hosts = new(2, 5, Duration::ZERO);
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
        hosts.failure(&c, &url("http://c.example/"), true);
        assert_eq!(hosts.status(&c).burst, 1, "a host that timed out");
        let polite = new(2, 5, Duration::from_millis(1));
        polite.success(&a);
        assert_eq!(polite.status(&a).burst, 1, "any interval spaces requests");
        let narrow = new(4, 3, Duration::ZERO);
        narrow.success(&a);
        assert_eq!(narrow.status(&a).burst, 3, "the domain limit binds");
    }
}
