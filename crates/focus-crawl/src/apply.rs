//! Applying one judged page, in pop order: the duplicate check, the
//! policy's expansion into the frontier, the store record (page, links,
//! newly queued URLs), the re-scorings its lesson calls for
//! (`rescore.rs`), the `pages.jsonl` line and the tally (its lessons are
//! `lessons.rs`, the stored forms `stored_form.rs`). A page whose
//! text repeats an earlier page's is recorded and marked, but not
//! expanded, not learnt from and not counted as harvest. An attempt that
//! failed transiently puts its URL back in the frontier with numtries + 1
//! (the VLDB order tries it again after fresh URLs; a `Retry-After` also
//! cools its host) until `max_tries` attempts have failed. Must not fetch
//! or classify (the pipeline does) and must not depend on how fetches
//! interleaved.

use focus_core::{CanonicalUrl, HostKey};
use focus_fetch::{DuplicateDetector, Retry};
use focus_frontier::{Candidate, Frontier, PushResult};
use focus_store::{PageRecord, QueuedUrl, Store};

use crate::apprentice;
use crate::cited;
use crate::crawl_graph::CrawlGraph;
use crate::error::CrawlError;
use crate::judge::Judged;
use crate::lessons::{harvested_relevance, learn_host, learn_link, learn_link_model, meet_links};
use crate::output::{PagesLog, TextLog};
use crate::parts::Analysis;
use crate::policy::{Expansion, PageVerdict, Policy};
use crate::priority_trace::{self, Offer};
use crate::rescore::{self, link_priority, rescore_children};
use crate::robots_known;
use crate::scorer::Scorer;
use crate::siblings;
use crate::stored_form::{
    host_limit_key, host_ready_key, queued, stored_features, PARENTS_FOUND_KEY,
    PARENT_REQUESTS_KEY, ROBOTS_REFUSED_LINKS_KEY,
};
use crate::tally::Tally;

/// The crawl state a judged page changes.
pub(crate) struct CrawlState {
    pub(crate) frontier: Frontier,
    pub(crate) store: Store,
    pub(crate) log: PagesLog,
    pub(crate) texts: Option<TextLog>,
    pub(crate) tally: Tally,
    pub(crate) graph: CrawlGraph,
    pub(crate) duplicates: DuplicateDetector,
}

/// Near-duplicate threshold: SimHashes at most this many bits apart (of
/// 64) are the same text (the largest the detector's banded index finds
/// exhaustively; unrelated texts differ in about 32 bits).
pub(crate) const NEAR_DUPLICATE_BITS: u32 = 3;

/// What decides and records, but is not changed by, a judged page.
pub(crate) struct Rules<'a> {
    pub(crate) analysis: &'a Analysis,
    pub(crate) policy: &'a dyn Policy,
    pub(crate) scorer: &'a Scorer,
    /// Attempts at one URL before a transient failure abandons it.
    pub(crate) max_tries: u32,
}

