//! HITS by power iteration: configuration, the iteration itself and the
//! scores it returns.
//!
//! One iteration is `a <- E_F^T h`, L1-normalise `a`, `h <- E_B a`,
//! L1-normalise `h`, starting from `h = 1/n`. It stops when both vectors
//! moved less than `tolerance` in L1 distance, or after `max_iter`
//! iterations ([`Hits::run_warm`] starts from earlier scores instead).
//! Scores are non-negative; each vector sums to 1 unless no edge
//! survives the weighting, in which case it is all zeros.

use focus_core::PageId;
use serde::{Deserialize, Serialize};

use crate::error::DistillError;
use crate::graph::Graph;
use crate::operator::Operator;
use crate::par::{det_l1_distance, det_sum};
use crate::weighting::Weighting;

/// How to run HITS.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HitsConfig {
    /// Edge weighting and authority restriction.
    pub weighting: Weighting,
    /// Ignore links between pages of the same host (the 1999 paper's
    /// "no nepotism" rule; also Bharat–Henzinger's).
    pub cross_host_only: bool,
    /// Iteration cap (at least 1).
    pub max_iter: u32,
    /// Convergence threshold on the L1 change of each score vector (> 0).
    pub tolerance: f64,
}

impl HitsConfig {
    /// Kleinberg's HITS on every edge.
    pub fn plain() -> Self {
        Self {
            weighting: Weighting::Plain,
            cross_host_only: false,
            max_iter: 100,
            tolerance: 1e-8,
        }
    }

    /// The 1999 distiller: relevance weights, cross-host links only,
    /// authorities restricted to the 15 % most relevant pages.
    pub fn relevance_1999() -> Self {
        Self {
            weighting: Weighting::RELEVANCE_1999_DEFAULT,
            cross_host_only: true,
            ..Self::plain()
        }
    }

    /// BINGO!'s Bharat–Henzinger weighting, cross-host links only.
    pub fn bharat_henzinger() -> Self {
        Self {
            weighting: Weighting::BharatHenzinger,
            cross_host_only: true,
            ..Self::plain()
        }
    }
}

impl Default for HitsConfig {
    /// The project's distiller: [`HitsConfig::relevance_1999`].
    fn default() -> Self {
        Self::relevance_1999()
    }
}

/// A validated HITS runner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hits {
    config: HitsConfig,
}

impl Hits {
    /// Validate `config`.
    pub fn new(config: HitsConfig) -> Result<Self, DistillError> {
        config.weighting.validate()?;
        if config.max_iter == 0 {
            return Err(DistillError::InvalidConfig(
                "max_iter must be at least 1".into(),
            ));
        }
        if !(config.tolerance.is_finite() && config.tolerance > 0.0) {
            return Err(DistillError::InvalidConfig(format!(
                "tolerance must be finite and positive, got {}",
                config.tolerance
            )));
        }
        Ok(Self { config })
    }

    /// The configuration.
    pub fn config(&self) -> HitsConfig {
        self.config
    }

    /// Run HITS on `graph` (parallel, deterministic), starting from `h = 1/n`.
    pub fn run(&self, graph: &Graph) -> HitsScores {
        let n = graph.node_count();
        let hub = if n == 0 {
            Vec::new()
        } else {
            vec![1.0 / n as f64; n]
        };
        self.iterate(graph, hub, vec![0.0; n])
    }

    /// Run HITS on `graph` starting from `previous` scores (for example the
    /// last distiller run on a smaller crawl graph): pages known to `previous`
    /// start from their old scores, new pages from `1/n`, then both vectors
    /// are L1-normalised. On an unchanged graph this converges at once; on a
    /// grown graph it usually needs fewer iterations than [`Hits::run`].
    pub fn run_warm(&self, graph: &Graph, previous: &HitsScores) -> HitsScores {
        let n = graph.node_count();
        if n == 0 {
            return self.run(graph);
        }
        let fresh = 1.0 / n as f64;
        let mut hub = Vec::with_capacity(n);
        let mut authority = Vec::with_capacity(n);
        for &id in graph.page_ids() {
            hub.push(previous.hub_of(id).unwrap_or(fresh));
            authority.push(previous.authority_of(id).unwrap_or(fresh));
        }
        normalise_l1(&mut hub);
        normalise_l1(&mut authority);
        if det_sum(&hub) <= 0.0 {
            hub.fill(fresh);
        }
        self.iterate(graph, hub, authority)
    }

    fn iterate(&self, graph: &Graph, mut hub: Vec<f64>, mut authority: Vec<f64>) -> HitsScores {
        let n = graph.node_count();
        let op = Operator::new(graph, self.config.weighting, self.config.cross_host_only);
        let mut next_a = vec![0.0; n];
        let mut next_h = vec![0.0; n];
        let mut iterations = 0;
        let mut converged = false;
        while iterations < self.config.max_iter {
            iterations += 1;
            op.auth_rows.apply(&hub, &mut next_a);
            normalise_l1(&mut next_a);
            op.hub_rows.apply(&next_a, &mut next_h);
            normalise_l1(&mut next_h);
            let delta = det_l1_distance(&next_a, &authority).max(det_l1_distance(&next_h, &hub));
            std::mem::swap(&mut authority, &mut next_a);
            std::mem::swap(&mut hub, &mut next_h);
            if delta < self.config.tolerance {
                converged = true;
                break;
            }
        }
        HitsScores {
            hub,
            authority,
            iterations,
            converged,
            ids: graph.page_ids().to_vec(),
            cross_host_only: self.config.cross_host_only,
        }
    }
}

fn normalise_l1(v: &mut [f64]) {
    use rayon::prelude::*;
    let s = det_sum(v);
    if s > 0.0 {
        let inv = 1.0 / s;
        v.par_iter_mut().for_each(|x| *x *= inv);
    }
}

/// Hub and authority scores, indexed like the graph's nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HitsScores {
    /// Hub score per node (sums to 1, or all zero).
    pub hub: Vec<f64>,
    /// Authority score per node (sums to 1, or all zero).
    pub authority: Vec<f64>,
    /// Iterations performed.
    pub iterations: u32,
    /// Whether the tolerance was met before the cap.
    pub converged: bool,
    pub(crate) ids: Vec<PageId>,
    pub(crate) cross_host_only: bool,
}

impl HitsScores {
    /// Page ids in node order (the same as the graph's).
    pub fn page_ids(&self) -> &[PageId] {
        &self.ids
    }

    /// Hub score of a page, if it is a node.
    pub fn hub_of(&self, id: PageId) -> Option<f64> {
        let i = self.ids.binary_search(&id).ok()?;
        self.hub.get(i).copied()
    }

    /// Authority score of a page, if it is a node.
    pub fn authority_of(&self, id: PageId) -> Option<f64> {
        let i = self.ids.binary_search(&id).ok()?;
        self.authority.get(i).copied()
    }
}
