//! A page's topic mixture: its own leaf (its truth) and one to
//! `mix.other_topics` other leaves — siblings most often, then leaves under
//! the same top-level topic, then any leaf — in proportions drawn from a
//! Dirichlet. The own leaf dominates on average, not always. A pure function
//! of `(seed, page id)`.

use focus_core::TopicId;
use rand::Rng;

use crate::rng::{gamma, purpose, rng_for};
use crate::web::Web;

/// The topics of one page with their shares.
#[derive(Debug, Clone)]
pub(crate) struct Mixture {
    /// `(topic, cumulative share)`, the page's own leaf first.
    parts: Vec<(TopicId, f64)>,
}

impl Mixture {
    /// The topic whose cumulative share first reaches `u` in `[0, 1)`.
    pub(crate) fn pick(&self, u: f64) -> TopicId {
        self.parts
            .iter()
            .find(|p| u < p.1)
            .or(self.parts.last())
            .map_or(TopicId::ROOT, |p| p.0)
    }

    /// The topic with the largest share.
    pub(crate) fn dominant(&self) -> TopicId {
        let mut best = (TopicId::ROOT, f64::NEG_INFINITY);
        let mut prev = 0.0;
        for &(t, c) in &self.parts {
            if c - prev > best.1 {
                best = (t, c - prev);
            }
            prev = c;
        }
        best.0
    }

    /// The share of the page's own leaf.
    #[cfg(test)]
    pub(crate) fn own_share(&self) -> f64 {
        self.parts.first().map_or(0.0, |p| p.1)
    }
}

impl Web {
    /// The topic mixture of page `pid`, whose true topic is `topic`.
    pub(crate) fn mixture(&self, pid: u32, topic: TopicId) -> Mixture {
        let mut rng = rng_for(self.seed, purpose::MIXTURE, u64::from(pid));
        let m = &self.config.mix;
        let topics = &self.topics;
        let mut chosen = vec![topic];
        let info = topics.info(topic);
        let others = if m.other_topics == 0 {
            0
        } else {
            rng.random_range(1..=m.other_topics)
        };
        for _ in 0..others {
            // A few tries for a topic the page does not have yet.
            for _ in 0..8 {
                let u: f64 = rng.random();
                let cand = match info {
                    Some(i) if u < m.other_sibling && !i.siblings.is_empty() => {
                        i.siblings[rng.random_range(0..i.siblings.len())]
                    }
                    Some(i) if u < m.other_sibling + m.other_cousin => {
                        let pool = &topics.by_level1[i.level1.0 as usize];
                        let c = pool[rng.random_range(0..pool.len())];
                        if topics.info(c).is_some_and(|ci| ci.level2 == i.level2) {
                            continue;
                        }
                        c
                    }
                    _ => topics.leaves[rng.random_range(0..topics.leaves.len())],
                };
                if !chosen.contains(&cand) {
                    chosen.push(cand);
                    break;
                }
            }
        }
        let weights: Vec<f64> = chosen
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let a = if i == 0 {
                    m.own_concentration
                } else {
                    m.other_concentration
                };
                gamma(&mut rng, a)
            })
            .collect();
        let total: f64 = weights.iter().sum::<f64>().max(1e-12);
        let mut acc = 0.0;
        let parts = chosen
            .into_iter()
            .zip(weights)
            .map(|(t, w)| {
                acc += w / total;
                (t, acc)
            })
            .collect();
        Mixture { parts }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Web, WebConfig};

    #[test]
    fn own_leaf_dominates_on_average_but_not_always() {
        let web = Web::new(WebConfig::small(), 3).unwrap();
        let (mut own, mut dominant, n) = (0.0, 0usize, 2_000u32);
        for pid in 0..n {
            let t = web.truth_of(pid).unwrap();
            let mix = web.mixture(pid, t);
            assert_eq!(mix.pick(0.0), t, "own leaf first");
            own += mix.own_share();
            if mix.dominant() == t {
                dominant += 1;
            }
        }
        let own = own / f64::from(n);
        let dominant = dominant as f64 / f64::from(n);
        println!("mean own share {own:.3}, own leaf dominant on {dominant:.3}");
        assert!((0.45..0.85).contains(&own), "mean own share {own}");
        assert!(
            (0.6..0.97).contains(&dominant),
            "own leaf dominant on {dominant}"
        );
    }
}
