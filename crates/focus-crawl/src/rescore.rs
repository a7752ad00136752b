//! Re-scoring queued links with newer evidence. A link's priority is set
//! when its page is expanded, from what the crawl knew then: the page's
//! relevance, the link model and its host's health of that moment. Three
//! kinds of news re-score it later, in the frontier and in the store:
//!
//! - **its page's fetched children** (the sibling evidence of
//!   [`crate::siblings`]): one page's queued children, after 1, 2, 4, …
//!   of them were fetched;
//! - **a citation by one of the distiller's top hubs**: the link is raised
//!   to the policy's rule for a page of the highest evidence
//!   ([`crate::policy::Policy::hub_citation`]; the papers' raise to the
//!   highest priority), never lowered ([`raise_hub_citations`]);
//! - **a link model that has learnt more**: every queued link (every
//!   family's), each time the model's training pages reach
//!   [`PRIOR_PAGES`]` · 2^k` (100, 200, 400, …), as ACHE re-classifies its
//!   whole frontier when it retrains its link classifier. Without it a
//!   link keeps the score of the model that met it: the links queued while
//!   the model knew nothing keep the rule's ties, and a link the model
//!   later learns to rate low keeps the rate of its first pages. The
//!   doubling schedule bounds the work: when the frontier grows in
//!   proportion to the crawl, the sweeps together read about twice the
//!   links queued at the last one.
//!
//! Only policies that use the link model keep families, so only they
//! re-score. A sweep happens at an exact count of training pages, once
//! the page that reached it is stored, so a resumed crawl, whose stored
//! queue has the sweeps made before it stopped, sweeps next where the
//! original did. A sweep's last write records its count
//! ([`SWEPT_KEY`]); a crawl stopped during a sweep has stored no page
//! after it, so resume finds the count missing and sweeps again with the
//! same model, which writes what the sweep would have
//! ([`finish_interrupted_sweep`]). Must not decide an order by itself
//! (the frontier does) or fetch.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::time::Instant;

use focus_core::{CanonicalUrl, DomainKey, PageId};
use focus_frontier::Frontier;
use focus_store::{QueuedUrl, Store};

use crate::apply::CrawlState;
use crate::apprentice::PRIOR_PAGES;
use crate::error::CrawlError;
use crate::link_value::LinkKind;
use crate::policy::LinkPriority;
use crate::priority_trace::{self, Cause};
use crate::siblings::Rescore;
use crate::stored_form::stored_features;
use crate::tally::Tally;

/// Whether the link model's `trained`-th training page calls for
/// re-scoring the whole frontier: at [`PRIOR_PAGES`] training pages (the
/// model's confidence ½) and each doubling after.
pub(crate) fn frontier_due(trained: u64) -> bool {
    last_due(trained) == Some(trained)
}

/// The run-metadata key of the training-page count of the last finished
/// sweep.
pub(crate) const SWEPT_KEY: &str = "link_model_swept_at";

/// The training-page count of the last sweep due by `trained` training
/// pages (none before the first).
fn last_due(trained: u64) -> Option<u64> {
    let first = PRIOR_PAGES as u64;
    let doublings = (trained / first).checked_ilog2()?;
    Some(first << doublings)
}

/// On resume, once the frontier is rebuilt: sweeps again when the last
/// sweep due was not finished (the crawl stopped during it; a store
/// written before sweeps existed gets one too).
pub(crate) fn finish_interrupted_sweep(st: &mut CrawlState) -> Result<(), CrawlError> {
    let Some(due) = last_due(st.tally.apprentice.trained()) else {
        return Ok(());
    };
    if st.store.get_meta::<u64>(SWEPT_KEY)?.unwrap_or(0) < due {
        rescore_frontier(st)?;
    }
    Ok(())
}

