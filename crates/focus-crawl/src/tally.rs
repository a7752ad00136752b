//! What a crawl has learnt from the pages it fetched: the count, the
//! harvest tracker (estimated and true), the stagnation census and the set
//! of truly relevant pages (for recall). Fed the same way by fresh fetches
//! and by the pages a resumed crawl reads back from its store.
//! Must not decide anything: policies and the engine read it.

use std::collections::{BTreeMap, HashSet};

use focus_core::{Taxonomy, TopicId};
use focus_eval::HarvestTracker;
use focus_fetch::ROBOTS_DISALLOWED;

use crate::apprentice::Apprentice;
use crate::ascent::Ascents;
use crate::host_health::HostHealth;
use crate::link_value::LinkValue;
use crate::robots_known::RobotsKnown;
use crate::siblings::Siblings;
use crate::stagnation::{StagnationConfig, StagnationMonitor};

/// The running tally of fetched pages.
pub(crate) struct Tally {
    /// Fetch attempts so far.
    pub(crate) fetched: u64,
    /// Of them, pages whose text repeated an earlier page's.
    pub(crate) duplicates: u64,
    /// Estimated and true harvest.
    pub(crate) tracker: HarvestTracker,
    monitor: StagnationMonitor,
    relevant: HashSet<u64>,
    /// Fetched pages the crawl's classifier judged relevant
    /// (`focus_eval::JUDGED_RELEVANT`): its own evidence, never the truth.
    pub(crate) judged_relevant: u64,
    /// The stagnation diagnosis, once made (it is made at most once).
    pub(crate) stagnation: Option<String>,
    /// What links of each kind have yielded.
    pub(crate) links: LinkValue,
    /// How each host and site has answered.
    pub(crate) hosts: HostHealth,
    /// The online link model (trained only when the policy uses it).
    pub(crate) apprentice: Apprentice,
    /// The hosts that served a page, and what the roots climbed to after
    /// dead links answered.
    pub(crate) ascents: Ascents,
    /// What expanded pages' fetched children yielded (policies with the
    /// link model).
    pub(crate) siblings: Siblings,
    /// Fetch attempts by outcome (`ok` or the error label).
    pub(crate) outcomes: BTreeMap<String, u64>,
    /// Attempts that put their URL back in the frontier.
    pub(crate) retried: u64,
    /// URLs given up on, by the cause of their last attempt.
    pub(crate) abandoned: BTreeMap<String, u64>,
    /// Backlink requests made ([`crate::parents`]).
    pub(crate) parent_requests: u64,
    /// Parents they returned.
    pub(crate) parents_found: u64,
    /// Times the dispatch held back ready hosts' URLs for a cooling host
    /// with more promising ones ([`crate::dispatch::Next`]).
    pub(crate) held: u64,
    /// Fetch attempts made one at a time while looking for a foothold
    /// ([`crate::dispatch::searching`]).
    pub(crate) searched: u64,
    /// robots.txt rules as the crawl took them ([`crate::robots_known`]).
    pub(crate) robots: RobotsKnown,
    /// Links left out because those rules disallow them (one per link met).
    pub(crate) robots_refused_links: u64,
}

impl Tally {
    pub(crate) fn new(window: usize, stagnation: StagnationConfig) -> Self {
        Self {
            fetched: 0,
            duplicates: 0,
            tracker: HarvestTracker::new(window),
            monitor: StagnationMonitor::new(stagnation),
            relevant: HashSet::new(),
            judged_relevant: 0,
            stagnation: None,
            held: 0,
            searched: 0,
            links: LinkValue::new(),
            hosts: HostHealth::new(),
            apprentice: Apprentice::new(),
            ascents: Ascents::new(),
            siblings: Siblings::default(),
            outcomes: BTreeMap::new(),
            retried: 0,
            abandoned: BTreeMap::new(),
            parent_requests: 0,
            parents_found: 0,
            robots: RobotsKnown::default(),
            robots_refused_links: 0,
        }
    }

    /// Fetch attempts that sent a request and got no page back: every
    /// outcome but `ok` and robots.txt refusals (which sent none).
    pub(crate) fn failed(&self) -> u64 {
        self.outcomes
            .iter()
            .filter(|(label, _)| *label != "ok" && *label != ROBOTS_DISALLOWED)
            .map(|(_, n)| n)
            .sum()
    }

