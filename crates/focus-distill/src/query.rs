//! Questions the crawl policies ask of the scores: the top hubs, the top
//! authorities, and the VLDB paper's "missed neighbours of great hubs"
//! (unvisited pages cited across hosts by hubs above a percentile).

use std::cmp::Ordering;

use focus_core::PageId;

use crate::error::DistillError;
use crate::graph::Graph;
use crate::hits::HitsScores;

impl HitsScores {
    /// The `k` best hubs with a positive score, best first (ties: ascending page id).
    pub fn top_hubs(&self, k: usize) -> Vec<(PageId, f64)> {
        top_k(&self.ids, &self.hub, k)
    }

    /// The `k` best authorities with a positive score, best first (ties: ascending page id).
    pub fn top_authorities(&self, k: usize) -> Vec<(PageId, f64)> {
        top_k(&self.ids, &self.authority, k)
    }

    /// Hub-score threshold at `percentile` (in `[0, 100]`) of the positive hub
    /// scores, by nearest rank; `None` if no node has a positive hub score.
    pub fn hub_percentile(&self, percentile: f64) -> Result<Option<f64>, DistillError> {
        if !(0.0..=100.0).contains(&percentile) {
            return Err(DistillError::InvalidConfig(format!(
                "percentile must be in [0, 100], got {percentile}"
            )));
        }
        let mut positive: Vec<f64> = self.hub.iter().copied().filter(|&h| h > 0.0).collect();
        if positive.is_empty() {
            return Ok(None);
        }
        let m = positive.len();
        let rank = ((percentile / 100.0 * m as f64).ceil() as usize).clamp(1, m);
        let (_, nth, _) = positive.select_nth_unstable_by(rank - 1, f64::total_cmp);
        Ok(Some(*nth))
    }

    /// Unvisited pages cited by the hubs whose score is at least the
    /// `percentile`-th percentile of positive hub scores, with the score of the
    /// best hub citing each; best first, ties by ascending page id. Links
    /// within a host are ignored when the scores were computed cross-host only.
    pub fn missed_neighbours(
        &self,
        graph: &Graph,
        percentile: f64,
    ) -> Result<Vec<(PageId, f64)>, DistillError> {
        if graph.node_count() != self.hub.len() {
            return Err(DistillError::GraphMismatch {
                scores: self.hub.len(),
                graph: graph.node_count(),
            });
        }
        let Some(psi) = self.hub_percentile(percentile)? else {
            return Ok(Vec::new());
        };
        let hosts = graph.hosts();
        let visited = graph.visited_flags();
        let mut best = vec![0.0f64; self.hub.len()];
        for (u, &h) in self.hub.iter().enumerate() {
            if h <= 0.0 || h < psi {
                continue;
            }
            for &v in graph.successors(u as u32) {
                let v = v as usize;
                if visited[v] || (self.cross_host_only && hosts[u] == hosts[v]) {
                    continue;
                }
                if h > best[v] {
                    best[v] = h;
                }
            }
        }
        let mut out: Vec<(PageId, f64)> = best
            .iter()
            .enumerate()
            .filter(|(_, &b)| b > 0.0)
            .map(|(v, &b)| (graph.page_ids()[v], b))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(out)
    }
}

fn by_score_then_id<'a>(
    ids: &'a [PageId],
    scores: &'a [f64],
) -> impl Fn(&usize, &usize) -> Ordering + 'a {
    move |a, b| {
        scores[*b]
            .total_cmp(&scores[*a])
            .then(ids[*a].cmp(&ids[*b]))
    }
}

fn top_k(ids: &[PageId], scores: &[f64], k: usize) -> Vec<(PageId, f64)> {
    // Scores may come from a file: never index past either vector.
    let n = ids.len().min(scores.len());
    let mut cand: Vec<usize> = (0..n).filter(|&i| scores[i] > 0.0).collect();
    if k == 0 || cand.is_empty() {
        return Vec::new();
    }
    let cmp = by_score_then_id(ids, scores);
    if cand.len() > k {
        cand.select_nth_unstable_by(k - 1, &cmp);
        cand.truncate(k);
    }
    cand.sort_by(&cmp);
    cand.into_iter().map(|i| (ids[i], scores[i])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(hub: Vec<f64>) -> HitsScores {
        let n = hub.len();
        HitsScores {
            authority: hub.iter().rev().copied().collect(),
            hub,
            iterations: 1,
            converged: true,
            ids: (0..n as u64).map(|i| PageId(i * 10)).collect(),
            cross_host_only: true,
        }
    }

    #[test]
    fn top_k_orders_and_skips_zero() {
        let s = scores(vec![0.2, 0.0, 0.5, 0.2, 0.1]);
        assert_eq!(
            s.top_hubs(3),
            vec![(PageId(20), 0.5), (PageId(0), 0.2), (PageId(30), 0.2)]
        );
        assert_eq!(s.top_hubs(10).len(), 4);
        assert!(s.top_hubs(0).is_empty());
        assert_eq!(s.top_authorities(1), vec![(PageId(20), 0.5)]);
    }

    #[test]
    fn percentile_by_nearest_rank() {
        let s = scores(vec![0.4, 0.0, 0.1, 0.2, 0.3]);
        assert_eq!(s.hub_percentile(0.0).unwrap(), Some(0.1));
        assert_eq!(s.hub_percentile(50.0).unwrap(), Some(0.2));
        assert_eq!(s.hub_percentile(90.0).unwrap(), Some(0.4));
        assert_eq!(s.hub_percentile(100.0).unwrap(), Some(0.4));
        assert!(s.hub_percentile(101.0).is_err());
        assert_eq!(scores(vec![0.0; 3]).hub_percentile(50.0).unwrap(), None);
    }
}
