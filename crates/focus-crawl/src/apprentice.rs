//! The apprentice: an online link model that learns from the crawl's own
//! judgements which links lead to relevant pages (after Chakrabarti, Punera
//! and Subramanyam, "Accelerated focused crawling through online relevance
//! feedback", WWW 2002, and ACHE's online link classifier).
//!
//! The 1999 rule gives every outlink of a page the page's relevance. Real
//! focused crawlers look at the link itself: its anchor text, the words
//! around it and the words of its URL, besides the citing page's relevance
//! and class and whether the link leaves the host. Each link becomes a set
//! of hashed features ([`link_features`], computed while the page is judged)
//! and a logistic regression trained online (AdaGrad) predicts the
//! relevance of the page a link leads to. The labels are the classifier's
//! R of the pages the crawl has fetched (a failed fetch is 0): never the
//! evaluation's labels. A link is scored when its page is expanded, with the
//! model of that moment, and again with the model of then when its
//! page's fetched children re-score it (`siblings.rs`) and when the model's
//! training pages double from [`PRIOR_PAGES`] (`rescore.rs`); it joins the
//! rule's priority (the citing page's R times the learnt link-kind factor)
//! as a second piece of evidence,
//! weighted by the model's confidence `c = n / (PRIOR_PAGES + n)` after `n`
//! training pages. What it predicts *above the crawl's base rate* (its
//! lift, `max(0, (score − b)/(1 − b))` for `b` the mean label so far)
//! raises the rule by a noisy or, `1 − (1 − rule)·(1 − c·lift)`; what it
//! predicts below (its shortfall, `max(0, (b − score)/b)`) lowers it in
//! proportion, `rule·(1 − c·shortfall)`. Host health then scales it
//! (`policy::LinkPriority::of`). A fresh crawl is the rule, and a link the
//! model rates like an average fetch keeps the rule's priority. Among the
//! links of irrelevant pages, where the rule sees only ties of "about
//! zero", the lift decides; among the links of relevant pages, where it
//! sees ties of "about one", the shortfall does. Measured on Wikispeedia against
//! a convex blend of the two, the noisy or found as many pages at 500 and
//! more at 1,000; the lift instead of the raw score keeps a link the model
//! rates no better than an average fetch from outranking the links of
//! relevant pages, which on a websim leaf topic sent the crawl to sibling
//! topics; without the shortfall, the last digits of the citing pages' R ordered
//! the links of relevant pages, and a crawl fetched every link of one
//! element's page (Russia, Ethiopia, the US dollar) before the element
//! links of the next (`docs/crawl.md`).
//! Must not read the frontier or decide an order by itself.

use std::collections::HashMap;

use focus_classify::{Classifier, Featurizer};
use focus_core::{CanonicalUrl, TopicId};
use focus_html::Link;
use focus_text::SparseVec;

/// Training pages at which the model's confidence in the blend is ½.
pub const PRIOR_PAGES: f64 = 100.0;
/// AdaGrad's base learning rate.
const LEARNING_RATE: f64 = 0.5;

/// Feature namespaces (the top 4 bits of a feature).
mod ns {
    pub(super) const BIAS: u32 = 0;
    pub(super) const ANCHOR: u32 = 1;
    pub(super) const CONTEXT: u32 = 2;
    pub(super) const URL_PATH: u32 = 3;
    pub(super) const URL_HOST: u32 = 4;
    pub(super) const RELATION: u32 = 5;
    pub(super) const PARENT_DECILE: u32 = 6;
    pub(super) const PARENT_CLASS: u32 = 7;
    pub(super) const LINK_RELEVANCE: u32 = 8;
}

fn feature(namespace: u32, value: u32) -> u32 {
    (namespace << 28) | (value & 0x0FFF_FFFF)
}

/// What the citing page says about its link's target, besides the link's
/// own words.
#[derive(Debug, Clone, Copy)]
pub struct Citing<'a> {
    /// The citing page's (final) URL.
    pub url: &'a CanonicalUrl,
    /// Its relevance R.
    pub relevance: f64,
    /// Its best class.
    pub class: Option<TopicId>,
}

