//! Bergmark's check before crawling (§6.2): how alike the centroids are,
//! and what share of each topic's seed pages comes back to its own
//! centroid (the paper found at least 90 %).

use focus_core::TopicId;

use super::Centroids;
use crate::{Classifier, Example};

/// How well the centroids stand apart before a crawl (Bergmark §6.2).
#[derive(Debug, Clone, PartialEq)]
pub struct CentroidQuality {
    /// The topics with a centroid, in the order of the matrix.
    pub topics: Vec<TopicId>,
    /// Cosine similarity of every pair of centroids (1 on the diagonal).
    pub similarity: Vec<Vec<f64>>,
    /// Per topic, of its seed pages: how many are assigned to its own
    /// centroid, and how many there are.
    pub own: Vec<(usize, usize)>,
}

impl CentroidQuality {
    /// The share of all seed pages assigned back to their own centroid.
    pub fn self_assigned(&self) -> f64 {
        let (hit, n) = self
            .own
            .iter()
            .fold((0, 0), |(h, n), &(a, b)| (h + a, n + b));
        hit as f64 / n.max(1) as f64
    }

    /// For each topic, the other topic whose centroid is most alike and
    /// that similarity (the paper's Figure 4 draws the two nearest).
    pub fn nearest(&self) -> Vec<(TopicId, Option<(TopicId, f64)>)> {
        self.topics
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let best = self.similarity[i]
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(j, &s)| (self.topics[j], s));
                (t, best)
            })
            .collect()
    }
}

impl Centroids {
    /// The paper's check before crawling: the centroids' pairwise cosine
    /// similarity, and for each topic how many of its `seeds` (labelled
    /// pages, usually the ones the centroids were built from) the
    /// classifier assigns to its own centroid. A seed sharing fewer than
    /// `min_overlap` terms with the dictionary is assigned nowhere.
    pub fn quality(&self, seeds: &[Example]) -> CentroidQuality {
        let similarity = self
            .centroids
            .iter()
            .map(|a| self.centroids.iter().map(|b| a.cosine(b)).collect())
            .collect();
        let mut own = vec![(0, 0); self.topics.len()];
        for e in seeds {
            let Some(i) = self.topics.iter().position(|&t| t == e.topic) else {
                continue;
            };
            own[i].1 += 1;
            if self.classify(&e.counts).best == Some(e.topic) {
                own[i].0 += 1;
            }
        }
        CentroidQuality {
            topics: self.topics.clone(),
            similarity,
            own,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::centroid::tests::v;
    use crate::CentroidConfig;

    #[test]
    fn the_quality_report_measures_how_apart_the_centroids_stand() {
        let (a, b, c) = (TopicId(1), TopicId(2), TopicId(3));
        let ex = |t, e: &[(u32, f64)]| Example {
            counts: v(e),
            topic: t,
        };
        let seeds = [
            ex(a, &[(1, 3.0), (2, 1.0), (9, 1.0)]),
            ex(a, &[(1, 2.0), (2, 2.0)]),
            ex(b, &[(3, 3.0), (4, 1.0), (9, 1.0)]),
            ex(b, &[(3, 2.0), (4, 2.0)]),
            // c shares a's words: its centroid sits close to a's.
            ex(c, &[(1, 2.0), (2, 2.0), (5, 1.0)]),
            ex(c, &[(1, 1.0), (2, 1.0), (5, 3.0)]),
        ];
        let cfg = CentroidConfig {
            top_k: 3,
            min_overlap: 1,
            min_examples: 2,
        };
        let m = Centroids::train(&seeds, cfg).unwrap();
        let q = m.quality(&seeds);
        assert_eq!(q.topics, vec![a, b, c]);
        for (i, row) in q.similarity.iter().enumerate() {
            assert!((row[i] - 1.0).abs() < 1e-9);
            for (j, s) in row.iter().enumerate() {
                assert!((s - q.similarity[j][i]).abs() < 1e-12, "symmetric");
            }
        }
        let near = q.nearest();
        assert_eq!(near[0].1.map(|n| n.0), Some(c), "a's nearest is c");
        assert!(q.similarity[0][2] > q.similarity[0][1]);
        assert_eq!(q.own[1], (2, 2), "b's seeds all come back to b");
        assert!(q.self_assigned() > 0.5 && q.self_assigned() <= 1.0);
    }
}
