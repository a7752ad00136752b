//! BINGO!'s multiple alternative classifiers (§3.4–3.5): one [`SvmTree`]
//! per [`FeatureSpace`], each trained on its own space's features of the
//! same examples, with a ξα precision estimate per tree, combined by a
//! [`meta`] vote (unanimous in the learning phase, ξα-weighted in the
//! harvesting phase) or reduced to the single tree with the best estimate
//! ("when the crawler's run-time is critical").
//!
//! A member votes yes for a page when its accepted path reaches a good
//! topic (its relevance is at least ½). On a yes decision the page's
//! relevance is the ξα-weighted mean of the yes-voters' relevances and its
//! class the best-weighted yes-voter's; otherwise it is half the weighted
//! mean of every member's relevance (below ½, still ranking the rejected
//! pages among themselves) and no class. With the terms space alone this is
//! exactly the single tree (but for a rejected page's calibrated relevance,
//! [`crate::SvmRelevance::Calibrated`], which is halved with the rest).

use std::collections::{HashMap, HashSet};

use focus_core::{FeatureSpace, Taxonomy, TopicId};
use focus_text::{SparseVec, TermId};

use crate::featurize::{restrict, space_of};
use crate::meta::{self, Rule};
use crate::svm::{SvmConfig, SvmTree};
use crate::{Classifier, ClassifyError, Example, Judgement};

/// One feature space's tree and its ξα precision estimate.
#[derive(Debug, Clone)]
pub struct SpaceMember {
    /// The space it reads.
    pub space: FeatureSpace,
    /// Its SVM tree.
    pub tree: SvmTree,
    /// The mean ξα precision estimate of its user topics' SVMs (the good
    /// topics and those below them; every SVM's when none has one).
    pub precision: f64,
}

/// BINGO!'s meta classifier over one SVM tree per feature space.
#[derive(Debug, Clone)]
pub struct SpacedSvm {
    members: Vec<SpaceMember>,
    rule: Rule,
}

impl SpacedSvm {
    /// Trains one tree per space of `spaces` on the examples' features in
    /// that space (an example with none there is left out of it). A space
    /// whose tree cannot be trained (no topic with both positive and
    /// negative examples) is left out; the terms space must train. Votes
    /// ξα-weighted until [`SpacedSvm::with_rule`].
    pub fn train(
        taxonomy: &Taxonomy,
        examples: &[Example],
        spaces: &[FeatureSpace],
        cfg: &SvmConfig,
    ) -> Result<SpacedSvm, ClassifyError> {
        let mut members = Vec::new();
        for &space in spaces {
            let mut restricted: Vec<Example> = examples
                .iter()
                .map(|e| Example {
                    counts: restrict(space, &e.counts),
                    topic: e.topic,
                })
                .filter(|e| !e.counts.is_empty())
                .collect();
            if space != FeatureSpace::Terms {
                keep_shared_features(&mut restricted);
            }
            match SvmTree::train(taxonomy, &restricted, cfg) {
                Ok(tree) => {
                    let precision = user_precision(taxonomy, &tree);
                    members.push(SpaceMember {
                        space,
                        tree,
                        precision,
                    });
                }
                Err(e) if space == FeatureSpace::Terms => return Err(e),
                Err(_) => {}
            }
        }
        if members.is_empty() {
            return Err(ClassifyError::Training("no feature space".into()));
        }
        Ok(SpacedSvm {
            members,
            rule: Rule::XiAlphaWeighted,
        })
    }

    /// The same members voting by `rule`.
    pub fn with_rule(mut self, rule: Rule) -> Self {
        self.rule = rule;
        self
    }

    /// The single member with the best ξα estimate (ties: the earlier
    /// space).
    pub fn single_best(mut self) -> Self {
        let best = self
            .members
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.precision.total_cmp(&b.1.precision).then(b.0.cmp(&a.0)))
            .map_or(0, |(i, _)| i);
        self.members = vec![self.members.swap_remove(best)];
        self
    }

    /// The members.
    pub fn members(&self) -> &[SpaceMember] {
        &self.members
    }

    /// Per topic, the ξα-weighted mean of the members' precision estimates.
    pub fn precision_estimates(&self) -> Vec<(TopicId, f64)> {
        let mut sums: Vec<(TopicId, f64, f64)> = Vec::new();
        for m in &self.members {
            for (t, p) in m.tree.precision_estimates() {
                match sums.iter_mut().find(|(x, _, _)| *x == t) {
                    Some(s) => {
                        s.1 += m.precision * p;
                        s.2 += m.precision;
                    }
                    None => sums.push((t, m.precision * p, m.precision)),
                }
            }
        }
        sums.into_iter()
            .map(|(t, s, w)| (t, if w > 0.0 { s / w } else { 0.0 }))
            .collect()
    }

    /// The ξα-weighted mean of the members' confidences in `topic`
    /// ([`SvmTree::confidence`]); `None` when no member has an SVM for it.
    pub fn confidence(&self, counts: &SparseVec, topic: TopicId) -> Option<f64> {
        let (mut sum, mut weight) = (0.0, 0.0);
        for m in &self.members {
            if let Some(c) = m.tree.confidence(&restrict(m.space, counts), topic) {
                sum += weight_of(m) * c;
                weight += weight_of(m);
            }
        }
        (weight > 0.0).then(|| sum / weight)
    }
}

