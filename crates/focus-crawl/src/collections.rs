//! Bergmark's collection synthesis (2002, §5.2–5.3) as a policy: many
//! collections grow in one crawl, one per centroid. A page is assigned to
//! the centroid it correlates with best (the classifier's best class; a
//! page sharing too few terms with the dictionary is assigned nowhere). A
//! *nugget* is a page whose correlation reaches the threshold: its links
//! are followed and its path starts again. The links of an off-topic page
//! are followed only while the path has crossed at most `cutoff` off-topic
//! pages since its last nugget (cutoff 0: never), each off-topic step
//! halving their priority. The frontier is first come first served, as
//! Mercator's was. Two of the paper's other stop rules live here too: a
//! collection that holds `capacity` nuggets is full (its centroid no longer
//! makes nuggets), and a link is not queued when its URL contains a
//! never-follow text or its anchor text is one (the paper's "links never to
//! follow (e.g. 'next', 'previous', 'about')": compared word for word,
//! case and punctuation aside).
//!
//! The nugget counts are the only state: [`expand`](Policy::expand) runs in
//! the crawl's pop order, so the same seed gives the same crawl, and a
//! resumed crawl starts from the counts its earlier pages made
//! ([`CollectionSynthesis::with_sizes`]).

use std::collections::BTreeMap;
use std::sync::Mutex;

use focus_core::{defaults, CanonicalUrl, TopicId};

use crate::policy::{Expansion, LinkPriority, Order, PageVerdict, Policy};

/// The paper's threshold (§6.3, §7).
pub const THRESHOLD: f64 = defaults::COLLECTION_THRESHOLD;
/// The paper's cutoff: no link of an off-topic page is followed.
pub const CUTOFF: u8 = defaults::COLLECTION_CUTOFF;

/// The collection-synthesis policy.
#[derive(Debug)]
pub struct CollectionSynthesis {
    threshold: f64,
    cutoff: u8,
    capacity: Option<u64>,
    never_follow: Vec<NeverFollow>,
    /// Nuggets per collection so far.
    sizes: Mutex<BTreeMap<TopicId, u64>>,
}

impl Default for CollectionSynthesis {
    /// The paper's threshold and cutoff, no capacity, every link followed.
    fn default() -> Self {
        Self::new(THRESHOLD, CUTOFF)
    }
}

impl CollectionSynthesis {
    /// A nugget correlates at least `threshold` with its best centroid; a
    /// path may cross `cutoff` off-topic pages.
    pub fn new(threshold: f64, cutoff: u8) -> Self {
        Self {
            threshold,
            cutoff,
            capacity: None,
            never_follow: Vec::new(),
            sizes: Mutex::new(BTreeMap::new()),
        }
    }

    /// A collection with `capacity` nuggets is full: later pages assigned
    /// to it are off-topic for the crawl.
    pub fn with_capacity(self, capacity: u64) -> Self {
        Self {
            capacity: Some(capacity),
            ..self
        }
    }

    /// Links whose URL contains any of `patterns`, or whose anchor text is
    /// one of them (word for word, ignoring case and punctuation: "next"
    /// matches "Next »", not "Next generation"), are never queued.
    pub fn never_following(self, patterns: Vec<String>) -> Self {
        Self {
            never_follow: patterns
                .into_iter()
                .map(|text| NeverFollow {
                    words: words(&text),
                    text,
                })
                .collect(),
            ..self
        }
    }

    /// Starts from the nugget counts an earlier part of the crawl made (a
    /// resumed crawl).
    pub fn with_sizes(self, sizes: BTreeMap<TopicId, u64>) -> Self {
        Self {
            sizes: Mutex::new(sizes),
            ..self
        }
    }

    /// The nugget threshold.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Whether a page of correlation `corr` assigned to `best` is a nugget,
    /// and if so counts it in its collection.
    fn admit(&self, best: Option<TopicId>, corr: f64) -> bool {
        let Some(topic) = best else { return false };
        if corr < self.threshold {
            return false;
        }
        // A poisoned lock only means another expand panicked; the counts
        // are still whole numbers.
        let mut sizes = self
            .sizes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let size = sizes.entry(topic).or_insert(0);
        if self.capacity.is_some_and(|c| *size >= c) {
            return false;
        }
        *size += 1;
        true
    }
}

impl Policy for CollectionSynthesis {
    fn name(&self) -> &'static str {
        "collections"
    }
    fn order(&self) -> Order {
        Order::BreadthFirst
    }
    fn uses_distiller(&self) -> bool {
        false
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        let corr = page.relevance.clamp(0.0, 1.0);
        let nugget = self.admit(page.best_leaf, corr);
        match page.tunnel.child(nugget, self.cutoff) {
            Some(tunnel) => Expansion::Expand {
                priority: LinkPriority::uniform(tunnel.decay(corr)),
                tunnel,
            },
            None => Expansion::Prune,
        }
    }
    fn follows(&self, url: &CanonicalUrl, anchor: &str) -> bool {
        if self.never_follow.is_empty() {
            return true;
        }
        let (url, anchor) = (url.as_str(), words(anchor));
        !self
            .never_follow
            .iter()
            .any(|p| url.contains(p.text.as_str()) || (!p.words.is_empty() && p.words == anchor))
    }
}

