//! BINGO!'s meta classifier: Meta(V, D, C) = +1 when Σ wᵢ·resᵢ > t1,
//! −1 when < t2, and 0 (abstain) otherwise, with resᵢ ∈ {−1, +1}.
//! Unanimous: wᵢ = 1, t1 = h − 0.5 = −t2; majority: wᵢ = 1, t1 = t2 = 0;
//! ξα-weighted: wᵢ = precision_ξα(vᵢ), t1 = t2 = 0.

use focus_core::TopicId;
use focus_text::SparseVec;

use crate::{Classifier, Judgement};

/// Which vote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// All must agree.
    Unanimous,
    /// More yes than no.
    Majority,
    /// Weighted by each member's ξα precision estimate.
    XiAlphaWeighted,
}

/// The meta decision for member votes `(yes, ξα precision)`:
/// `Some(true)`, `Some(false)`, or `None` to abstain.
pub fn decide(votes: &[(bool, f64)], rule: Rule) -> Option<bool> {
    let h = votes.len() as f64;
    let (weight, t1, t2): (fn(f64) -> f64, f64, f64) = match rule {
        Rule::Unanimous => (|_| 1.0, h - 0.5, -(h - 0.5)),
        Rule::Majority => (|_| 1.0, 0.0, 0.0),
        Rule::XiAlphaWeighted => (|p| p, 0.0, 0.0),
    };
    let sum: f64 = votes
        .iter()
        .map(|&(yes, p)| weight(p) * if yes { 1.0 } else { -1.0 })
        .sum();
    if sum > t1 {
        Some(true)
    } else if sum < t2 {
        Some(false)
    } else {
        None
    }
}

/// Several classifiers voting on one topic: a member says yes when its
/// relevance is at least 0.5.
pub struct MetaClassifier {
    members: Vec<(Box<dyn Classifier>, f64)>,
    rule: Rule,
    topic: TopicId,
}

impl MetaClassifier {
    /// Members with their ξα precision estimates, voting on `topic`.
    pub fn new(members: Vec<(Box<dyn Classifier>, f64)>, rule: Rule, topic: TopicId) -> Self {
        Self {
            members,
            rule,
            topic,
        }
    }

    /// The meta decision for a document.
    pub fn decide(&self, counts: &SparseVec) -> Option<bool> {
        let votes: Vec<(bool, f64)> = self
            .members
            .iter()
            .map(|(c, p)| (c.classify(counts).relevance >= 0.5, *p))
            .collect();
        decide(&votes, self.rule)
    }
}

impl Classifier for MetaClassifier {
    /// Relevance: the members' mean relevance when the meta decision is yes,
    /// 0 when no, half of it when the meta classifier abstains.
    fn classify(&self, counts: &SparseVec) -> Judgement {
        let rel: Vec<f64> = self
            .members
            .iter()
            .map(|(c, _)| c.classify(counts).relevance)
            .collect();
        let mean = if rel.is_empty() {
            0.0
        } else {
            rel.iter().sum::<f64>() / rel.len() as f64
        };
        let votes: Vec<(bool, f64)> = rel
            .iter()
            .zip(&self.members)
            .map(|(&r, (_, p))| (r >= 0.5, *p))
            .collect();
        let (relevance, best) = match decide(&votes, self.rule) {
            Some(true) => (mean, Some(self.topic)),
            Some(false) => (0.0, None),
            None => (mean / 2.0, None),
        };
        Judgement {
            relevance,
            best,
            scores: vec![(self.topic, mean)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn votes_follow_the_paper() {
        let votes = [(true, 0.9), (true, 0.8), (false, 0.6)];
        assert_eq!(decide(&votes, Rule::Majority), Some(true));
        // Unanimous: sum 1 is neither > 2.5 nor < −2.5 → abstain.
        assert_eq!(decide(&votes, Rule::Unanimous), None);
        assert_eq!(decide(&[(true, 0.5); 3], Rule::Unanimous), Some(true));
        assert_eq!(decide(&[(false, 0.5); 3], Rule::Unanimous), Some(false));
        // Weighted: 0.9 − 0.6 − 0.8 = −0.5 → no, although two of three... no:
        assert_eq!(
            decide(
                &[(true, 0.9), (false, 0.6), (false, 0.8)],
                Rule::XiAlphaWeighted
            ),
            Some(false)
        );
        assert_eq!(
            decide(
                &[(true, 0.9), (false, 0.6), (false, 0.2)],
                Rule::XiAlphaWeighted
            ),
            Some(true)
        );
        // A tie abstains.
        assert_eq!(decide(&[(true, 1.0), (false, 1.0)], Rule::Majority), None);
    }

    struct Fixed(f64);
    impl Classifier for Fixed {
        fn classify(&self, _: &SparseVec) -> Judgement {
            Judgement {
                relevance: self.0,
                best: None,
                scores: vec![],
            }
        }
    }

    #[test]
    fn meta_classifier_combines_members() {
        let m = MetaClassifier::new(
            vec![
                (Box::new(Fixed(0.9)), 0.9),
                (Box::new(Fixed(0.7)), 0.8),
                (Box::new(Fixed(0.2)), 0.5),
            ],
            Rule::Majority,
            TopicId(3),
        );
        let j = m.classify(&SparseVec::new());
        assert_eq!(j.best, Some(TopicId(3)));
        assert!((j.relevance - 0.6).abs() < 1e-12);
    }
}
