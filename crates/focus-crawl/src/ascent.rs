//! Path ascent after a dead link: when a URL answers "gone" (404 or 410)
//! on a host that has served the crawl no page yet, the crawl queues that
//! host's root. A dead page does not mean a dead site: many dead links
//! point at pages removed from hosts that still answer, and a site's home
//! page leads to what it still holds. When the dead link was the crawl's
//! only way to the host, the host is lost without the ascent. (Path
//! ascending: Cothey, "Web-crawling reliability", JASIST 55(14), 2004,
//! found that a crawler climbing every URL's path reaches pages no link
//! leads to; this climbs only to the root, once per host, and only after a
//! dead link.)
//!
//! The root gets the priority the dead URL had when it was taken from the
//! frontier, times what ascents have yielded so far: the share of roots
//! that answered with a page, smoothed towards 1 with [`PRIOR_WEIGHT`]
//! pseudo-ascents. Where dead hosts keep their home pages the factor stays
//! near 1; where roots are missing too (a replayed corpus holding only some
//! pages of each host) it falls with each failed root and later roots sink
//! in the frontier, still queued: nothing is dropped. The root is marked as
//! an ascent ([`crate::apprentice::ascent_features`]) and teaches the link
//! model nothing: no link leads to it, so what it yields says nothing of
//! the dead link's words.
//!
//! A host gets at most one root (the frontier never queues a URL twice),
//! none once it has served a page (its links lead the crawl in) and none
//! for a name that does not resolve (nothing is there to climb to). Fed
//! every final attempt in pop order, by a fresh crawl and by a resumed
//! one's stored pages alike. Must not read the frontier or decide an
//! order.

use std::collections::HashSet;

use focus_core::{CanonicalUrl, HostKey};
use focus_store::PageRecord;

use crate::apprentice;

/// Pseudo-ascents behind the prior that a root answers.
pub const PRIOR_WEIGHT: f64 = 2.0;

/// Whether an attempt's error says its page is gone while its host answers.
pub fn is_gone(error: Option<&str>) -> bool {
    matches!(error, Some("status_404" | "status_410"))
}

/// The root (`/`) of `url`'s host, unless `url` is that root.
pub fn root_of(url: &CanonicalUrl) -> Option<CanonicalUrl> {
    let u = url.as_url();
    if u.path() == "/" && u.query().is_none() {
        return None;
    }
    let mut root = u.clone();
    root.set_path("/");
    root.set_query(None);
    root.set_fragment(None);
    root.as_str().parse().ok()
}

/// The hosts that have served a page and what the roots climbed to so far
/// answered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ascents {
    entered: HashSet<u64>,
    fetched: u64,
    answered: u64,
}

impl Ascents {
    /// Nothing fetched yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Learns from the final attempt `p` at a URL on `host`: whether the
    /// host served a page and, when `p` was a root climbed to, whether it
    /// answered with one.
    pub fn learn(&mut self, host: &HostKey, p: &PageRecord) {
        let served = p.error.is_none();
        if served {
            self.entered.insert(host.id());
        }
        if apprentice::is_ascent(&p.link_features) {
            self.fetched += 1;
            self.answered += u64::from(served);
        }
    }

    /// The root to queue after the final attempt at `url` failed with
    /// `error`, if the page is gone and its host has served no page.
    pub fn root_after(&self, url: &CanonicalUrl, error: Option<&str>) -> Option<CanonicalUrl> {
        if !is_gone(error) || self.entered.contains(&url.host_key().id()) {
            return None;
        }
        root_of(url)
    }

    /// The factor in (0, 1] on a root's priority: the smoothed share of
    /// roots fetched so far that answered with a page (prior 1).
    pub fn factor(&self) -> f64 {
        (self.answered as f64 + PRIOR_WEIGHT) / (self.fetched as f64 + PRIOR_WEIGHT)
    }

    /// Roots climbed to and fetched.
    pub fn fetched(&self) -> u64 {
        self.fetched
    }

    /// Of them, those that answered with a page.
    pub fn answered(&self) -> u64 {
        self.answered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> CanonicalUrl {
        s.parse().unwrap()
    }

    fn attempt(u: &str, error: Option<&str>, features: Vec<u32>) -> PageRecord {
        PageRecord {
            url: u.into(),
            id: url(u).page_id().0,
            attempt: 1,
            retry: false,
            final_url: None,
            seq: 0,
            status: if error.is_some() { 404 } else { 200 },
            error: error.map(str::to_owned),
            relevance: 0.0,
            class: None,
            depth: 0,
            parent: None,
            fetched_at_ms: 0,
            bytes: 0,
            fingerprint: None,
            content_hash: None,
            duplicate: None,
            link_features: features,
        }
    }

    #[test]
    fn climbs_to_the_root_of_a_gone_page_on_a_host_not_yet_entered() {
        let mut a = Ascents::new();
        let dead = url("http://owls.example/barn/owls.html?p=2#x");
        assert_eq!(
            a.root_after(&dead, Some("status_404"))
                .map(|u| u.to_string()),
            Some("http://owls.example/".to_owned())
        );
        assert!(a.root_after(&dead, Some("status_410")).is_some());
        for other in [
            None,
            Some("status_500"),
            Some("dns_error"),
            Some("robots_disallowed"),
        ] {
            assert_eq!(a.root_after(&dead, other), None, "{other:?}");
        }
        assert_eq!(
            a.root_after(&url("http://owls.example/"), Some("status_404")),
            None,
            "the root itself is gone: nothing above it"
        );
        assert!(a
            .root_after(&url("http://owls.example/?page=3"), Some("status_404"))
            .is_some());
        // Once the host has served a page, its links lead the crawl in.
        let host = dead.host_key();
        a.learn(
            &host,
            &attempt("http://owls.example/a.html", Some("status_404"), vec![]),
        );
        assert!(a.root_after(&dead, Some("status_404")).is_some());
        a.learn(&host, &attempt("http://owls.example/b.html", None, vec![]));
        assert_eq!(a.root_after(&dead, Some("status_404")), None);
        let elsewhere = url("http://other.example:8080/x/y");
        assert_eq!(
            a.root_after(&elsewhere, Some("status_404"))
                .map(|u| u.to_string()),
            Some("http://other.example:8080/".to_owned())
        );
    }

    #[test]
    fn roots_that_fail_sink_later_roots_and_roots_that_answer_keep_them() {
        let root = apprentice::ascent_features().into_vec();
        let mut a = Ascents::new();
        assert_eq!(a.factor(), 1.0, "no ascent yet: the dead link's priority");
        let mut last = 1.0;
        for i in 0..6 {
            let u = format!("http://gone{i}.example/");
            a.learn(
                &url(&u).host_key(),
                &attempt(&u, Some("status_404"), root.clone()),
            );
            assert!(a.factor() < last && a.factor() > 0.0, "{}", a.factor());
            last = a.factor();
        }
        assert_eq!((a.fetched(), a.answered()), (6, 0));
        assert_eq!(last, 2.0 / 8.0);
        let mut b = Ascents::new();
        for i in 0..6 {
            let u = format!("http://home{i}.example/");
            b.learn(&url(&u).host_key(), &attempt(&u, None, root.clone()));
        }
        assert_eq!(b.factor(), 1.0);
        // A page that was not climbed to says nothing of ascents.
        b.learn(
            &url("http://x.example/").host_key(),
            &attempt("http://x.example/a", Some("status_404"), vec![]),
        );
        assert_eq!((b.fetched(), b.factor()), (6, 1.0));
    }
}
