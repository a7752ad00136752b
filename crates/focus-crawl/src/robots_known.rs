//! The robots.txt rules the crawl has met, so it leaves out the links it
//! may not fetch instead of queueing them: a refused URL would take a place
//! in the frontier and an attempt of `--max-pages`, and teach nothing.
//!
//! The rules are the fetcher's ([`focus_fetch::Fetcher::robots_rules`]),
//! but the crawl takes them in pop order: an origin's rules become known to
//! the crawl when the first page of the origin whose fetch obeyed them is
//! applied, and are kept as they were then. The fetcher's own cache fills
//! as fetches end, while earlier pages are still being applied, so reading
//! it when a link is met would make the crawl depend on timing. Each
//! origin's robots.txt text is kept in the store's run metadata, so a
//! resumed crawl knows what the original knew (the fetcher still fetches
//! robots.txt again, and obeys what it finds, before it fetches a page).
//!
//! Must not fetch anything: it only reads what the fetcher already holds.

use std::collections::HashMap;

use focus_core::CanonicalUrl;
use focus_fetch::{robots_origin, Fetcher, RobotsRules, ROBOTS_DISALLOWED};

/// The run-metadata key under which an origin's robots.txt text is kept.
pub(crate) fn meta_key(origin: &str) -> String {
    format!("robots {origin}")
}

/// Whether an attempt that ended with `error` obeyed its origin's
/// robots.txt as the fetcher holds it: it got a page or an HTTP answer, or
/// robots.txt refused it. Other failures (robots.txt unavailable, a host
/// that cannot be reached) may have come before the rules were read.
pub(crate) fn obeyed_rules(error: Option<&str>) -> bool {
    match error {
        None => true,
        Some(label) => label == ROBOTS_DISALLOWED || label.starts_with("status_"),
    }
}

/// Origins' robots.txt rules as the crawl took them, keyed by origin as
/// the fetcher keys its cache ([`focus_fetch::robots_origin`]).
#[derive(Default)]
pub(crate) struct RobotsKnown {
    rules: HashMap<String, RobotsRules>,
}

impl RobotsKnown {
    /// True when the rules the crawl holds for `url`'s origin disallow it;
    /// an origin it holds none for refuses nothing.
    pub(crate) fn refuses(&self, url: &CanonicalUrl) -> bool {
        self.rules
            .get(&robots_origin(url))
            .is_some_and(|r| !r.allows(url))
    }

    /// Takes the rules of `url`'s origin from the fetcher, once, after an
    /// attempt on `url` that obeyed them ([`obeyed_rules`]). Returns the
    /// origin and its rules when they are new to the crawl, to be kept.
    pub(crate) fn learn(
        &mut self,
        url: &CanonicalUrl,
        fetcher: &Fetcher,
    ) -> Option<(String, RobotsRules)> {
        let origin = robots_origin(url);
        if self.rules.contains_key(&origin) {
            return None;
        }
        let rules = fetcher.robots_rules(url)?;
        self.rules.insert(origin.clone(), rules.clone());
        Some((origin, rules))
    }

    /// Holds `rules` for `origin` (a resumed crawl's kept text).
    pub(crate) fn restore(&mut self, origin: String, rules: RobotsRules) {
        self.rules.insert(origin, rules);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_fetch::FetchConfig;

    fn url(s: &str) -> CanonicalUrl {
        s.parse().unwrap()
    }

    #[test]
    fn only_held_rules_refuse_and_each_origin_is_its_own() {
        let fetcher = Fetcher::new(FetchConfig::default()).unwrap();
        let mut known = RobotsKnown::default();
        let private = url("http://a.example/private/x.html");
        assert!(!known.refuses(&private), "nothing is held yet");
        // The fetcher has fetched nothing: there is nothing to learn.
        assert!(known.learn(&private, &fetcher).is_none());
        let rules = fetcher
            .parse_robots(b"User-agent: *\nDisallow: /private/\n")
            .unwrap();
        known.restore("http://a.example".to_owned(), rules);
        assert!(known.refuses(&private));
        assert!(!known.refuses(&url("http://a.example/public/x.html")));
        // Another port, another scheme: other origins, with no rules held.
        assert!(!known.refuses(&url("http://a.example:8080/private/x.html")));
        assert!(!known.refuses(&url("https://a.example/private/x.html")));
        assert!(known.refuses(&url("http://a.example/private/y.html")));
    }

    #[test]
    fn attempts_that_obeyed_the_rules() {
        assert!(obeyed_rules(None));
        assert!(obeyed_rules(Some("status_404")));
        assert!(obeyed_rules(Some("robots_disallowed")));
        assert!(!obeyed_rules(Some("robots_unavailable")));
        assert!(!obeyed_rules(Some("dns_error")));
        assert!(!obeyed_rules(Some("timeout_connect")));
    }

    #[test]
    fn keys_name_the_origin() {
        assert_eq!(
            meta_key("https://a.example:8443"),
            "robots https://a.example:8443"
        );
    }
}