/// The hashed features of a link: anchor terms, context terms, URL path
/// and host terms (each in its own namespace, analysed as the classifier's
/// text is), the decile of the page classifier's relevance of the link's
/// own words (anchor and URL path: what the examples say about the words
/// before the crawl has learnt anything), the link's relation to the citing
/// page's host (same host, same site, other site), the citing page's
/// relevance decile and class, and a bias. Sorted, without repeats.
pub fn link_features(
    featurizer: &Featurizer,
    classifier: &dyn Classifier,
    citing: &Citing<'_>,
    link: &Link,
) -> Box<[u32]> {
    let mut f = vec![feature(ns::BIAS, 0)];
    let mut words = |namespace: u32, counts: &SparseVec| {
        f.extend(
            counts
                .entries()
                .iter()
                .map(|&(t, _)| feature(namespace, t.0)),
        );
    };
    let anchor = featurizer.text(&link.anchor_text);
    let path = featurizer.text(&spaced(&link.url.path_and_query()));
    words(ns::ANCHOR, &anchor);
    words(ns::URL_PATH, &path);
    words(ns::CONTEXT, &featurizer.text(&link.context));
    let host = link.url.host();
    let labels: Vec<&str> = host.split('.').collect();
    // The host's labels but the last (the top-level domain says little).
    words(
        ns::URL_HOST,
        &featurizer.text(&labels[..labels.len().saturating_sub(1)].join(" ")),
    );
    // The link's own words (anchor and path) as the page classifier sees them.
    let mut own_words = anchor;
    own_words.add_scaled(&path, 1.0);
    let r = classifier.relevance(&own_words);
    f.push(feature(ns::LINK_RELEVANCE, decile(r)));
    let relation = if link.url.host_key() == citing.url.host_key() {
        0
    } else if link.url.domain_key() == citing.url.domain_key() {
        1
    } else {
        2
    };
    f.push(feature(ns::RELATION, relation));
    f.push(feature(ns::PARENT_DECILE, decile(citing.relevance)));
    if let Some(c) = citing.class {
        f.push(feature(ns::PARENT_CLASS, c.0));
    }
    f.sort_unstable();
    f.dedup();
    f.into_boxed_slice()
}

/// The relation feature of a host's root queued after a dead link to the
/// host ([`crate::ascent`]); links have 0 (same host), 1 (same site) or 2
/// (other site).
const ASCENT_RELATION: u32 = 3;

/// The features stored with the root of a host that a dead link pointed
/// to: the relation "ascent" alone. No link leads to the root, so what it
/// yields says nothing of any link's words, and the model does not learn
/// from it ([`Apprentice::train`]); the mark lets the crawl count it.
pub fn ascent_features() -> Box<[u32]> {
    Box::new([feature(ns::RELATION, ASCENT_RELATION)])
}

/// Whether `features` are those of an ascent ([`ascent_features`]).
pub fn is_ascent(features: &[u32]) -> bool {
    features.contains(&feature(ns::RELATION, ASCENT_RELATION))
}

/// Which tenth of [0, 1] `x` falls in (NaN: the first).
fn decile(x: f64) -> u32 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 10.0).floor().min(9.0) as u32
    }
}

/// A URL path (and query) with its separators as spaces (`/wiki/Bird_of_prey.html` →
/// ` wiki Bird of prey html`).
fn spaced(path: &str) -> String {
    path.chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect()
}

/// One feature's weight and its AdaGrad sum of squared gradients.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Weight {
    w: f64,
    g2: f64,
}

/// The online link model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Apprentice {
    weights: HashMap<u32, Weight>,
    trained: u64,
    /// Sum of the labels trained on (their mean is the crawl's base rate).
    label_sum: f64,
}

impl Apprentice {
    /// An untrained model: every link scores ½ and the blend is the rule.
    pub fn new() -> Self {
        Self::default()
    }

    /// Training pages seen.
    pub fn trained(&self) -> u64 {
        self.trained
    }

    /// The predicted relevance of the page a link with `features` leads to.
    pub fn score(&self, features: &[u32]) -> f64 {
        sigmoid(self.margin(features))
    }

    fn margin(&self, features: &[u32]) -> f64 {
        let x = scale(features);
        features
            .iter()
            .filter_map(|f| self.weights.get(f))
            .map(|w| w.w * x)
            .sum()
    }

    /// Learns that a link with `features` led to a page of relevance
    /// `relevance` (clamped to [0, 1]; a failed fetch is 0). A page no link
    /// led to (a seed, without features; a root climbed to after a dead
    /// link, [`ascent_features`]) teaches nothing.
    pub fn train(&mut self, features: &[u32], relevance: f64) {
        if features.is_empty() || is_ascent(features) {
            return;
        }
        let y = if relevance.is_nan() {
            0.0
        } else {
            relevance.clamp(0.0, 1.0)
        };
        let g = self.score(features) - y;
        let x = scale(features);
        for f in features {
            let w = self.weights.entry(*f).or_default();
            let gi = g * x;
            w.g2 += gi * gi;
            if w.g2 > 0.0 {
                w.w -= LEARNING_RATE * gi / w.g2.sqrt();
            }
        }
        self.trained += 1;
        self.label_sum += y;
    }