/// Features of a derived space (term pairs, neighbours' terms) kept for
/// the trees' own selection, at most.
pub const SPACE_FEATURES: usize = 20_000;

/// The paper's selection "applied beforehand" to a derived space: only
/// features that occur in at least two examples (a pair seen once says
/// nothing about a class), at most the [`SPACE_FEATURES`] most frequent
/// by document frequency (ties: smaller id). A page has tens of thousands
/// of term pairs, nearly all its own; without this every node's selection
/// of every tree counts them all. The page's own terms in a combined space
/// are kept as the terms space keeps them.
fn keep_shared_features(examples: &mut Vec<Example>) {
    let derived = |t: TermId| space_of(t) != Some(FeatureSpace::Terms);
    let mut df: HashMap<TermId, u32> = HashMap::new();
    for e in examples.iter() {
        for &(t, _) in e.counts.entries() {
            if derived(t) {
                *df.entry(t).or_insert(0) += 1;
            }
        }
    }
    let mut shared: Vec<(TermId, u32)> = df.into_iter().filter(|&(_, n)| n >= 2).collect();
    shared.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    shared.truncate(SPACE_FEATURES);
    let keep: HashSet<TermId> = shared.into_iter().map(|(t, _)| t).collect();
    for e in examples.iter_mut() {
        e.counts = SparseVec::from_unsorted(
            e.counts
                .entries()
                .iter()
                .filter(|&&(t, _)| !derived(t) || keep.contains(&t))
                .copied()
                .collect(),
        );
    }
    examples.retain(|e| !e.counts.is_empty());
}

/// A member's vote weight: its ξα precision, never quite 0 (a member whose
/// estimate is 0 still breaks a tie of nothing).
fn weight_of(m: &SpaceMember) -> f64 {
    m.precision.max(1e-6)
}

fn user_precision(taxonomy: &Taxonomy, tree: &SvmTree) -> f64 {
    let all = tree.precision_estimates();
    let good = taxonomy.good_topics();
    let user: Vec<f64> = all
        .iter()
        .filter(|(t, _)| good.iter().any(|&g| taxonomy.is_ancestor_or_self(g, *t)))
        .map(|&(_, p)| p)
        .collect();
    let pick = if user.is_empty() {
        all.iter().map(|&(_, p)| p).collect()
    } else {
        user
    };
    if pick.is_empty() {
        0.0
    } else {
        pick.iter().sum::<f64>() / pick.len() as f64
    }
}