/// Re-scores every queued link that has a family (that took its priority
/// from an expanded page) with its page's evidence and the link model and
/// host health of now, in one pass over the stored queue in id order (a
/// family's page is read once, for its site); the families left with no
/// child queued are forgotten.
pub(crate) fn rescore_frontier(st: &mut CrawlState) -> Result<(), CrawlError> {
    let CrawlState {
        frontier,
        store,
        tally,
        ..
    } = st;
    let started = Instant::now();
    let (mut read, mut moved) = (0_usize, 0_usize);
    let mut sites: HashMap<u64, Option<DomainKey>> = HashMap::new();
    for q in store.queued() {
        let q = q?;
        read += 1;
        let Some(r) = q.parent.and_then(|p| tally.siblings.rescore_of(p)) else {
            continue;
        };
        let site = match sites.entry(r.page) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(site_of(store, r.page)?),
        };
        let (Some(site), Ok(url)) = (site.as_ref(), q.url.parse::<CanonicalUrl>()) else {
            continue;
        };
        moved += usize::from(rescore_link(
            frontier,
            store,
            tally,
            (&r.rule, Cause::LinkModel),
            site,
            &url,
            q,
        )?);
    }
    tally.siblings.retain(|page| sites.contains_key(&page));
    store.put_meta(SWEPT_KEY, &tally.apprentice.trained())?;
    tracing::info!(
        "link model retrained ({} training pages): {moved} of {read} queued links re-scored, \
         {} pages' families kept, in {} ms",
        tally.apprentice.trained(),
        sites.len(),
        started.elapsed().as_millis()
    );
    Ok(())
}

/// The site of stored page `page` (none when it is not stored or its URL
/// no longer parses).
fn site_of(store: &Store, page: u64) -> Result<Option<DomainKey>, CrawlError> {
    Ok(store
        .get_page(page)?
        .and_then(|p| p.url.parse::<CanonicalUrl>().ok())
        .map(|u| u.domain_key()))
}

/// The priority `rule` gives a link from a page on `site` to `url` with
/// link features `features`: its link kind, the link model's blend and the
/// target host's health. Used when a page is expanded and again when its
/// queued children are re-scored, so both score a link alike.
pub(crate) fn link_priority(
    tally: &Tally,
    rule: &LinkPriority,
    site: &DomainKey,
    url: &CanonicalUrl,
    features: &[u32],
) -> f64 {
    let domain = url.domain_key();
    rule.of(
        LinkKind::between(site, &domain),
        |r| tally.apprentice.blend(r, features),
        || tally.hosts.factor(&url.host_key(), &domain),
    )
}

/// Raises the queued URLs among `cited` (the unvisited citations of the
/// distiller's top hubs) to the priority `rule` gives the link that queued
/// each (its page's site, its features; `rule`'s evidence alone when its
/// page is not stored), in the frontier and in the store; a URL already
/// that high keeps its priority. Returns how many moved.
pub(crate) fn raise_hub_citations(
    st: &mut CrawlState,
    rule: &LinkPriority,
    cited: &[PageId],
) -> Result<usize, CrawlError> {
    let mut raised = 0;
    for id in cited {
        let Some(mut q) = st.store.get_queued(id.0)? else {
            continue;
        };
        let site = match q.parent {
            Some(page) => site_of(&st.store, page)?,
            None => None,
        };
        let p = match (site, q.url.parse::<CanonicalUrl>()) {
            (Some(site), Ok(url)) => {
                link_priority(&st.tally, rule, &site, &url, &stored_features(&q))
            }
            _ => rule.page,
        };
        let before = priority_trace::before(&st.frontier, *id);
        if st.frontier.raise(*id, p) {
            priority_trace::hub_citation(&q.url, before, p);
            q.priority = p;
            st.store.update_queued(&q)?;
            raised += 1;
        }
    }
    Ok(raised)
}

/// Re-scores the queued children of a page (those it gave their priority)
/// with its rule `r` (the evidence its fetched children give so far:
/// [`crate::siblings`]) and the link model and host health of now,
/// lowering or raising each in the frontier and in the store; the page's
/// family is forgotten once none of its children is queued (fetched, or
/// raised by another page).
pub(crate) fn rescore_children(st: &mut CrawlState, r: &Rescore) -> Result<(), CrawlError> {
    let site = site_of(&st.store, r.page)?;
    let mut waiting = 0_usize;
    for (id, url) in st.store.outlinks(r.page)? {
        let Some(q) = st.store.get_queued(id)? else {
            continue;
        };
        if q.parent != Some(r.page) {
            continue;
        }
        waiting += 1;
        let (Some(site), Ok(url)) = (&site, url.parse::<CanonicalUrl>()) else {
            continue;
        };
        rescore_link(
            &mut st.frontier,
            &st.store,
            &st.tally,
            (&r.rule, Cause::Children),
            site,
            &url,
            q,
        )?;
    }
    if waiting == 0 {
        st.tally.siblings.forget(r.page);
    }
    Ok(())
}