    /// The mean label the model has been trained on: the relevance of the
    /// average fetched page, what a link scores when the model knows nothing
    /// about it beyond the crawl's base rate (0 untrained).
    pub fn base_rate(&self) -> f64 {
        if self.trained == 0 {
            0.0
        } else {
            self.label_sum / self.trained as f64
        }
    }

    /// What the model predicts for a link above the crawl's base rate, on
    /// [0, 1]: `max(0, (score − b) / (1 − b))` for base rate `b`. A link the
    /// model rates no better than the average fetch adds nothing.
    pub fn lift(&self, features: &[u32]) -> f64 {
        lift(self.base_rate(), self.score(features))
    }

    /// What the model predicts for a link below the crawl's base rate, on
    /// [0, 1]: `max(0, (b − score) / b)` for base rate `b`.
    pub fn shortfall(&self, features: &[u32]) -> f64 {
        shortfall(self.base_rate(), self.score(features))
    }

    /// The evidence for a link whose citing page's evidence is `rule` (its
    /// relevance), with the model's confidence `c = n / (PRIOR_PAGES + n)`:
    /// the noisy or of `rule` and `c` times the model's
    /// [`lift`](Self::lift) when it rates the link above the base rate,
    /// else `rule` lowered by `c` times its [`shortfall`](Self::shortfall). A link
    /// rated at the base rate keeps `rule`.
    pub fn blend(&self, rule: f64, features: &[u32]) -> f64 {
        if self.trained == 0 || features.is_empty() {
            return rule;
        }
        let n = self.trained as f64;
        let confidence = n / (PRIOR_PAGES + n);
        let rule = rule.clamp(0.0, 1.0);
        // One score per link: this runs for every out-link of every page.
        let (b, score) = (self.base_rate(), self.score(features));
        let lift = lift(b, score);
        if lift > 0.0 {
            return 1.0 - (1.0 - rule) * (1.0 - confidence * lift);
        }
        rule * (1.0 - confidence * shortfall(b, score))
    }
}

/// [`Apprentice::lift`] of a link scored `score` at base rate `b`.
fn lift(b: f64, score: f64) -> f64 {
    if b >= 1.0 {
        return 0.0;
    }
    ((score - b) / (1.0 - b)).max(0.0)
}

/// [`Apprentice::shortfall`] of a link scored `score` at base rate `b`.
fn shortfall(b: f64, score: f64) -> f64 {
    if b <= 0.0 {
        return 0.0;
    }
    ((b - score) / b).max(0.0)
}