impl Classifier for SpacedSvm {
    fn classify(&self, counts: &SparseVec) -> Judgement {
        let judged: Vec<(Judgement, f64)> = self
            .members
            .iter()
            .map(|m| (m.tree.classify(&restrict(m.space, counts)), weight_of(m)))
            .collect();
        let votes: Vec<(bool, f64)> = judged
            .iter()
            .map(|(j, w)| (j.relevance >= 0.5, *w))
            .collect();
        let weighted_mean = |yes_only: bool| {
            let (mut sum, mut weight) = (0.0, 0.0);
            for (j, w) in &judged {
                if !yes_only || j.relevance >= 0.5 {
                    sum += w * j.relevance;
                    weight += w;
                }
            }
            if weight > 0.0 {
                sum / weight
            } else {
                0.0
            }
        };
        match meta::decide(&votes, self.rule) {
            Some(true) => {
                // The best-weighted yes-voter (ties: the earlier space).
                let lead = judged
                    .iter()
                    .filter(|(j, _)| j.relevance >= 0.5)
                    .reduce(|best, x| if best.1 >= x.1 { best } else { x })
                    .map(|(j, _)| j);
                Judgement {
                    relevance: weighted_mean(true),
                    best: lead.and_then(|j| j.best),
                    scores: lead.map(|j| j.scores.clone()).unwrap_or_default(),
                }
            }
            _ => Judgement {
                relevance: weighted_mean(false) / 2.0,
                best: None,
                scores: Vec::new(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::featurize::{Featurizer, Spaces};
    use focus_core::TaxonomyBuilder;

    fn setup() -> (Taxonomy, Vec<Example>, Featurizer) {
        let tax = TaxonomyBuilder::new()
            .topic("cycling")
            .unwrap()
            .good("cycling")
            .unwrap()
            .topic("others")
            .unwrap()
            .build();
        let f = Featurizer::default().with_spaces(Spaces::ALL);
        let (c, o) = (
            tax.lookup("cycling").unwrap(),
            tax.lookup("others").unwrap(),
        );
        let page = |text: &str, anchors: &[&str], cited: &[&str], topic| Example {
            counts: f.page(text, anchors.iter().copied(), cited.iter().copied()),
            topic,
        };
        let examples = vec![
            page(
                "bicycle race saddle wheel tour",
                &["tour stages"],
                &["peloton"],
                c,
            ),
            page(
                "wheel gears bicycle helmet ride",
                &["helmet shop"],
                &["peloton"],
                c,
            ),
            page("bicycle tour team sprint wheel", &["team news"], &[], c),
            page(
                "mutual fund shares portfolio returns",
                &["fund prices"],
                &["broker"],
                o,
            ),
            page(
                "fund manager fees shares index",
                &["index funds"],
                &["broker"],
                o,
            ),
            page("bond yields shares market fund", &["market news"], &[], o),
        ];
        (tax, examples, f)
    }

    #[test]
    fn one_tree_per_space_and_the_votes_decide() {
        let (tax, examples, f) = setup();
        let all = FeatureSpace::ALL;
        let meta = SpacedSvm::train(&tax, &examples, &all, &SvmConfig::default()).unwrap();
        assert_eq!(meta.members().len(), 4);
        let cycling = tax.lookup("cycling").unwrap();
        let none = || std::iter::empty();
        let bike = f.page(
            "a bicycle tour on one wheel",
            ["tour stages"].into_iter(),
            none(),
        );
        let j = meta.classify(&bike);
        assert!(j.relevance >= 0.5, "{j:?}");
        assert_eq!(j.best, Some(cycling));
        let money = f.page("shares of a fund", ["fund prices"].into_iter(), none());
        let j = meta.classify(&money);
        assert!(j.relevance < 0.5);
        assert_eq!(j.best, None);
        assert!(
            meta.confidence(&bike, cycling).unwrap() > meta.confidence(&money, cycling).unwrap()
        );
        // A page whose spaces disagree: the text says cycling, the links
        // say money. Unanimous abstains (no class); one space alone
        // follows its own evidence.
        let mixed = f.page(
            "bicycle tour wheel race",
            ["fund prices", "index funds"].into_iter(),
            none(),
        );
        let unanimous = meta.clone().with_rule(Rule::Unanimous).classify(&mixed);
        assert_eq!(unanimous.best, None);
        assert!(unanimous.relevance < 0.5);
        let terms_only = SpacedSvm::train(
            &tax,
            &examples,
            &[FeatureSpace::Terms],
            &SvmConfig::default(),
        )
        .unwrap();
        assert_eq!(terms_only.classify(&mixed).best, Some(cycling));
        // The terms space alone is the single tree on the terms.
        let tree = SvmTree::train(
            &tax,
            &examples
                .iter()
                .map(|e| Example {
                    counts: restrict(FeatureSpace::Terms, &e.counts),
                    topic: e.topic,
                })
                .collect::<Vec<_>>(),
            &SvmConfig::default(),
        )
        .unwrap();
        assert_eq!(terms_only.classify(&bike).best, tree.classify(&bike).best);
        assert!(
            (terms_only.classify(&bike).relevance - tree.classify(&bike).relevance).abs() < 1e-12
        );
        assert_eq!(meta.single_best().members().len(), 1);
    }

    #[test]
    fn a_space_without_features_is_left_out() {
        let (tax, mut examples, _) = setup();
        for e in &mut examples {
            e.counts = restrict(FeatureSpace::Terms, &e.counts);
        }
        let meta =
            SpacedSvm::train(&tax, &examples, &FeatureSpace::ALL, &SvmConfig::default()).unwrap();
        let spaces: Vec<FeatureSpace> = meta.members().iter().map(|m| m.space).collect();
        // The combined anchors space still has the pages' terms.
        assert_eq!(spaces, [FeatureSpace::Terms, FeatureSpace::Anchors]);
    }

    #[test]
    fn the_anchors_space_reads_what_predecessors_call_a_page() {
        let (tax, examples, f) = setup();
        let cycling = tax.lookup("cycling").unwrap();
        let meta = SpacedSvm::train(
            &tax,
            &examples,
            &[FeatureSpace::Anchors],
            &SvmConfig::default(),
        )
        .unwrap();
        // The same page, cited as the cycling pages were or as the money
        // pages were: the anchors decide between them.
        let text = "results of the day";
        let page = |cited: &str| f.page(text, std::iter::empty(), [cited].into_iter());
        let (by_cyclists, by_brokers) = (page("peloton"), page("broker"));
        let c = |v: &SparseVec| meta.confidence(v, cycling).unwrap();
        assert!(
            c(&by_cyclists) > c(&by_brokers),
            "{} {}",
            c(&by_cyclists),
            c(&by_brokers)
        );
        // Uncited, the page is judged by its terms alone, between the two.
        let uncited = f.page(text, std::iter::empty(), std::iter::empty());
        assert!(c(&by_cyclists) > c(&uncited) && c(&uncited) > c(&by_brokers));
    }
}
