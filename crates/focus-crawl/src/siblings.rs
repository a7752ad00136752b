//! Sibling feedback: what a page's fetched children say about its links
//! still queued. A link's priority is set when its page is expanded, from
//! the page's relevance; a relevant page with many links (a long article
//! linking to every country it mentions) then has all of them queued at
//! about the same high priority, and the crawl fetches them in a row
//! whatever the first of them turned out to be. Here each expanded page
//! keeps the priority rule it expanded with and a running count of its
//! fetched children (those it gave their priority) and their relevance;
//! the page's evidence becomes the posterior mean
//! `(K·R + Σ r) / (K + n)` of its children's relevance, with its own
//! relevance R as a prior worth [`PRIOR_CHILDREN`] children, and its
//! queued children are re-scored with it after 1, 2, 4, 8, … fetched
//! children (the idea of "sibling" evidence in Aggarwal, Al-Garawi and Yu,
//! "Intelligent crawling on the World Wide Web with arbitrary predicates",
//! WWW 2001). On for policies that use the link model (the default soft
//! crawl); the papers' rules keep their priorities. A queued link is
//! re-scored only by the page that gave it its priority, so a page whose
//! links were mostly queued first by others (a list page found late) gains
//! nothing from its children. A page that gave no link its priority has
//! no family, and a family is forgotten once a re-scoring finds none of
//! its children still queued, so the families kept are those of pages with
//! links waiting. A resumed crawl rebuilds the families from the kept
//! rules and the stored pages, in crawl order.
//! Must not read the frontier or the store (`rescore.rs` does).

use std::collections::HashMap;

use crate::policy::LinkPriority;

/// The run-metadata key under which an expanded page's rule is kept (a
/// resumed crawl rebuilds the families from it and the stored pages).
pub(crate) fn family_key(page: u64) -> String {
    format!("family/{page}")
}

/// How many fetched children the page's own relevance counts as.
pub(crate) const PRIOR_CHILDREN: f64 = 4.0;

/// An expanded page's rule and what its children have yielded.
#[derive(Debug, Clone)]
struct Family {
    rule: LinkPriority,
    children: u32,
    relevance: f64,
    next_rescore: u32,
}

impl Family {
    /// Page `page`'s rule with its evidence: the posterior mean of its
    /// children's relevance, its own relevance a prior worth
    /// [`PRIOR_CHILDREN`] children.
    fn rescore(&self, page: u64) -> Rescore {
        let n = f64::from(self.children);
        let evidence = (PRIOR_CHILDREN * self.rule.page + self.relevance) / (PRIOR_CHILDREN + n);
        Rescore {
            page,
            rule: LinkPriority {
                page: evidence,
                ..self.rule
            },
        }
    }
}

/// The expanded pages' families, by page id.
#[derive(Debug, Default)]
pub(crate) struct Siblings {
    families: HashMap<u64, Family>,
}

/// A page whose queued children are due to be re-scored: its id and its
/// rule with the evidence its children give.
pub(crate) struct Rescore {
    pub(crate) page: u64,
    pub(crate) rule: LinkPriority,
}

impl Siblings {
    /// Page `page` was expanded with `rule` and gave links their priority.
    pub(crate) fn expanded(&mut self, page: u64, rule: LinkPriority) {
        self.families.insert(
            page,
            Family {
                rule,
                children: 0,
                relevance: 0.0,
                next_rescore: 1,
            },
        );
    }

    /// A child of `parent` was fetched and harvested `relevance` (0 for a
    /// failure or a duplicate); the parent's re-scoring when one is due.
    pub(crate) fn child(&mut self, parent: u64, relevance: f64) -> Option<Rescore> {
        let f = self.families.get_mut(&parent)?;
        f.children += 1;
        f.relevance += if relevance.is_nan() {
            0.0
        } else {
            relevance.clamp(0.0, 1.0)
        };
        if f.children < f.next_rescore {
            return None;
        }
        f.next_rescore = f.children.saturating_mul(2);
        Some(f.rescore(parent))
    }

    /// Page `page`'s rule with the evidence its children give so far (none
    /// when it has no family), for re-scoring the whole frontier after the
    /// link model has learnt more (`crate::rescore`).
    pub(crate) fn rescore_of(&self, page: u64) -> Option<Rescore> {
        self.families.get(&page).map(|f| f.rescore(page))
    }

    /// Keeps only the families of the pages for which `waiting` holds (the
    /// others have no child queued any more).
    pub(crate) fn retain(&mut self, mut waiting: impl FnMut(u64) -> bool) {
        self.families.retain(|&page, _| waiting(page));
    }

    /// Page `page` has no child queued any more: its family is dropped.
    pub(crate) fn forget(&mut self, page: u64) {
        self.families.remove(&page);
    }

    /// How many families are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.families.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_move_the_rule_toward_what_they_yielded_on_a_doubling_schedule() {
        let mut s = Siblings::default();
        assert!(s.child(1, 1.0).is_none(), "an unknown page has no family");
        s.expanded(1, LinkPriority::uniform(0.9));
        let first = s.child(1, 0.0).unwrap();
        assert!((first.rule.page - 0.9 * 4.0 / 5.0).abs() < 1e-12);
        let second = s.child(1, 0.0).unwrap();
        assert!(second.rule.page < first.rule.page);
        assert!(
            s.child(1, 0.0).is_none(),
            "the third child waits for the fourth"
        );
        let fourth = s.child(1, 1.0).unwrap();
        assert!((fourth.rule.page - (3.6 + 1.0) / 8.0).abs() < 1e-12);
        assert!(s.child(1, 1.0).is_none(), "the fifth waits for the eighth");
        let now = s.rescore_of(1).unwrap();
        assert!(
            (now.rule.page - (3.6 + 2.0) / 9.0).abs() < 1e-12,
            "a family's evidence is that of all its children so far"
        );
        s.expanded(7, LinkPriority::uniform(0.5));
        assert!(
            (s.rescore_of(7).unwrap().rule.page - 0.5).abs() < 1e-12,
            "no child yet: the prior"
        );
        assert!(s.rescore_of(8).is_none());
        s.retain(|page| page == 7);
        assert!(s.rescore_of(1).is_none() && s.rescore_of(7).is_some());
        s.forget(7);
        assert_eq!(s.len(), 0);
        assert!(s.child(1, 1.0).is_none(), "a forgotten page has no family");
    }
}
