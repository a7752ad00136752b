//! Opening a crawl: a fresh one is seeded, a stored one resumed. On
//! resume fetched pages are never fetched again, queued URLs come back in
//! their original order with their numtries (a URL put back after a
//! transient failure keeps its count), and the tally, link values, link graph, duplicate
//! detector, stagnation diagnosis, host timings and backlink requests
//! made are rebuilt from the store so the crawl goes on as it would have, and `pages.jsonl` is
//! rewritten from the store (a killed crawl may have left it short or torn).

use std::collections::{HashMap, HashSet};

use focus_core::{CanonicalUrl, Canonicalizer, DomainKey, HostKey, PageId};
use focus_fetch::Fingerprint;
use focus_frontier::{Candidate, TunnelState};
use focus_store::PageRecord;

use crate::apply::CrawlState;
use crate::error::CrawlError;
use crate::lessons::{harvested_relevance, learn_host, learn_link, learn_link_model, meet_links};
use crate::parts::Analysis;
use crate::policy::LinkPriority;
use crate::rescore;
use crate::robots_known;
use crate::scorer::Scorer;
use crate::siblings::family_key;
use crate::stored_form::{
    host_limit_key, host_ready_key, queued, stored_seq, HELD_KEY, PARENTS_FOUND_KEY,
    PARENT_REQUESTS_KEY, ROBOTS_REFUSED_LINKS_KEY, SEARCHED_KEY,
};

/// A stored page's part in the sibling feedback ([`crate::siblings`]), as
/// the crawl played it: its rule if it was expanded, then what it
/// harvested as its parent's child (the re-scorings that caused are in the
/// stored queue already).
fn replay_family(st: &mut CrawlState, p: &PageRecord) -> Result<(), CrawlError> {
    if let Some(rule) = st.store.get_meta::<LinkPriority>(&family_key(p.id))? {
        st.tally.siblings.expanded(p.id, rule);
    }
    if let Some(parent) = p.parent {
        let _ = st.tally.siblings.child(parent, harvested_relevance(p));
    }
    Ok(())
}

/// Queues the seeds of a fresh crawl (frontier and store).
pub(crate) fn seed(st: &mut CrawlState, seeds: &[CanonicalUrl]) -> Result<(), CrawlError> {
    if seeds.is_empty() {
        return Err(CrawlError::NoSeeds);
    }
    let seeds: Vec<Candidate> = seeds
        .iter()
        .map(|u| Candidate::new(u.clone(), 0, None, 1.0))
        .collect();
    for c in &seeds {
        st.frontier.push(c.clone());
    }
    let stored: Vec<_> = seeds.iter().map(|c| queued(c, &st.frontier, &[])).collect();
    st.store.enqueue(&stored)?;
    Ok(())
}