/// Each feature of a link counts `1/√k` for its `k` features, so long
/// contexts do not outvote the rest.
fn scale(features: &[u32]) -> f64 {
    1.0 / (features.len().max(1) as f64).sqrt()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Features as stored bytes (little-endian `u32`s).
pub(crate) fn to_bytes(features: &[u32], out: &mut Vec<u8>) {
    for f in features {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// Features from stored bytes (trailing bytes that make no `u32` are
/// ignored).
pub(crate) fn from_bytes(bytes: &[u8]) -> Box<[u32]> {
    bytes
        .chunks_exact(4)
        .filter_map(|c| <[u8; 4]>::try_from(c).ok())
        .map(u32::from_le_bytes)
        .collect()
}

#[cfg(test)]
mod tests {
    use focus_core::Canonicalizer;
    use focus_html::LinkKind as HtmlLinkKind;

    use super::*;

    /// A classifier that finds nothing relevant.
    struct Zero;

    impl Classifier for Zero {
        fn classify(&self, _: &focus_text::SparseVec) -> focus_classify::Judgement {
            focus_classify::Judgement {
                relevance: 0.0,
                best: None,
                scores: Vec::new(),
            }
        }
    }

    fn link(url: &str, anchor: &str, context: &str) -> Link {
        Link {
            url: Canonicalizer::default().canonicalize(url).unwrap(),
            anchor_text: anchor.into(),
            nofollow: false,
            context: context.into(),
            kind: HtmlLinkKind::A,
        }
    }

    fn citing(url: &CanonicalUrl, relevance: f64) -> Citing<'_> {
        Citing {
            url,
            relevance,
            class: Some(TopicId(3)),
        }
    }

    #[test]
    fn features_name_the_links_words_and_relation() {
        let f = Featurizer::default();
        let page = Canonicalizer::default()
            .canonicalize("http://birds.test/a.html")
            .unwrap();
        let a = link_features(
            &f,
            &Zero,
            &citing(&page, 0.95),
            &link(
                "http://birds.test/owls.html",
                "owls",
                "nocturnal birds of prey",
            ),
        );
        let b = link_features(
            &f,
            &Zero,
            &citing(&page, 0.95),
            &link("http://shop.example/cart", "cart", "buy now"),
        );
        assert!(a.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        assert!(a.contains(&feature(ns::RELATION, 0)));
        assert!(b.contains(&feature(ns::RELATION, 2)));
        assert!(a.contains(&feature(ns::PARENT_DECILE, 9)));
        assert!(a.contains(&feature(ns::PARENT_CLASS, 3)));
        assert!(a.contains(&feature(ns::LINK_RELEVANCE, 0)));
        let owl = f.text("owls").entries()[0].0 .0;
        assert!(a.contains(&feature(ns::ANCHOR, owl)));
        assert!(a.contains(&feature(ns::URL_PATH, owl)));
        assert!(!b.contains(&feature(ns::ANCHOR, owl)));
        assert_eq!(
            &*from_bytes(&{
                let mut v = Vec::new();
                to_bytes(&a, &mut v);
                v
            }),
            &*a
        );
    }

    #[test]
    fn a_root_climbed_to_is_marked_and_teaches_nothing() {
        let f = Featurizer::default();
        let page = Canonicalizer::default()
            .canonicalize("http://birds.test/a.html")
            .unwrap();
        let dead = link_features(
            &f,
            &Zero,
            &citing(&page, 0.95),
            &link("http://owls.example/barn/owls.html", "owls", "barn owls"),
        );
        let root = ascent_features();
        assert!(is_ascent(&root) && !is_ascent(&dead));
        let mut m = Apprentice::new();
        for _ in 0..50 {
            m.train(&root, 0.0);
        }
        assert_eq!(m, Apprentice::new(), "a root teaches nothing");
        m.train(&dead, 0.0);
        assert_eq!(m.trained(), 1);
    }

    #[test]
    fn learns_which_anchors_lead_to_relevant_pages() {
        let f = Featurizer::default();
        let page = Canonicalizer::default()
            .canonicalize("http://zoo.test/")
            .unwrap();
        let c = citing(&page, 0.5);
        let good = link_features(&f, &Zero, &c, &link("http://zoo.test/owl", "owl", ""));
        let bad = link_features(&f, &Zero, &c, &link("http://zoo.test/login", "login", ""));
        let mut m = Apprentice::new();
        assert_eq!(m.blend(0.3, &good), 0.3, "untrained: the rule");
        for _ in 0..200 {
            m.train(&good, 1.0);
            m.train(&bad, 0.0);
        }
        assert_eq!(m.trained(), 400);
        assert!(m.score(&good) > 0.9, "{}", m.score(&good));
        assert!(m.score(&bad) < 0.1, "{}", m.score(&bad));
        // The same rule priority, blended: the good link is raised, the bad
        // one lowered.
        let (g, b) = (m.blend(0.5, &good), m.blend(0.5, &bad));
        assert!(g > 0.85 && b < 0.25, "{g} {b}");
        assert!(m.blend(0.0, &good) > 0.7 && m.blend(0.0, &bad) < 0.1);
        // Among the links of relevant pages the link decides, not the last
        // digits of the citing pages' relevance.
        assert!(m.blend(0.997, &good) > m.blend(0.998, &bad));
        // Half the labels were 1: a link the model rates above that base
        // rate gets its lift, one below it its shortfall, never both.
        assert!((m.base_rate() - 0.5).abs() < 1e-12);
        assert_eq!((m.lift(&bad), m.shortfall(&good)), (0.0, 0.0));
        let lift = (m.score(&good) - 0.5) / 0.5;
        assert!((m.lift(&good) - lift).abs() < 1e-12);
        let shortfall = (0.5 - m.score(&bad)) / 0.5;
        assert!((m.shortfall(&bad) - shortfall).abs() < 1e-12);
        let confidence = 400.0 / (PRIOR_PAGES + 400.0);
        let lowered = 0.2 * (1.0 - confidence * shortfall);
        assert!((m.blend(0.2, &bad) - lowered).abs() < 1e-12);
        // A new link sharing the good anchor inherits some of its credit.
        let new = link_features(&f, &Zero, &c, &link("http://zoo.test/x1", "owl", "x"));
        assert!(m.score(&new) > m.score(&bad));
        // A seed (no features) teaches nothing; bad numbers stay in range.
        m.train(&[], 1.0);
        m.train(&good, f64::NAN);
        assert_eq!(m.trained(), 401);
        assert!((0.0..=1.0).contains(&m.score(&good)));
    }
}
