//! What a stored page teaches the tally: its host's health, the link
//! model's example, the link values of its kind of link, and what it
//! harvested. Shared by applying a fresh page (`apply.rs`) and by replaying
//! the stored pages when a crawl resumes (`resume.rs`), so both learn the
//! same; must not touch the frontier or the store.

use focus_core::{DomainKey, HostKey};
use focus_fetch::{FetchError, ROBOTS_DISALLOWED};
use focus_store::PageRecord;

use crate::link_value::LinkKind;
use crate::tally::Tally;

/// What a stored page harvested: its relevance, or nothing when its text
/// repeated an earlier page's.
pub(crate) fn harvested_relevance(p: &PageRecord) -> f64 {
    if p.duplicate.is_some() {
        0.0
    } else {
        p.relevance
    }
}

/// Records whether page `p`'s host `host` (site `site`) answered, for
/// [`crate::host_health`]: any HTTP answer counts (a 404 is the URL's
/// fault, not the host's); a URL the crawl did not request (robots.txt
/// forbade it) says nothing, and neither does a URL timing out again (one
/// slow page is not its host's fault: timeouts count against a host across
/// different URLs, as in the fetcher).
pub(crate) fn learn_host(tally: &mut Tally, p: &PageRecord, host: &HostKey, site: &DomainKey) {
    let error = p.error.as_deref();
    if error == Some(ROBOTS_DISALLOWED) {
        return;
    }
    if p.attempt > 1 && error.is_some_and(FetchError::is_timeout_label) {
        return;
    }
    let answered = !error.is_some_and(FetchError::is_host_fault_label);
    tally.hosts.record(host, site, answered);
}

/// Teaches the link model what the link that queued page `p` led to: its
/// relevance, or 0 for a failed fetch; a URL the crawl did not request
/// (robots.txt forbade it) and a seed (no link features) teach nothing.
pub(crate) fn learn_link_model(tally: &mut Tally, p: &PageRecord) {
    if p.error.as_deref() != Some(ROBOTS_DISALLOWED) {
        tally.apprentice.train(&p.link_features, p.relevance);
    }
}

/// Teaches the tally's link values what the link from `parent` (its
/// relevance and site, when the page has one) to a page on `site` of
/// relevance `relevance` yielded.
pub(crate) fn learn_link(
    tally: &mut Tally,
    parent: Option<&(f64, DomainKey)>,
    site: &DomainKey,
    relevance: f64,
) {
    if let Some((parent_relevance, parent_site)) = parent {
        let kind = LinkKind::between(parent_site, site);
        tally.links.observe(*parent_relevance, kind, relevance);
    }
}

/// Teaches the tally's link values which kinds of link a page on `site`
/// offers, from the sites its stored out-links lead to (read lazily: once
/// both kinds have been met no further target is computed).
pub(crate) fn meet_links(
    tally: &mut Tally,
    site: &DomainKey,
    targets: impl IntoIterator<Item = DomainKey>,
) {
    let mut targets = targets.into_iter();
    while !tally.links.met_both_kinds() {
        let Some(to) = targets.next() else { break };
        tally.links.meet(LinkKind::between(site, &to));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stagnation::StagnationConfig;

    fn attempt(n: u32, error: Option<&str>) -> PageRecord {
        PageRecord {
            url: "http://a.test/slow".into(),
            id: 1,
            attempt: n,
            error: error.map(str::to_owned),
            ..PageRecord::default()
        }
    }

    #[test]
    fn only_the_hosts_own_faults_make_it_wait() {
        let mut t = Tally::new(10, StagnationConfig::default());
        let (host, site) = (HostKey::new("a.test", None), DomainKey::of_host("a.test"));
        learn_host(&mut t, &attempt(1, Some("status_500")), &host, &site);
        assert_eq!(t.hosts.backoff_ms(&host), 0, "a 500 is the URL's fault");
        learn_host(&mut t, &attempt(1, Some("timeout_slow")), &host, &site);
        let once = t.hosts.backoff_ms(&host);
        assert!(once > 0, "a timeout of a new URL counts against its host");
        learn_host(&mut t, &attempt(2, Some("timeout_slow")), &host, &site);
        learn_host(&mut t, &attempt(3, Some("timeout_slow")), &host, &site);
        assert_eq!(
            t.hosts.backoff_ms(&host),
            once,
            "the same URL timing out again is still the URL's fault"
        );
        learn_host(&mut t, &attempt(1, Some(ROBOTS_DISALLOWED)), &host, &site);
        assert_eq!(t.hosts.backoff_ms(&host), once, "a refusal says nothing");
        learn_host(&mut t, &attempt(1, None), &host, &site);
        assert_eq!(t.hosts.backoff_ms(&host), 0, "an answer ends the wait");
    }
}