/// Applies page `j`, fetched for candidate `c` in the batch popped at
/// logical time `now`.
pub(crate) fn apply(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    c: &Candidate,
    j: &Judged,
    now: u64,
) -> Result<(), CrawlError> {
    // The frontier hands a host out again only after its politeness
    // interval (robots.txt crawl-delay included), and only as many URLs at
    // once as the fetcher runs without one waiting (its connections, or one
    // for a host with an interval), so a batch never waits on a host.
    let host = rules.analysis.fetcher.host_status(&c.host);
    if st.frontier.host_limit(&c.host) != host.burst {
        st.frontier.set_host_limit(&c.host, host.burst);
        // Kept so a resumed crawl dispatches this host as the original did.
        st.store.put_meta(&host_limit_key(&c.host), &host.burst)?;
    }
    let ready_at = now + host.interval.as_millis() as u64;
    st.frontier.host_done(&c.host, ready_at);
    if !host.interval.is_zero() {
        // Kept so a resumed crawl lets this host cool as the original did.
        st.store.put_meta(&host_ready_key(&c.host), &ready_at)?;
    }
    priority_trace::fetched(c, j.record.relevance, st.tally.fetched);
    // The features of the link this URL was queued by: the link model's
    // training example (read before the store forgets the queued URL).
    let link_features = if rules.policy.uses_link_model() {
        st.store
            .get_queued(c.id.0)?
            .map(|q| stored_features(&q).into_vec())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    if j.retry != Retry::Never && c.numtries.saturating_add(1) < rules.max_tries {
        return put_back(rules, st, c, j, now, &link_features);
    }
    let keeps_cited = cited::kept(rules.analysis);
    let duplicate = j
        .fingerprint
        .and_then(|fp| st.duplicates.check(j.record.id, fp));
    let record = &PageRecord {
        seq: st.tally.fetched,
        duplicate,
        link_features,
        ..j.record.clone()
    };
    let parent = parent_page(&st.store, c)?;
    let site = c.url.domain_key();
    // Stored URLs are canonical; one that no longer parses teaches nothing.
    let parent_site = parent.as_ref().and_then(|p| {
        Some((
            p.relevance,
            p.url.parse::<CanonicalUrl>().ok()?.domain_key(),
        ))
    });
    learn_host(&mut st.tally, record, &c.host, &site);
    learn_robots(rules, st, c, record)?;
    st.tally.ascents.learn(&c.host, record);
    st.tally.count_outcome(record.error.as_deref(), false);
    back_off(rules, st, &c.host, now, j.retry)?;
    if let Some(id) = j.final_id {
        // A redirect's target is this page: never fetched on its own.
        st.frontier.mark_seen(id);
    }
    // Whether this page's lesson calls for re-scoring the whole frontier
    // (done once the page is stored, so a commit during it holds the page).
    let mut sweep = false;
    if duplicate.is_none() {
        learn_link(&mut st.tally, parent_site.as_ref(), &site, record.relevance);
        let trained = st.tally.apprentice.trained();
        learn_link_model(&mut st.tally, record);
        let now_trained = st.tally.apprentice.trained();
        sweep = now_trained != trained && rescore::frontier_due(now_trained);
        meet_links(
            &mut st.tally,
            &site,
            j.links.iter().map(|(_, u)| u.domain_key()),
        );
    }
    let mut new: Vec<QueuedUrl> = Vec::new();
    if let (Some(judgement), true, None) = (&j.judgement, j.follow, duplicate) {
        let verdict = PageVerdict {
            relevance: judgement.relevance,
            best_leaf: judgement.best,
            taxonomy: &rules.analysis.taxonomy,
            links: &st.tally.links,
            tunnel: c.tunnel,
            scores: &judgement.scores,
            parent_best: parent
                .as_ref()
                .and_then(|p| p.class.as_deref())
                .and_then(|class| rules.analysis.taxonomy.find(class)),
            similarity: j.similarity,
        };
        if let Expansion::Expand { priority, tunnel } = rules.policy.expand(&verdict) {
            // How many links took their priority from this page.
            let mut gave = 0_usize;
            let queue = rules.policy.queue_of(&verdict);
            let outlinks = j.links.iter().enumerate().map(|(i, (_, url))| {
                let features: &[u32] = j.link_features.get(i).map_or(&[], |f| f);
                let anchor = j.link_anchors.get(i).map_or("", String::as_str);
                (url, features, anchor)
            });
            // A parent (backlink expansion) is queued as if the page
            // linked to it: the page's evidence is what sends the crawl
            // there. It has no link features or anchor of its own.
            let parents = j.parents.iter().flatten().map(|url| (url, &[][..], ""));
            // A link robots.txt already refuses would cost an attempt of the
            // budget and teach nothing: it is left out, and counted.
            let mut refused = 0_u64;
            for (url, features, anchor) in outlinks.chain(parents) {
                if !rules.policy.follows(url, anchor) {
                    continue;
                }
                if st.tally.robots.refuses(url) {
                    refused += 1;
                    continue;
                }
                let p = link_priority(&st.tally, &priority, &site, url, features);
                let cand = Candidate {
                    tunnel,
                    layer: queue,
                    ..Candidate::new(url.clone(), c.depth + 1, Some(c.id), p)
                };
                let pushed = st.frontier.push(cand.clone());
                let from_relevance = judgement.relevance;
                let how = Offer::Link { from_relevance };
                priority_trace::offered(&st.frontier, &cand, &c.url, how, pushed);
                gave += usize::from(matches!(pushed, PushResult::Queued | PushResult::Raised));
                match pushed {
                    PushResult::Queued => {
                        let mut q = queued(&cand, &st.frontier, features);
                        if keeps_cited {
                            cited::add(&mut q.cited, anchor);
                        }
                        new.push(q);
                    }
                    PushResult::Raised => {
                        let mut q = queued(&cand, &st.frontier, features);
                        if keeps_cited {
                            q = cited::carried_over(&st.store, q, anchor)?;
                        }
                        st.store.update_queued(&q)?;
                    }
                    // Found again while it waits: one more description.
                    PushResult::AlreadySeen if keeps_cited && !anchor.trim().is_empty() => {
                        cited::add_to_stored(&st.store, cand.id.0, anchor)?;
                    }
                    PushResult::AlreadySeen | PushResult::Dropped => {}
                }
            }
            if refused > 0 {
                st.tally.robots_refused_links += refused;
                // Kept so a resumed crawl counts on.
                st.store
                    .put_meta(ROBOTS_REFUSED_LINKS_KEY, &st.tally.robots_refused_links)?;
            }
            if priority.by_link_model && gave > 0 {
                st.tally.siblings.expanded(c.id.0, priority);
                // Kept so a resumed crawl re-scores as the original did.
                st.store
                    .put_meta(&siblings::family_key(c.id.0), &priority)?;
            }
        }
    }
    if let Some(parents) = &j.parents {
        // Counted whatever the page turned out to be (a duplicate's request
        // was still made), and kept so a resumed crawl's budget goes on.
        st.tally.parent_requests += 1;
        st.tally.parents_found += parents.len() as u64;
        st.store
            .put_meta(PARENT_REQUESTS_KEY, &st.tally.parent_requests)?;
        st.store
            .put_meta(PARENTS_FOUND_KEY, &st.tally.parents_found)?;
    }
    if let (Some(texts), Some((title, text, links)), None) = (&mut st.texts, &j.text, duplicate) {
        texts.write(&focus_core::TextLine {
            // As in `pages.jsonl`, so the two join on it.
            url: record.url.clone(),
            title: title.clone(),
            text: text.clone(),
            links: links.clone(),
            cited: j.cited.clone(),
        })?;
    }
    if rules.policy.ascends_dead_links() {
        ascend(st, c, record, &mut new)?;
    }
    // A duplicate's links are its original's: they are not stored again,
    // so neither the graph nor a resumed crawl counts them twice.
    let links: &[_] = if duplicate.is_none() { &j.links } else { &[] };
    let stored_links: Vec<(u64, String)> =
        links.iter().map(|(id, u)| (id.0, u.to_string())).collect();
    st.store.record_fetch(record, &stored_links, &new)?;
    if let Some(parent) = c.parent {
        // What this child harvested tells on its parent's other links.
        // (A failure was never judged: its relevance is 0.)
        if let Some(rescore) = st
            .tally
            .siblings
            .child(parent.0, harvested_relevance(record))
        {
            rescore_children(st, &rescore)?;
        }
    }
    if sweep {
        rescore::rescore_frontier(st)?;
    }
    st.graph.page(
        record.id,
        c.host.id(),
        harvested_relevance(record),
        links.iter().map(|(id, u)| (id.0, u.host_key().id())),
    );
    // A failed fetch or a duplicate harvested nothing.
    let truth = rules
        .scorer
        .page(&record.url, j.judgement.is_some() && duplicate.is_none());
    let original = match duplicate {
        Some((_, of)) => st.store.get_page(of)?.map(|p| p.url),
        None => None,
    };
    st.log.write(
        record,
        parent.as_ref().map(|p| p.url.as_str()),
        original.as_deref(),
        truth,
    )?;
    match duplicate {
        None => {
            let best = j.judgement.as_ref().and_then(|x| x.best);
            st.tally.push(record.id, record.relevance, best, truth);
        }
        Some(_) => st.tally.push_duplicate(record.id, truth),
    }
    Ok(())
}

/// Takes the robots.txt rules this attempt obeyed, if they are new to the
/// crawl, and keeps their text so a resumed crawl holds them too
/// ([`crate::robots_known`]).
fn learn_robots(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    c: &Candidate,
    record: &PageRecord,
) -> Result<(), CrawlError> {
    if !robots_known::obeyed_rules(record.error.as_deref()) {
        return Ok(());
    }
    if let Some((origin, robots)) = st.tally.robots.learn(&c.url, &rules.analysis.fetcher) {
        st.store
            .put_meta(&robots_known::meta_key(&origin), &robots.body())?;
    }
    Ok(())
}

/// Queues the root of a gone page's host that has served no page
/// ([`crate::ascent`]) at the priority `c` had, times what ascents have
/// yielded, as a child of the dead URL, marked as an ascent (it teaches the
/// link model nothing); a root already queued lower is raised (keeping the
/// anchors stored for it).
fn ascend(
    st: &mut CrawlState,
    c: &Candidate,
    record: &PageRecord,
    new: &mut Vec<QueuedUrl>,
) -> Result<(), CrawlError> {
    let Some(root) = st.tally.ascents.root_after(&c.url, record.error.as_deref()) else {
        return Ok(());
    };
    let priority = c.priority * st.tally.ascents.factor(st.tally.apprentice.base_rate());
    let cand = Candidate {
        tunnel: c.tunnel,
        ..Candidate::new(root, c.depth + 1, Some(c.id), priority)
    };
    let features = apprentice::ascent_features();
    let pushed = st.frontier.push(cand.clone());
    priority_trace::offered(&st.frontier, &cand, &c.url, Offer::RootAscent, pushed);
    match pushed {
        PushResult::Queued => new.push(queued(&cand, &st.frontier, &features)),
        PushResult::Raised => {
            // Whatever anchors the store keeps for it stay.
            let q = cited::carried_over(&st.store, queued(&cand, &st.frontier, &features), "")?;
            st.store.update_queued(&q)?;
        }
        PushResult::AlreadySeen | PushResult::Dropped => {}
    }
    Ok(())
}

/// The stored page candidate `c` was found on (none for a seed).
fn parent_page(store: &Store, c: &Candidate) -> Result<Option<PageRecord>, CrawlError> {
    Ok(match c.parent {
        Some(p) => store.get_page(p.0)?,
        None => None,
    })
}

/// Lets `host` wait in the frontier while it fails in a row (policies that
/// back off failing hosts) and, when the server asked (`retry`), until its
/// `Retry-After` has passed; the wait is stored (never shortening a stored
/// one) so a resumed crawl keeps it.
fn back_off(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    host: &HostKey,
    now: u64,
    retry: Retry,
) -> Result<(), CrawlError> {
    let failing = match st.tally.hosts.backoff_ms(host) {
        ms if ms > 0 && rules.policy.backs_off_failing_hosts() => now + ms,
        _ => 0,
    };
    let asked = match retry {
        Retry::After(d) => now + d.as_millis() as u64,
        Retry::Later | Retry::Never => 0,
    };
    let until = failing.max(asked);
    if until > now {
        st.frontier.cool_until(host, until);
        let key = host_ready_key(host);
        let stored = st.store.get_meta::<u64>(&key)?.unwrap_or(0);
        st.store.put_meta(&key, &until.max(stored))?;
    }
    Ok(())
}

/// The transient failure of candidate `c`'s attempt `j`: the attempt is
/// recorded (store, `pages.jsonl`, tally; it harvested nothing) and the
/// URL goes back to the frontier with numtries + 1 and the same link
/// features, so the link model learns from its last attempt only.
fn put_back(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    c: &Candidate,
    j: &Judged,
    now: u64,
    link_features: &[u32],
) -> Result<(), CrawlError> {
    let record = PageRecord {
        seq: st.tally.fetched,
        retry: true,
        ..j.record.clone()
    };
    learn_host(&mut st.tally, &record, &c.host, &c.url.domain_key());
    st.tally.count_outcome(record.error.as_deref(), true);
    back_off(rules, st, &c.host, now, j.retry)?;
    // Back in the frontier with numtries + 1, which `queued` stores, and
    // with the anchors it was judged with.
    st.frontier.retry(c.clone());
    let again = QueuedUrl {
        cited: j.cited.clone(),
        ..queued(c, &st.frontier, link_features)
    };
    st.store.record_retry(&record, &again)?;
    let parent = parent_page(&st.store, c)?.map(|p| p.url);
    let truth = rules.scorer.page(&record.url, false);
    st.log.write(&record, parent.as_deref(), None, truth)?;
    st.tally.push(record.id, 0.0, None, truth);
    Ok(())
}
