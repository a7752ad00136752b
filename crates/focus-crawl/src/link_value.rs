//! What a link from a relevant page is worth, learnt from the crawl's own
//! fetches, by link kind: same site (registered domain) or cross site. Fed
//! (parent R, link kind, child R) for every fetched page that has a
//! parent, in pop order, from the classifier's judgements only (never
//! the evaluation's labels). Must not read the frontier or decide an order.
//!
//! The 1999 soft-focus rule gives every outlink its parent's relevance R:
//! it assumes all links of a relevant page are equally good. On the real
//! web linked pages in the same domain are more alike than linked pages in
//! different domains, though both are far more alike than random pairs
//! (Davison, "Topical locality in the Web", SIGIR 2000); on the websim a
//! relevant page's same-site children are relevant about 0.8 of the time
//! and its cross-site ones about 0.05 (`docs/crawl.md`). How large the gap
//! is differs by topic and web, so it is learnt, not assumed.
//! This keeps the rule and scales it by what each kind has yielded:
//! `priority = R(parent) · yield(kind) / max(yield(same), yield(cross))`,
//! where `yield(kind)` is the relevance-weighted mean relevance of pages
//! reached by `kind` links from relevant pages. The better kind keeps the
//! 1999 priority; children of irrelevant pages stay last, as in 1999. Each
//! yield starts at 1 held with [`PRIOR_WEIGHT`] pseudo-observations, so a
//! fresh crawl behaves as the paper's until the data speak.
//!
//! The factor ranks the kinds of link the crawl can choose between. Until
//! it has met links of both kinds ([`LinkValue::meet`]), as on a one-site
//! web where no link is cross-site, there is no choice and every factor
//! is 1. Against the prior of a kind that never comes, the same-site factor
//! would fall with the same-site yield as the crawl went on (with 20
//! pseudo-observations, to 0.59 after
//! about 100 pages of a Wikispeedia crawl); priorities are fixed at
//! queueing, so the links queued early would stay above the better links
//! of every page fetched later. Once both kinds have been met the rule
//! above applies unchanged, the unobserved kind's optimistic prior
//! included.

use focus_core::DomainKey;

/// Pseudo-observations behind each kind's prior yield of 1 (the 1999 rule):
/// as many as behind a host's prior in [`crate::host_health`], so a kind's
/// own links outweigh the prior after a couple of fetches. A batch fetches
/// up to `--concurrency` URLs before any of them is judged, and where most
/// links of a kind are dead the crawl pays for every fetch the prior
/// keeps that kind level with the other. With 20 pseudo-observations (the
/// first value written, never measured) a labelled web of many hosts with
/// four in five cross-site links dead cost a batch-32 crawl from hub seeds
/// 39 and 44 of its first 100 fetches on errors, against 1 and 3 with 2
/// (`docs/crawl.md`, "Learning what a kind of link yields, fast").
pub const PRIOR_WEIGHT: f64 = 2.0;

/// Whether a link stays on its page's site (registered domain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// Same registered domain as the citing page.
    SameSite,
    /// Another registered domain.
    CrossSite,
}

impl LinkKind {
    /// The kind of a link from a page on `from` to a page on `to`.
    pub fn between(from: &DomainKey, to: &DomainKey) -> Self {
        if from == to {
            Self::SameSite
        } else {
            Self::CrossSite
        }
    }
}

/// Σ R(parent) and Σ R(parent)·R(child) over one kind's observations, and
/// whether a fetched page has offered a link of the kind.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Yield {
    weight: f64,
    sum: f64,
    met: bool,
}

impl Yield {
    fn observe(&mut self, parent: f64, child: f64) {
        self.weight += parent;
        self.sum += parent * child;
    }

    /// The relevance-weighted mean child relevance, prior 1.
    fn mean(&self) -> f64 {
        (PRIOR_WEIGHT + self.sum) / (PRIOR_WEIGHT + self.weight)
    }
}

/// The learnt yield of links by kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkValue {
    same_site: Yield,
    cross_site: Yield,
    observed: u64,
}

impl LinkValue {
    /// Nothing observed: every kind yields 1.
    pub fn new() -> Self {
        Self::default()
    }

    fn of(&self, kind: LinkKind) -> &Yield {
        match kind {
            LinkKind::SameSite => &self.same_site,
            LinkKind::CrossSite => &self.cross_site,
        }
    }

    fn of_mut(&mut self, kind: LinkKind) -> &mut Yield {
        match kind {
            LinkKind::SameSite => &mut self.same_site,
            LinkKind::CrossSite => &mut self.cross_site,
        }
    }

    /// Records that a fetched page links out by a `kind` link (followed or
    /// not): the factor compares kinds only once both have been met.
    pub fn meet(&mut self, kind: LinkKind) {
        self.of_mut(kind).met = true;
    }

    /// Whether the crawl has met links of both kinds.
    pub fn met_both_kinds(&self) -> bool {
        self.same_site.met && self.cross_site.met
    }

    /// Records a fetched page of relevance `child` reached by a `kind` link
    /// from a page of relevance `parent` (both clamped to [0, 1]; a failed
    /// fetch counts as relevance 0: the link harvested nothing).
    /// A followed link has been met too.
    pub fn observe(&mut self, parent: f64, kind: LinkKind, child: f64) {
        let y = self.of_mut(kind);
        y.met = true;
        y.observe(clamp01(parent), clamp01(child));
        self.observed += 1;
    }

    /// The mean relevance of pages reached by `kind` links from relevant
    /// pages so far (weighted by the parents' relevance; prior 1).
    pub fn yield_of(&self, kind: LinkKind) -> f64 {
        self.of(kind).mean()
    }

