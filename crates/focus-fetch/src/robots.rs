//! robots.txt per RFC 9309, parsed by `texting_robots`: fetched once per
//! origin and cached with an expiry. 2xx → rules (longest match wins,
//! crawl-delay honoured); 4xx → allow all; 5xx or unreachable → the origin
//! is not crawled until a retry time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use texting_robots::Robot;
use tokio::time::Instant;

/// What the cache knows about one origin.
#[derive(Clone)]
pub(crate) enum Rules {
    /// Parsed rules (and the crawl-delay they carry).
    Parsed(Arc<Robot>),
    /// No robots.txt (4xx): everything is allowed.
    AllowAll,
    /// 5xx or unreachable: ask again after `until`.
    Unavailable { until: Instant },
    /// The origin itself cannot be reached safely (SSRF guard, DNS, TLS):
    /// every URL of it fails with this error until `until`.
    Refused {
        error: crate::outcome::FetchError,
        until: Instant,
    },
}

struct Entry {
    rules: Rules,
    expires: Instant,
}

/// Cache of robots rules by origin (`scheme://host:port`).
#[derive(Default)]
pub(crate) struct RobotsCache {
    map: Mutex<HashMap<String, Entry>>,
    /// One fetch per origin at a time.
    fetching: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl RobotsCache {
    pub(crate) fn get(&self, origin: &str) -> Option<Rules> {
        let map = self.map.lock().ok()?;
        let e = map.get(origin)?;
        (Instant::now() < e.expires).then(|| e.rules.clone())
    }

    pub(crate) fn put(&self, origin: &str, rules: Rules, ttl: Duration) {
        let expires = match &rules {
            Rules::Unavailable { until } | Rules::Refused { until, .. } => *until,
            _ => Instant::now() + ttl,
        };
        if let Ok(mut map) = self.map.lock() {
            map.insert(origin.to_owned(), Entry { rules, expires });
        }
    }

    pub(crate) fn lock_for(&self, origin: &str) -> Arc<tokio::sync::Mutex<()>> {
        self.fetching
            .lock()
            .map(|mut m| m.entry(origin.to_owned()).or_default().clone())
            .unwrap_or_default()
    }
}

/// Parses a robots.txt body (already size-limited); unparsable → allow all.
pub(crate) fn parse(agent: &str, body: &[u8]) -> Rules {
    match Robot::new(agent, body) {
        Ok(robot) => Rules::Parsed(Arc::new(robot)),
        Err(_) => Rules::AllowAll,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_match_and_crawl_delay() {
        let txt = b"User-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 2\n";
        let Rules::Parsed(r) = parse("focus-crawler", txt) else {
            panic!("parsed")
        };
        assert!(!r.allowed("http://a.example/private/x"));
        assert!(r.allowed("http://a.example/private/open/x"));
        assert!(r.allowed("http://a.example/public"));
        assert_eq!(r.delay, Some(2.0));
    }

    #[test]
    fn agent_specific_groups() {
        let txt = b"User-agent: focus-crawler\nDisallow: /\n\nUser-agent: *\nDisallow:\n";
        let Rules::Parsed(r) = parse("focus-crawler", txt) else {
            panic!("parsed")
        };
        assert!(!r.allowed("http://a.example/x"));
        let Rules::Parsed(other) = parse("otherbot", txt) else {
            panic!("parsed")
        };
        assert!(other.allowed("http://a.example/x"));
    }
}