/// Rebuilds the crawl state from its store; returns the notice to show.
pub(crate) fn resume(
    st: &mut CrawlState,
    analysis: &Analysis,
    scorer: &Scorer,
) -> Result<String, CrawlError> {
    let canon = Canonicalizer::default();
    let mut hosts = HashSet::new();
    // In the crawl's order, so the harvest moving average (which sets the
    // dispatch floor) and the stagnation census end where they stopped, and
    // pages.jsonl is rewritten as it was.
    let mut pages = st.store.pages().collect::<Result<Vec<_>, _>>()?;
    pages.sort_by_key(|p| p.seq);
    let retried = st.store.retried_attempts().collect::<Result<Vec<_>, _>>()?;
    let url_of: HashMap<u64, &str> = pages.iter().map(|p| (p.id, p.url.as_str())).collect();
    let urls: Vec<Option<CanonicalUrl>> = pages
        .iter()
        .map(|p| canon.canonicalize(&p.url).ok())
        .collect();
    // Each page's relevance and site, for the link yields of its children.
    let sites: HashMap<u64, (f64, DomainKey)> = pages
        .iter()
        .zip(&urls)
        .filter_map(|(p, u)| Some((p.id, (p.relevance, u.as_ref()?.domain_key()))))
        .collect();
    // The attempts that put their URL back, merged in crawl order: they
    // count, taught the host's health and have their lines, nothing more.
    let mut retried = retried.into_iter().peekable();
    for (p, url) in pages.iter().zip(&urls) {
        while let Some(a) = retried.next_if(|a| a.seq < p.seq) {
            replay_retried(st, &a, analysis, scorer, &url_of, &mut hosts)?;
        }
        st.frontier.mark_seen(PageId(p.id));
        if let Some(id) = p
            .final_url
            .as_deref()
            .and_then(|u| canon.canonicalize(u).ok())
        {
            st.frontier.mark_seen(id.page_id());
        }
        replay_answer(st, p, url.as_ref(), &mut hosts);
        if let Some(url) = url {
            st.tally.ascents.learn(&url.host_key(), p);
        }
        let truth = scorer.page(&p.url, p.error.is_none() && p.duplicate.is_none());
        st.log.write(
            p,
            p.parent.and_then(|id| url_of.get(&id).copied()),
            p.duplicate.and_then(|(_, of)| url_of.get(&of).copied()),
            truth,
        )?;
        replay_family(st, p)?;
        if p.duplicate.is_some() {
            // Recorded, but taught nothing and harvested nothing.
            st.tally.push_duplicate(p.id, truth);
            let _ = st.tally.new_diagnosis(&analysis.taxonomy);
            continue;
        }
        if let (Some(content), Some(simhash)) = (p.content_hash, p.fingerprint) {
            st.duplicates
                .remember(p.id, Fingerprint { content, simhash });
        }
        if let Some((_, site)) = sites.get(&p.id) {
            let parent = p.parent.and_then(|id| sites.get(&id));
            learn_link(&mut st.tally, parent, site, p.relevance);
        }
        learn_link_model(&mut st.tally, p);
        let best = p.class.as_deref().and_then(|c| analysis.taxonomy.find(c));
        st.tally.push(p.id, p.relevance, best, truth);
        // The census as the crawl ran it, so a diagnosis made before the
        // stop is made again at the same page, not later.
        let _ = st.tally.new_diagnosis(&analysis.taxonomy);
    }
    for a in retried {
        replay_retried(st, &a, analysis, scorer, &url_of, &mut hosts)?;
    }
    rebuild_graph(st, &pages, &sites, &canon)?;
    for host in &hosts {
        if let Some(limit) = st.store.get_meta::<u32>(&host_limit_key(host))? {
            st.frontier.set_host_limit(host, limit);
        }
        if let Some(at) = st.store.get_meta::<u64>(&host_ready_key(host))? {
            st.frontier.cool_until(host, at);
        }
    }
    // The backlink budget goes on from what the crawl spent (even when this
    // run has no expansion, the counts stay in the summary).
    st.tally.parent_requests = st.store.get_meta(PARENT_REQUESTS_KEY)?.unwrap_or(0);
    st.tally.parents_found = st.store.get_meta(PARENTS_FOUND_KEY)?.unwrap_or(0);
    st.tally.held = st.store.get_meta(HELD_KEY)?.unwrap_or(0);
    st.tally.searched = st.store.get_meta(SEARCHED_KEY)?.unwrap_or(0);
    st.tally.robots_refused_links = st.store.get_meta(ROBOTS_REFUSED_LINKS_KEY)?.unwrap_or(0);
    // The robots.txt rules the crawl held, from their kept text.
    let origins: HashSet<String> = urls
        .iter()
        .flatten()
        .map(focus_fetch::robots_origin)
        .collect();
    for origin in origins {
        let kept: Option<Vec<u8>> = st.store.get_meta(&robots_known::meta_key(&origin))?;
        if let Some(rules) = kept.and_then(|body| analysis.fetcher.parse_robots(&body)) {
            st.tally.robots.restore(origin, rules);
        }
    }
    if let Some(expansion) = &analysis.parents {
        expansion.restore(st.tally.parent_requests);
    }
    let mut stored = st.store.queued().collect::<Result<Vec<_>, _>>()?;
    stored.sort_by_key(stored_seq);
    for q in stored {
        if let Ok(url) = canon.canonicalize(&q.url) {
            st.frontier.push(Candidate {
                numtries: q.numtries,
                tunnel: TunnelState {
                    off_topic_steps: q.tunnel,
                },
                ..Candidate::new(url, q.depth, q.parent.map(PageId), q.priority)
            });
        }
    }
    rescore::finish_interrupted_sweep(st)?;
    Ok(format!(
        "resumed: {} pages already fetched, {} queued",
        st.tally.fetched,
        st.frontier.len()
    ))
}

/// Replays what attempt `p` (at `url`, when its stored URL still parses)
/// told the crawl about its outcome and its host, and the host's served
/// count, as `apply` did.
fn replay_answer(
    st: &mut CrawlState,
    p: &focus_store::PageRecord,
    url: Option<&CanonicalUrl>,
    hosts: &mut HashSet<HostKey>,
) {
    st.tally.count_outcome(p.error.as_deref(), p.retry);
    if let Some(url) = url {
        let host = url.host_key();
        learn_host(&mut st.tally, p, &host, &url.domain_key());
        st.frontier.note_served(&host);
        hosts.insert(host);
    }
}

/// Replays an attempt that put its URL back: its count, its outcome, its
/// host's answer and its `pages.jsonl` line (its URL is still queued).
fn replay_retried(
    st: &mut CrawlState,
    a: &focus_store::PageRecord,
    analysis: &Analysis,
    scorer: &Scorer,
    url_of: &HashMap<u64, &str>,
    hosts: &mut HashSet<HostKey>,
) -> Result<(), CrawlError> {
    replay_answer(st, a, a.url.parse::<CanonicalUrl>().ok().as_ref(), hosts);
    let truth = scorer.page(&a.url, false);
    st.log.write(
        a,
        a.parent.and_then(|id| url_of.get(&id).copied()),
        None,
        truth,
    )?;
    st.tally.push(a.id, 0.0, None, truth);
    let _ = st.tally.new_diagnosis(&analysis.taxonomy);
    Ok(())
}

fn host_id(url: &str) -> u64 {
    HostKey::of_url(url).map_or(0, |h| h.id())
}

/// The link graph of the stored pages and links, and the kinds of link
/// the crawl had met.
fn rebuild_graph(
    st: &mut CrawlState,
    pages: &[focus_store::PageRecord],
    sites: &HashMap<u64, (f64, DomainKey)>,
    canon: &Canonicalizer,
) -> Result<(), CrawlError> {
    let mut out: HashMap<u64, Vec<(u64, u64)>> = HashMap::new();
    for link in st.store.links_with_urls() {
        let (from, to, url) = link?;
        if let Some((_, site)) = sites.get(&from) {
            let target = || canon.canonicalize(&url).ok().map(|u| u.domain_key());
            meet_links(&mut st.tally, site, std::iter::once_with(target).flatten());
        }
        out.entry(from).or_default().push((to, host_id(&url)));
    }
    for p in pages {
        let links = out.remove(&p.id).unwrap_or_default();
        st.graph
            .page(p.id, host_id(&p.url), harvested_relevance(p), links);
    }
    Ok(())
}