    /// The yield of `kind` links measured so far, without the prior; `None`
    /// before any relevant page's `kind` link was followed.
    pub fn observed_yield(&self, kind: LinkKind) -> Option<f64> {
        let y = self.of(kind);
        (y.weight > 0.0).then(|| y.sum / y.weight)
    }

    /// The factor in (0, 1] that scales a `kind` link's 1999 priority:
    /// its yield over the better kind's; 1 until both kinds have been met.
    pub fn factor(&self, kind: LinkKind) -> f64 {
        if !self.met_both_kinds() {
            return 1.0;
        }
        let best = self.same_site.mean().max(self.cross_site.mean());
        if best > 0.0 {
            clamp01(self.of(kind).mean() / best)
        } else {
            1.0
        }
    }

    /// Pages observed so far.
    pub fn observed(&self) -> u64 {
        self.observed
    }
}

fn clamp01(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_as_the_1999_rule() {
        let v = LinkValue::new();
        assert_eq!(v.factor(LinkKind::SameSite), 1.0);
        assert_eq!(v.factor(LinkKind::CrossSite), 1.0);
        assert_eq!(v.observed(), 0);
        assert_eq!(v.observed_yield(LinkKind::SameSite), None);
    }

    #[test]
    fn learns_each_kind_apart() {
        let mut v = LinkValue::new();
        // Same-site children of relevant pages: 4 in 5 relevant; cross-site
        // ones: 1 in 20.
        for i in 0..1000 {
            v.observe(1.0, LinkKind::SameSite, if i % 5 == 0 { 0.0 } else { 1.0 });
            v.observe(
                1.0,
                LinkKind::CrossSite,
                if i % 20 == 0 { 1.0 } else { 0.0 },
            );
        }
        let same = (PRIOR_WEIGHT + 800.0) / (PRIOR_WEIGHT + 1000.0);
        let cross = (PRIOR_WEIGHT + 50.0) / (PRIOR_WEIGHT + 1000.0);
        assert!((v.yield_of(LinkKind::SameSite) - same).abs() < 1e-12);
        assert!((v.yield_of(LinkKind::CrossSite) - cross).abs() < 1e-12);
        assert_eq!(v.factor(LinkKind::SameSite), 1.0);
        assert!((v.factor(LinkKind::CrossSite) - cross / same).abs() < 1e-12);
        assert_eq!(v.observed_yield(LinkKind::SameSite), Some(0.8));
        assert_eq!(v.observed_yield(LinkKind::CrossSite), Some(0.05));
        assert_eq!(v.observed(), 2000);
    }

    #[test]
    fn a_batch_of_dead_links_is_enough_to_learn_from() {
        // Relevant pages whose same-site links pay and whose cross-site
        // links are dead: once a few of each have been fetched, cross-site
        // links rank at a fraction of same-site ones, well before a second
        // batch of 32 would fill with them.
        let mut v = LinkValue::new();
        for _ in 0..8 {
            v.observe(1.0, LinkKind::SameSite, 1.0);
            v.observe(1.0, LinkKind::CrossSite, 0.0);
        }
        assert_eq!(v.factor(LinkKind::SameSite), 1.0);
        let cross = v.factor(LinkKind::CrossSite);
        assert!(cross < 0.25, "{cross}");
    }

    #[test]
    fn irrelevant_parents_teach_nothing() {
        let mut v = LinkValue::new();
        for _ in 0..500 {
            v.observe(0.0, LinkKind::CrossSite, 0.0);
        }
        assert_eq!(v.factor(LinkKind::CrossSite), 1.0);
        assert_eq!(v.observed_yield(LinkKind::CrossSite), None);
        // Half-relevant parents count half.
        v.observe(0.5, LinkKind::CrossSite, 0.0);
        let half = PRIOR_WEIGHT / (PRIOR_WEIGHT + 0.5);
        assert!((v.yield_of(LinkKind::CrossSite) - half).abs() < 1e-12);
    }

    #[test]
    fn one_kind_only_leaves_the_1999_rule() {
        // A one-site crawl: every link same-site, one in five relevant.
        let mut v = LinkValue::new();
        for i in 0..500 {
            v.observe(1.0, LinkKind::SameSite, if i % 5 == 0 { 1.0 } else { 0.0 });
            assert_eq!(v.factor(LinkKind::SameSite), 1.0, "after {i}");
        }
        assert!(v.yield_of(LinkKind::SameSite) < 0.3);
        // Meeting a cross-site link makes the kinds comparable: its prior
        // of 1 now outranks the same-site yield, as on any two-kind web.
        v.meet(LinkKind::CrossSite);
        let same = v.yield_of(LinkKind::SameSite);
        assert_eq!(v.factor(LinkKind::CrossSite), 1.0);
        assert!((v.factor(LinkKind::SameSite) - same).abs() < 1e-12);
    }

    #[test]
    fn the_better_kind_keeps_the_1999_priority_whichever_it_is() {
        let mut v = LinkValue::new();
        for _ in 0..1000 {
            v.observe(1.0, LinkKind::SameSite, 0.1);
            v.observe(1.0, LinkKind::CrossSite, 0.3);
        }
        assert_eq!(v.factor(LinkKind::CrossSite), 1.0);
        assert!(v.factor(LinkKind::SameSite) < 0.5);
    }

    #[test]
    fn bad_numbers_stay_in_range() {
        let mut v = LinkValue::new();
        v.observe(f64::NAN, LinkKind::SameSite, 7.0);
        v.observe(-3.0, LinkKind::SameSite, f64::INFINITY);
        v.observe(2.0, LinkKind::CrossSite, f64::NAN);
        for k in [LinkKind::SameSite, LinkKind::CrossSite] {
            assert!((0.0..=1.0).contains(&v.factor(k)));
            assert!(v.yield_of(k) > 0.0 && v.yield_of(k) <= 1.0);
        }
    }
}
