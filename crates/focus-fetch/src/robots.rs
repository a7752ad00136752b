//! robots.txt per RFC 9309, parsed by `texting_robots`: fetched once per
//! origin and cached with an expiry. 2xx → rules (longest match wins,
//! crawl-delay honoured); 4xx → allow all; 5xx or unreachable → the origin
//! is not crawled until a retry time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use focus_core::CanonicalUrl;

use texting_robots::Robot;
use tokio::time::Instant;

/// What the cache knows about one origin.
#[derive(Clone)]
pub(crate) enum Rules {
    /// Parsed rules (and the crawl-delay they carry).
    Parsed(RobotsRules),
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

/// One origin's parsed robots.txt, with the text it was parsed from so a
/// crawl can keep it beside its own state and parse it again on resume
/// ([`crate::Fetcher::robots_rules`], [`crate::Fetcher::parse_robots`]).
#[derive(Clone)]
pub struct RobotsRules {
    robot: Arc<Robot>,
    body: Arc<[u8]>,
}

impl RobotsRules {
    /// Parses `body` for the user agent `agent`; `None` when it does not
    /// parse (the fetcher then allows everything).
    pub(crate) fn parse(agent: &str, body: &[u8]) -> Option<RobotsRules> {
        let robot = Robot::new(agent, body).ok()?;
        Some(RobotsRules {
            robot: Arc::new(robot),
            body: body.into(),
        })
    }

    /// Whether the rules let the crawler fetch `url`.
    pub fn allows(&self, url: &CanonicalUrl) -> bool {
        self.robot.allowed(url.as_str())
    }

    /// The robots.txt text the rules were parsed from (at most
    /// `max_robots_bytes`).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// `Crawl-delay`, in seconds, if the rules give one.
    pub(crate) fn delay(&self) -> Option<f32> {
        self.robot.delay
    }
}

/// The origin (`scheme://host[:port]`) robots.txt applies to, as the
/// fetcher keys its cache.
pub fn origin_of(url: &CanonicalUrl) -> String {
    format!("{}://{}", url.scheme(), url.host_key())
}

/// Parses a robots.txt body (already size-limited); unparsable → allow all.
pub(crate) fn parse(agent: &str, body: &[u8]) -> Rules {
    match RobotsRules::parse(agent, body) {
        Some(rules) => Rules::Parsed(rules),
        None => Rules::AllowAll,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl RobotsRules {
        fn allowed_str(&self, url: &str) -> bool {
            self.robot.allowed(url)
        }
    }

    #[test]
    fn rules_keep_their_text_and_answer_for_urls() {
        let txt = b"User-agent: *\nDisallow: /private/\n";
        let Rules::Parsed(r) = parse("focus-crawler", txt) else {
            panic!("parsed")
        };
        assert_eq!(r.body(), txt);
        let url = |s: &str| s.parse::<CanonicalUrl>().unwrap();
        assert!(!r.allows(&url("http://a.example/private/x.html")));
        assert!(r.allows(&url("http://a.example/public/x.html")));
        assert_eq!(origin_of(&url("http://a.example/x")), "http://a.example");
        assert_eq!(
            origin_of(&url("https://a.example:8443/x")),
            "https://a.example:8443"
        );
    }

    #[test]
    fn longest_match_and_crawl_delay() {
        let txt = b"User-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 2\n";
        let Rules::Parsed(r) = parse("focus-crawler", txt) else {
            panic!("parsed")
        };
        assert!(!r.allowed_str("http://a.example/private/x"));
        assert!(r.allowed_str("http://a.example/private/open/x"));
        assert!(r.allowed_str("http://a.example/public"));
        assert_eq!(r.delay(), Some(2.0));
    }

    #[test]
    fn agent_specific_groups() {
        let txt = b"User-agent: focus-crawler\nDisallow: /\n\nUser-agent: *\nDisallow:\n";
        let Rules::Parsed(r) = parse("focus-crawler", txt) else {
            panic!("parsed")
        };
        assert!(!r.allowed_str("http://a.example/x"));
        let Rules::Parsed(other) = parse("otherbot", txt) else {
            panic!("parsed")
        };
        assert!(other.allowed_str("http://a.example/x"));
    }
}
