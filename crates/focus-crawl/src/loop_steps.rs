//! The steps both of the engine's loops take (the batch loop in
//! `engine.rs`, the stream in `stream.rs`): when the crawl must stop
//! and what the dispatch gives the free slots ([`Ends`]), one judged page
//! applied and reported ([`on_page`]), and the store's commits and
//! the distiller's runs as the crawl grows ([`Cadence`]).
//!
//! Must not import the engine or the stream; they import this.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use focus_core::StopReason;
use focus_frontier::Candidate;

use crate::apply::{apply, CrawlState, Rules};
use crate::config::CrawlConfig;
use crate::dispatch::{self, BusyHost, Next};
use crate::distill_step::{distill, next_distillation};
use crate::error::CrawlError;
use crate::judge::Judged;
use crate::observer::{Observer, Progress};
use crate::policy::Policy;
use crate::stored_form::{CLOCK_KEY, HELD_KEY, SEARCHED_KEY};

/// Hubs and authorities written to `hubs.tsv` and `authorities.tsv`.
pub(crate) const TOP_K: usize = 100;

/// The store's open group is committed once this long has passed since its
/// last commit, at the end of a batch (in a stream, after a page). A
/// commit is a sled transaction with two log syncs whatever its size,
/// which once per batch showed in a fast crawl's wall time (the
/// 10,000-page peer benchmark of `cargo xtask bench`), while a crash loses
/// sled's unflushed window (up to 500 ms) anyway. A crawl whose batches
/// take longer than this still commits every batch.
const COMMIT_EVERY: Duration = Duration::from_millis(100);

/// What every loop of the engine ends on: its settings, its policy and
/// when the crawl started.
pub(crate) struct Ends<'a> {
    pub(crate) cfg: &'a CrawlConfig,
    pub(crate) policy: &'a dyn Policy,
    pub(crate) started: Instant,
}

impl Ends<'_> {
    /// Why the crawl must stop now, if it must: a stop signal or the time
    /// limit (the page budget is each loop's own).
    pub(crate) fn stop_now(&self) -> Option<StopReason> {
        if self.cfg.stop.load(Ordering::Relaxed) {
            return Some(StopReason::Interrupted);
        }
        if self
            .cfg
            .time_limit
            .is_some_and(|t| self.started.elapsed() >= t)
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// What the dispatch gives the free slots at clock `now` with
    /// `in_flight` URLs out, counted ([`count_dispatch`]): at most
    /// `--concurrency` URLs out at once (one while the crawl looks for a
    /// foothold, [`dispatch::searching`]), never past the page budget;
    /// `None` when no slot is free.
    pub(crate) fn next(
        &self,
        st: &mut CrawlState,
        now: u64,
        in_flight: usize,
        busy: &[BusyHost],
    ) -> Result<Option<Next>, CrawlError> {
        let cfg = self.cfg;
        let left = cfg
            .max_pages
            .saturating_sub(st.tally.fetched.saturating_add(in_flight as u64));
        let searching = dispatch::searching(
            cfg.dispatch,
            self.policy.uses_link_model(),
            st.tally.judged_relevant,
            st.tally.fetched,
        );
        let room = dispatch::room(cfg.batch, left, searching).saturating_sub(in_flight);
        if room == 0 {
            return Ok(None);
        }
        let floor = dispatch::floor(cfg.dispatch, st.tally.tracker.moving_average());
        let next = dispatch::next_batch(&mut st.frontier, now, room, floor, busy);
        count_dispatch(st, &next, searching)?;
        Ok(Some(next))
    }
}

/// When the store commits and the distiller runs next.
pub(crate) struct Cadence {
    last_commit: Instant,
    next_distil: u64,
}

impl Cadence {
    /// A cadence starting now, for a crawl that has made `fetched`
    /// attempts, distilling every `distill_every` pages.
    pub(crate) fn new(fetched: u64, distill_every: u64) -> Self {
        Self {
            last_commit: Instant::now(),
            next_distil: next_distillation(fetched, distill_every),
        }
    }

    /// Commits the store's open group once [`COMMIT_EVERY`] has passed
    /// (with the clock `now` of the last page applied), and distils when
    /// the crawl has grown enough.
    pub(crate) fn after_pages(
        &mut self,
        ends: &Ends<'_>,
        st: &mut CrawlState,
        now: u64,
        observer: &mut dyn Observer,
    ) -> Result<(), CrawlError> {
        st.store.put_meta(CLOCK_KEY, &now)?;
        if self.last_commit.elapsed() >= COMMIT_EVERY {
            // The writes since the last commit reach the store in one
            // transaction.
            st.store.commit()?;
            self.last_commit = Instant::now();
        }
        let fetched = st.tally.fetched;
        if ends.policy.uses_distiller() && fetched >= self.next_distil {
            self.next_distil = next_distillation(fetched, ends.cfg.distill_every);
            let note = distil_and_raise(ends.policy, st, ends.cfg.hub_percentile)?;
            observer.note(&note);
        }
        Ok(())
    }
}

/// Counts what the dispatch did for a batch: held for a promising host,
/// and URLs taken one at a time while searching.
fn count_dispatch(st: &mut CrawlState, next: &Next, searching: bool) -> Result<(), CrawlError> {
    if let Next::Batch { held: true, .. } | Next::WaitUntil { held: true, .. } = next {
        st.tally.held += 1;
        st.store.put_meta(HELD_KEY, &st.tally.held)?;
    }
    if let (true, Next::Batch { urls, .. }) = (searching, next) {
        st.tally.searched += urls.len() as u64;
        st.store.put_meta(SEARCHED_KEY, &st.tally.searched)?;
    }
    Ok(())
}

/// Applies one judged page at clock `now` and reports progress and the
/// stagnation diagnosis.
pub(crate) fn on_page(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    c: &Candidate,
    j: &Judged,
    now: u64,
    started: Instant,
    observer: &mut dyn Observer,
) -> Result<(), CrawlError> {
    apply(rules, st, c, j, now)?;
    observer.page(&Progress {
        pages: st.tally.fetched,
        harvest_ma: st.tally.tracker.moving_average(),
        pages_per_s: st.tally.fetched as f64 / started.elapsed().as_secs_f64().max(1e-9),
        frontier: st.frontier.len() as u64,
    });
    if let Some(report) = st.tally.new_diagnosis(&rules.analysis.taxonomy) {
        observer.note(report);
        tracing::warn!("{report}");
    }
    Ok(())
}

/// Distils the crawl graph and raises the unvisited citations of the top
/// hubs to the policy's rule for them ([`Policy::hub_citation`]: the
/// highest priority for the papers' rules; persisted, so a resumed crawl
/// keeps them); returns the note to show.
pub(crate) fn distil_and_raise(
    policy: &dyn Policy,
    st: &mut CrawlState,
    hub_percentile: f64,
) -> Result<String, CrawlError> {
    let started = Instant::now();
    let d = distill(&st.graph, TOP_K, hub_percentile)?;
    let rule = policy.hub_citation(&st.tally.links);
    let raised = crate::rescore::raise_hub_citations(st, &rule, &d.missed)?;
    let (nodes, edges) = st.graph.size();
    Ok(format!(
        "distilled at {} pages ({nodes} pages and {edges} links in the graph) in {} ms: {} hubs, {raised} unvisited hub citations raised",
        st.tally.fetched,
        started.elapsed().as_millis(),
        d.hubs.len()
    ))
}