    /// Counts an attempt's outcome (`error`: its label, `None` for a page)
    /// and what became of its URL: put back (`retry`), fetched, or
    /// abandoned for the error's cause.
    pub(crate) fn count_outcome(&mut self, error: Option<&str>, retry: bool) {
        *self
            .outcomes
            .entry(error.unwrap_or("ok").to_owned())
            .or_default() += 1;
        match (retry, error) {
            (true, _) => self.retried += 1,
            (false, Some(cause)) => *self.abandoned.entry(cause.to_owned()).or_default() += 1,
            (false, None) => {}
        }
    }

    /// Counts one fetch attempt: page `id` with estimated `relevance`, best
    /// leaf `best` and ground truth `truth` (`None` when unknown).
    pub(crate) fn push(
        &mut self,
        id: u64,
        relevance: f64,
        best: Option<TopicId>,
        truth: Option<bool>,
    ) {
        if truth == Some(true) {
            self.relevant.insert(id);
        }
        if relevance >= focus_eval::JUDGED_RELEVANT {
            self.judged_relevant += 1;
        }
        self.tracker.push(relevance, truth);
        self.monitor.push(relevance, best);
        self.fetched += 1;
    }

    /// Counts a fetch whose text repeated an earlier page's: it harvested
    /// nothing and says nothing of its class's neighbourhood.
    pub(crate) fn push_duplicate(&mut self, id: u64, truth: Option<bool>) {
        self.duplicates += 1;
        self.push(id, 0.0, None, truth);
    }

    /// The stagnation report, the first time the census calls for one.
    pub(crate) fn new_diagnosis(&mut self, taxonomy: &Taxonomy) -> Option<&str> {
        if self.stagnation.is_some() {
            return None;
        }
        let report = self.monitor.diagnose(taxonomy)?.report(taxonomy);
        self.stagnation = Some(report);
        self.stagnation.as_deref()
    }

    /// Truly relevant pages fetched.
    pub(crate) fn relevant_fetched(&self) -> usize {
        self.relevant.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_pages_and_distinct_relevant_ones() {
        let mut t = Tally::new(10, StagnationConfig::default());
        t.push(1, 0.9, None, Some(true));
        t.push(2, 0.1, None, Some(false));
        t.push(1, 0.8, None, Some(true));
        assert_eq!(t.fetched, 3);
        assert_eq!(t.relevant_fetched(), 1);
        assert_eq!(
            t.judged_relevant, 2,
            "the crawl's own judgements, per fetch"
        );
        assert_eq!(t.tracker.harvest_true(), Some(2.0 / 3.0));
        // The summary's judgement-against-truth figures come from the same
        // pushes: R >= 0.5 agreed with the truth on all three.
        t.push(3, 0.6, None, Some(false));
        t.push(4, 0.7, None, None);
        let a = t.tracker.agreement();
        assert_eq!(a.pages(), 4, "pages without truth are not compared");
        assert_eq!(a.agreement(), Some(0.75));
        assert_eq!(a.precision(), Some(2.0 / 3.0));
        assert_eq!(a.recall(), Some(1.0));
    }

    #[test]
    fn outcomes_add_up_and_retries_are_not_abandoned() {
        let mut t = Tally::new(10, StagnationConfig::default());
        t.count_outcome(Some("status_503"), true);
        t.count_outcome(Some("status_503"), true);
        t.count_outcome(Some("status_503"), false);
        t.count_outcome(None, false);
        t.count_outcome(Some("status_404"), false);
        t.count_outcome(Some(ROBOTS_DISALLOWED), false);
        assert_eq!(t.outcomes.values().sum::<u64>(), 6);
        assert_eq!(
            t.failed(),
            4,
            "every failed request counts; a refusal sent none"
        );
        assert_eq!(t.outcomes["status_503"], 3);
        assert_eq!(t.retried, 2);
        assert_eq!(t.abandoned["status_503"], 1);
        assert_eq!(t.abandoned["status_404"], 1);
        assert!(!t.abandoned.contains_key("ok"));
    }
}
