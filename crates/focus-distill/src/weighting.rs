//! How edges are weighted and which nodes may be authorities: plain HITS,
//! the 1999 relevance weighting and Bharat–Henzinger damping.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::DistillError;
use crate::graph::Graph;

/// Which nodes may receive authority score (hubs are never restricted).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum AuthorityFilter {
    /// Every node.
    All,
    /// The `ceil(f * n)` most relevant nodes, `f` in `(0, 1]`; ties in `R`
    /// are broken by ascending page id, so the set is exactly that size.
    TopFraction(f64),
    /// Nodes with `R > rho` (the VLDB paper's `relevance > ρ` filter),
    /// `rho` in `[0, 1)`.
    Above(f64),
}

/// The edge weighting of the HITS iteration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Weighting {
    /// Kleinberg's HITS: every edge weighs 1 both ways, every node may be an authority.
    Plain,
    /// Chakrabarti et al. 1999: forward weight `E_F[u,v] = R(v)` (authority
    /// update), backward weight `E_B[u,v] = R(u)` (hub update); authorities
    /// restricted by `authorities`, hubs unrestricted.
    Relevance1999 {
        /// Which nodes may be authorities (the paper keeps the top 10–20 %).
        authorities: AuthorityFilter,
    },
    /// Bharat and Henzinger 1998 as used by BINGO!: if `k` pages of one host
    /// link to page `v`, each of those edges has authority weight `1/k`; if
    /// page `u` links to `l` pages of one host, each of those edges has hub
    /// weight `1/l`.
    BharatHenzinger,
}

impl Weighting {
    /// The 1999 weighting with the paper's default: authorities are the 15 %
    /// most relevant nodes.
    pub const RELEVANCE_1999_DEFAULT: Self = Self::Relevance1999 {
        authorities: AuthorityFilter::TopFraction(0.15),
    };

    pub(crate) fn validate(&self) -> Result<(), DistillError> {
        if let Self::Relevance1999 { authorities } = self {
            match *authorities {
                AuthorityFilter::All => {}
                AuthorityFilter::TopFraction(f) => {
                    if !(f > 0.0 && f <= 1.0) {
                        return Err(DistillError::InvalidConfig(format!(
                            "authority top fraction must be in (0, 1], got {f}"
                        )));
                    }
                }
                AuthorityFilter::Above(rho) => {
                    if !(0.0..1.0).contains(&rho) {
                        return Err(DistillError::InvalidConfig(format!(
                            "authority relevance threshold rho must be in [0, 1), got {rho}"
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Which nodes may be authorities under `filter`; `None` means all.
pub(crate) fn authority_mask(graph: &Graph, filter: AuthorityFilter) -> Option<Vec<bool>> {
    let rel = graph.relevances();
    let n = rel.len();
    match filter {
        AuthorityFilter::All => None,
        AuthorityFilter::Above(rho) => Some(rel.par_iter().map(|&r| f64::from(r) > rho).collect()),
        AuthorityFilter::TopFraction(f) => {
            let k = ((f * n as f64).ceil() as usize).min(n);
            if k == n {
                return None;
            }
            let mut order: Vec<u32> = (0..n as u32).collect();
            // Relevance descending, then index (= page id) ascending.
            let cmp =
                |a: &u32, b: &u32| rel[*b as usize].total_cmp(&rel[*a as usize]).then(a.cmp(b));
            let mut mask = vec![false; n];
            if k > 0 {
                order.select_nth_unstable_by(k - 1, cmp);
                for &i in &order[..k] {
                    mask[i as usize] = true;
                }
            }
            Some(mask)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::GraphBuilder;
    use focus_core::PageId;

    fn graph(rel: &[f64]) -> Graph {
        let mut b = GraphBuilder::new();
        for (i, &r) in rel.iter().enumerate() {
            b.add_node(PageId(i as u64), i as u64, r, true);
        }
        b.build().unwrap()
    }

    #[test]
    fn top_fraction_breaks_ties_by_page_id() {
        let g = graph(&[0.5, 0.9, 0.5, 0.1, 0.5]);
        // ceil(0.4 * 5) = 2: node 1 (0.9) and the first 0.5 (node 0).
        let m = authority_mask(&g, AuthorityFilter::TopFraction(0.4)).unwrap();
        assert_eq!(m, vec![true, true, false, false, false]);
        assert!(authority_mask(&g, AuthorityFilter::TopFraction(1.0)).is_none());
    }

    #[test]
    fn above_is_strict() {
        let g = graph(&[0.5, 0.9, 0.2]);
        let m = authority_mask(&g, AuthorityFilter::Above(0.5)).unwrap();
        assert_eq!(m, vec![false, true, false]);
    }

    #[test]
    fn bad_parameters_are_rejected() {
        for f in [
            AuthorityFilter::TopFraction(0.0),
            AuthorityFilter::TopFraction(1.5),
            AuthorityFilter::TopFraction(f64::NAN),
            AuthorityFilter::Above(1.0),
            AuthorityFilter::Above(-0.1),
        ] {
            let w = Weighting::Relevance1999 { authorities: f };
            assert!(w.validate().is_err(), "{f:?}");
        }
        assert!(Weighting::RELEVANCE_1999_DEFAULT.validate().is_ok());
    }
}