/// Gives queued link `q` (to `url`, from a page on `site` with rule
/// `rule`, re-scored for `cause`) the priority of now, in the frontier and
/// in the store; whether it moved.
fn rescore_link(
    frontier: &mut Frontier,
    store: &Store,
    tally: &Tally,
    (rule, cause): (&LinkPriority, Cause),
    site: &DomainKey,
    url: &CanonicalUrl,
    mut q: QueuedUrl,
) -> Result<bool, CrawlError> {
    let p = link_priority(tally, rule, site, url, &stored_features(&q));
    let before = priority_trace::before(frontier, PageId(q.id));
    if !frontier.set_priority(PageId(q.id), p) {
        return Ok(false);
    }
    priority_trace::rescored(url, cause, rule.page, before, p);
    q.priority = p;
    store.update_queued(&q)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use focus_fetch::DuplicateDetector;
    use focus_frontier::{Candidate, Discipline};
    use focus_store::PageRecord;

    use super::*;
    use crate::crawl_graph::CrawlGraph;
    use crate::output::PagesLog;
    use crate::stagnation::StagnationConfig;
    use crate::stored_form::queued;

    #[test]
    fn the_frontier_is_re_scored_at_each_doubling_of_the_training_pages() {
        let due: Vec<u64> = (0..=2_000).filter(|&n| frontier_due(n)).collect();
        assert_eq!(due, [100, 200, 400, 800, 1_600]);
        for n in [0, 99, 100, 101, 399, 400, 1_599, 1_600, 3_199] {
            let last = due.iter().copied().rfind(|&d| d <= n);
            assert_eq!(last_due(n), last, "last sweep due by {n}");
        }
    }

    fn page(id: u64, url: &str) -> PageRecord {
        PageRecord {
            url: url.into(),
            id,
            attempt: 1,
            status: 200,
            relevance: 0.5,
            ..PageRecord::default()
        }
    }

    /// Queues `url`, found on page `parent` by a link with `features`, at
    /// priority ½ (frontier and store).
    fn queue(st: &mut CrawlState, url: &str, parent: u64, features: &[u32]) -> PageId {
        let Ok(url) = url.parse::<CanonicalUrl>() else {
            panic!("{url} is a URL");
        };
        let c = Candidate::new(url, 1, Some(PageId(parent)), 0.5);
        st.frontier.push(c.clone());
        st.store
            .enqueue(&[queued(&c, &st.frontier, features)])
            .unwrap();
        c.id
    }

    fn stored_priority(st: &CrawlState, id: PageId) -> f64 {
        st.store.get_queued(id.0).unwrap().unwrap().priority
    }

    /// An empty crawl's state in `dir`.
    fn state(dir: &std::path::Path) -> CrawlState {
        CrawlState {
            frontier: Frontier::new(Discipline::NumtriesPriority),
            store: Store::open(&dir.join("store")).unwrap(),
            log: PagesLog::create(dir).unwrap(),
            texts: None,
            tally: Tally::new(10, StagnationConfig::default()),
            graph: CrawlGraph::default(),
            duplicates: DuplicateDetector::new(3),
        }
    }

    /// Trains the link model on `pages` pairs of pages: a link with
    /// feature 7 led to a relevant page, one with feature 8 did not.
    fn teach(st: &mut CrawlState, pages: usize) {
        for _ in 0..pages {
            st.tally.apprentice.train(&[7], 1.0);
            st.tally.apprentice.train(&[8], 0.0);
        }
    }

    /// A page's rule of ½ with the link model.
    fn link_model_rule() -> LinkPriority {
        LinkPriority {
            by_link_model: true,
            ..LinkPriority::uniform(0.5)
        }
    }

    #[test]
    fn a_sweep_re_scores_every_familys_queued_links_with_the_model_of_now() {
        let dir = tempfile::tempdir().unwrap();
        let mut st = state(dir.path());
        // Page 1 queued x and y, each at its rule's ½ while the model knew
        // nothing; page 2 (no family: a policy without the link model)
        // queued z; page 3's family has no child queued any more.
        let rule = link_model_rule();
        for (id, url) in [
            (1, "http://a.test/1"),
            (2, "http://a.test/2"),
            (3, "http://a.test/3"),
        ] {
            st.store.put_page(&page(id, url)).unwrap();
        }
        st.tally.siblings.expanded(1, rule);
        st.tally.siblings.expanded(3, rule);
        let x = queue(&mut st, "http://a.test/x", 1, &[7]);
        let y = queue(&mut st, "http://b.test/y", 1, &[8]);
        let z = queue(&mut st, "http://a.test/z", 2, &[7]);
        // Since then the model learnt that feature 7 leads to relevant
        // pages and feature 8 does not.
        teach(&mut st, 100);
        rescore_frontier(&mut st).unwrap();
        let (px, py) = (stored_priority(&st, x), stored_priority(&st, y));
        assert!(px > 0.6 && py < 0.4, "x {px}, y {py}");
        assert_eq!(
            st.frontier.priority_of(x),
            Some(px),
            "frontier and store agree"
        );
        assert_eq!(st.frontier.priority_of(y), Some(py));
        assert_eq!(
            stored_priority(&st, z),
            0.5,
            "a link without a family keeps its priority"
        );
        assert!(st.tally.siblings.rescore_of(1).is_some());
        assert!(
            st.tally.siblings.rescore_of(3).is_none(),
            "a family with no child queued is forgotten"
        );
        let first = st.frontier.pop_ready(0).map(|c| c.id);
        assert_eq!(first, Some(x), "x is fetched first");
    }

    #[test]
    fn a_hub_citation_is_raised_to_the_rule_for_a_page_of_the_highest_evidence() {
        let dir = tempfile::tempdir().unwrap();
        let mut st = state(dir.path());
        st.store.put_page(&page(1, "http://a.test/1")).unwrap();
        // x and y were queued at ½ by page 1; z by a page not stored.
        let x = queue(&mut st, "http://a.test/x", 1, &[7]);
        let y = queue(&mut st, "http://b.test/y", 1, &[8]);
        let z = queue(&mut st, "http://a.test/z", 2, &[8]);
        teach(&mut st, 100);
        // The papers' rule: every citation to the highest priority.
        let paper = LinkPriority::uniform(1.0);
        let mut papers = state(&dir.path().join("papers"));
        papers.store.put_page(&page(1, "http://a.test/1")).unwrap();
        let py = queue(&mut papers, "http://b.test/y", 1, &[8]);
        assert_eq!(raise_hub_citations(&mut papers, &paper, &[py]).unwrap(), 1);
        assert_eq!(papers.frontier.priority_of(py), Some(1.0));
        // With the link model, a citation whose link it learnt to expect
        // nothing from is raised less; here not above its own ½, so it
        // keeps it.
        let rule = LinkPriority {
            by_link_model: true,
            ..paper
        };
        let raised = raise_hub_citations(&mut st, &rule, &[x, y, z, PageId(99)]).unwrap();
        assert_eq!(raised, 2, "x and z moved, y and the unqueued 99 did not");
        assert_eq!(st.frontier.priority_of(x), Some(1.0));
        assert_eq!(stored_priority(&st, x), 1.0, "frontier and store agree");
        assert_eq!(st.frontier.priority_of(y), Some(0.5));
        assert_eq!(stored_priority(&st, y), 0.5);
        assert!(
            rule.of(
                LinkKind::CrossSite,
                |r| st.tally.apprentice.blend(r, &[8]),
                || 1.0
            ) < 0.5
        );
        assert_eq!(
            st.frontier.priority_of(z),
            Some(1.0),
            "without its page, the rule's evidence alone"
        );
    }

    #[test]
    fn resume_finishes_a_sweep_the_crawl_stopped_in() {
        let dir = tempfile::tempdir().unwrap();
        let mut st = state(dir.path());
        st.store.put_page(&page(1, "http://a.test/1")).unwrap();
        st.tally.siblings.expanded(1, link_model_rule());
        let x = queue(&mut st, "http://a.test/x", 1, &[7]);
        teach(&mut st, 50);
        // A finished sweep at 100 training pages: nothing to do again.
        st.store.put_meta(SWEPT_KEY, &100_u64).unwrap();
        finish_interrupted_sweep(&mut st).unwrap();
        assert_eq!(stored_priority(&st, x), 0.5);
        // The crawl stopped during the sweep at 100: it is made again.
        st.store.put_meta(SWEPT_KEY, &0_u64).unwrap();
        finish_interrupted_sweep(&mut st).unwrap();
        assert!(stored_priority(&st, x) > 0.6);
        assert_eq!(st.store.get_meta::<u64>(SWEPT_KEY).unwrap(), Some(100));
    }
}
