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
//! frontier, times what ascents have opened so far: the mean relevance of
//! the pages fetched on hosts entered through their roots (a root that did
//! not answer counts as one page of relevance 0), smoothed towards the
//! crawl's base rate (the relevance of its average fetched page) with
//! [`PRIOR_WEIGHT`] pseudo-pages. A root is a page nobody linked to: before
//! the crawl has seen what roots lead to, it is worth what the average
//! fetch is, so while the crawl has topical links to follow, a run of dead
//! links does not send it to a run of roots (from seeds off the topic,
//! where every queued URL is poor, it still can: the roots of one batch are
//! priced before any is fetched; `docs/crawl.md`, "Path ascent"). Where
//! the hosts reached through roots hold topical pages, the factor rises
//! towards their share; where roots are missing (a replayed
//! corpus holding only some pages of each host) or lead off the topic, it
//! falls and later roots sink in the frontier, still queued: nothing is
//! dropped. The root is marked as an ascent
//! ([`crate::apprentice::ascent_features`]) and teaches the link model
//! nothing: no link leads to it, so what it yields says nothing of the
//! dead link's words.
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

/// Pseudo-pages behind the prior that what a root opens is worth the
/// crawl's base rate.
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

/// The hosts that have served a page, the hosts entered through their
/// roots, and what those roots opened.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ascents {
    entered: HashSet<u64>,
    through_root: HashSet<u64>,
    fetched: u64,
    answered: u64,
    /// Pages fetched on hosts entered through their roots (roots that did
    /// not answer included), and the sum of their relevance.
    opened: u64,
    opened_relevance: f64,
}

impl Ascents {
    /// Nothing fetched yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Learns from the final attempt `p` at a URL on `host`: whether the
    /// host served a page, whether `p` was a root climbed to and whether
    /// it answered, and what a page on a host entered through its root was
    /// worth.
    pub fn learn(&mut self, host: &HostKey, p: &PageRecord) {
        let served = p.error.is_none();
        if served {
            self.entered.insert(host.id());
        }
        if apprentice::is_ascent(&p.link_features) {
            self.fetched += 1;
            self.answered += u64::from(served);
            if served {
                self.through_root.insert(host.id());
            } else {
                self.opened += 1;
            }
        }
        if served && self.through_root.contains(&host.id()) {
            self.opened += 1;
            self.opened_relevance += p.relevance.clamp(0.0, 1.0);
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

    /// The factor in [0, 1] on a root's priority: the mean relevance of
    /// what roots have opened, smoothed towards the crawl's base rate
    /// `base_rate` (the relevance of its average fetched page).
    pub fn factor(&self, base_rate: f64) -> f64 {
        let prior = base_rate.clamp(0.0, 1.0);
        (self.opened_relevance + PRIOR_WEIGHT * prior) / (self.opened as f64 + PRIOR_WEIGHT)
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
    use focus_frontier::Candidate;

    use super::*;

    fn url(s: &str) -> CanonicalUrl {
        s.parse().unwrap()
    }

    fn attempt(u: &str, error: Option<&str>, features: Vec<u32>) -> PageRecord {
        PageRecord {
            status: if error.is_some() { 404 } else { 200 },
            error: error.map(str::to_owned),
            link_features: features,
            ..crate::judge::blank_record(&Candidate::new(url(u), 0, None, 0.0))
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
    fn roots_are_priced_by_what_they_open_from_the_base_rate_up_or_down() {
        let root = apprentice::ascent_features().into_vec();
        let scored = |u: &str, error: Option<&str>, relevance: f64, f: &[u32]| PageRecord {
            relevance,
            ..attempt(u, error, f.to_vec())
        };
        let mut a = Ascents::new();
        assert_eq!(a.factor(0.3), 0.3, "no ascent yet: the base rate");
        assert_eq!(a.factor(1.7), 1.0, "a base rate is a share");
        // Roots that do not answer open nothing: later roots sink.
        let mut last = a.factor(0.3);
        for i in 0..6 {
            let u = format!("http://gone{i}.example/");
            a.learn(
                &url(&u).host_key(),
                &scored(&u, Some("status_404"), 0.0, &root),
            );
            assert!(a.factor(0.3) < last && a.factor(0.3) > 0.0);
            last = a.factor(0.3);
        }
        assert_eq!((a.fetched(), a.answered()), (6, 0));
        assert!((last - 0.6 / 8.0).abs() < 1e-12, "{last}");
        // A root that answers opens its host: its pages' relevance counts,
        // the root's included; a page on a host entered by a link does not.
        let mut b = Ascents::new();
        let home = url("http://home.example/");
        b.learn(
            &home.host_key(),
            &scored("http://home.example/", None, 0.5, &root),
        );
        for i in 0..5 {
            let u = format!("http://home.example/p{i}.html");
            b.learn(&home.host_key(), &scored(&u, None, 1.0, &[]));
        }
        b.learn(
            &url("http://linked.example/").host_key(),
            &scored("http://linked.example/a.html", None, 0.0, &[]),
        );
        b.learn(
            &home.host_key(),
            &scored(
                "http://home.example/gone.html",
                Some("status_404"),
                0.0,
                &[],
            ),
        );
        assert_eq!((b.fetched(), b.answered()), (1, 1));
        let want = (5.5 + 2.0 * 0.3) / 8.0;
        assert!((b.factor(0.3) - want).abs() < 1e-12, "{}", b.factor(0.3));
        assert!(b.factor(0.3) > 0.3, "roots that open topical hosts rise");
    }
}