/// A never-follow text, and its words for comparing with anchor texts.
#[derive(Debug)]
struct NeverFollow {
    text: String,
    words: Vec<String>,
}

/// The lower-cased alphanumeric words of `text`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link_value::LinkValue;
    use focus_core::{Taxonomy, TaxonomyBuilder};
    use focus_frontier::TunnelState;

    fn tax() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("math/algebra")
            .unwrap()
            .topic("math/geometry")
            .unwrap()
            .build()
    }

    fn verdict<'a>(
        t: &'a Taxonomy,
        links: &'a LinkValue,
        best: &str,
        corr: f64,
        steps: u8,
    ) -> PageVerdict<'a> {
        PageVerdict::of_test(t, links, best, corr, steps)
    }

    #[test]
    fn a_nugget_is_expanded_and_restarts_its_path() {
        let (t, links) = (tax(), LinkValue::new());
        let p = CollectionSynthesis::default();
        assert_eq!(
            p.expand(&verdict(&t, &links, "math/algebra", 0.45, 0)),
            Expansion::Expand {
                priority: LinkPriority::uniform(0.45),
                tunnel: TunnelState::default(),
            }
        );
        // The threshold itself is a nugget (the paper: "0.3 or higher").
        assert!(matches!(
            p.expand(&verdict(&t, &links, "math/algebra", THRESHOLD, 0)),
            Expansion::Expand { .. }
        ));
    }

    #[test]
    fn cutoff_zero_follows_no_link_of_an_off_topic_page() {
        let (t, links) = (tax(), LinkValue::new());
        let p = CollectionSynthesis::default();
        assert_eq!(
            p.expand(&verdict(&t, &links, "math/algebra", 0.29, 0)),
            Expansion::Prune
        );
        // A page assigned nowhere (too little overlap) is off-topic.
        let nowhere = PageVerdict {
            best_leaf: None,
            ..verdict(&t, &links, "math/algebra", 0.9, 0)
        };
        assert_eq!(p.expand(&nowhere), Expansion::Prune);
    }

    #[test]
    fn a_cutoff_lets_a_path_cross_that_many_off_topic_pages_at_halved_priority() {
        let (t, links) = (tax(), LinkValue::new());
        let p = CollectionSynthesis::new(0.3, 2);
        let one = TunnelState { off_topic_steps: 1 };
        assert_eq!(
            p.expand(&verdict(&t, &links, "math/geometry", 0.2, 0)),
            Expansion::Expand {
                priority: LinkPriority::uniform(0.1),
                tunnel: one,
            }
        );
        assert!(matches!(
            p.expand(&verdict(&t, &links, "math/geometry", 0.2, 1)),
            Expansion::Expand { tunnel, .. } if tunnel.off_topic_steps == 2
        ));
        assert_eq!(
            p.expand(&verdict(&t, &links, "math/geometry", 0.2, 2)),
            Expansion::Prune
        );
        // A nugget deep in a tunnel starts the path again.
        assert!(matches!(
            p.expand(&verdict(&t, &links, "math/geometry", 0.5, 2)),
            Expansion::Expand { tunnel, .. } if tunnel == TunnelState::default()
        ));
    }

    #[test]
    fn a_full_collection_makes_no_more_nuggets_and_the_others_go_on() {
        let (t, links) = (tax(), LinkValue::new());
        let p = CollectionSynthesis::default().with_capacity(2);
        for _ in 0..2 {
            assert_ne!(
                p.expand(&verdict(&t, &links, "math/algebra", 0.6, 0)),
                Expansion::Prune
            );
        }
        assert_eq!(
            p.expand(&verdict(&t, &links, "math/algebra", 0.6, 0)),
            Expansion::Prune,
            "algebra is full"
        );
        assert_ne!(
            p.expand(&verdict(&t, &links, "math/geometry", 0.6, 0)),
            Expansion::Prune
        );
        // A resumed crawl starts from the counts it had.
        let algebra = t.find("math/algebra").unwrap();
        let resumed = CollectionSynthesis::default()
            .with_capacity(2)
            .with_sizes(BTreeMap::from([(algebra, 2)]));
        assert_eq!(
            resumed.expand(&verdict(&t, &links, "math/algebra", 0.6, 0)),
            Expansion::Prune
        );
    }

    #[test]
    fn never_follow_patterns_drop_links_by_url_or_by_anchor_text() {
        let p = CollectionSynthesis::default().never_following(vec![
            "/about".into(),
            "next".into(),
            "Read more".into(),
        ]);
        let url = |s: &str| s.parse::<CanonicalUrl>().unwrap();
        let algebra = url("http://a.test/algebra.html");
        assert!(!p.follows(&url("http://a.test/about/us.html"), "Our team"));
        assert!(p.follows(&algebra, "Linear algebra"));
        // The paper's "links never to follow": by their text, word for word.
        assert!(!p.follows(&algebra, "Next »"));
        assert!(!p.follows(&algebra, " NEXT "));
        assert!(!p.follows(&algebra, "read more..."));
        assert!(p.follows(&algebra, "Next generation algebra"));
        assert!(p.follows(&algebra, "read"));
        assert!(p.follows(&algebra, ""), "no anchor text is no match");
        assert!(CollectionSynthesis::default().follows(&algebra, "next"));
        assert_eq!(p.order(), Order::BreadthFirst);
        assert!(!p.uses_distiller());
    }
}
