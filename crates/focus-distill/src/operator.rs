//! The weighted operator HITS iterates: the graph's edges after filtering
//! (cross-host only, authority set) with per-edge weights, stored as a
//! forward CSR for the hub update and a reverse CSR for the authority update,
//! so both updates are parallel "pull" sums without atomics. When nothing is
//! filtered and weights are all 1, the graph's own arrays are borrowed.

use std::borrow::Cow;

use rayon::prelude::*;

use crate::graph::Graph;
use crate::par::row_blocks;
use crate::weighting::{authority_mask, Weighting};

/// One direction of the operator: rows, the other endpoints, optional weights.
pub(crate) struct Rows<'g> {
    pub(crate) off: Cow<'g, [usize]>,
    pub(crate) adj: Cow<'g, [u32]>,
    /// `None` means every weight is 1.
    pub(crate) w: Option<Vec<f32>>,
}

impl Rows<'_> {
    /// `out[r] = sum over row r of w * x[other]`.
    pub(crate) fn apply(&self, x: &[f64], out: &mut [f64]) {
        let off = &self.off[..];
        let adj = &self.adj[..];
        let w = self.w.as_deref();
        out.par_chunks_mut(crate::par::ROW_BLOCK)
            .enumerate()
            .for_each(|(ci, chunk)| {
                let base = ci * crate::par::ROW_BLOCK;
                for (j, o) in chunk.iter_mut().enumerate() {
                    let r = base + j;
                    let (s, e) = (off[r], off[r + 1]);
                    *o = match w {
                        None => adj[s..e].iter().map(|&v| x[v as usize]).sum(),
                        Some(w) => adj[s..e]
                            .iter()
                            .zip(&w[s..e])
                            .map(|(&v, &wt)| f64::from(wt) * x[v as usize])
                            .sum(),
                    };
                }
            });
    }
}

/// Hub update rows (forward, weights `E_B`) and authority update rows
/// (reverse, weights `E_F`).
pub(crate) struct Operator<'g> {
    pub(crate) hub_rows: Rows<'g>,
    pub(crate) auth_rows: Rows<'g>,
}

/// Per-row weight rule, given the row node and its kept neighbours.
#[derive(Clone, Copy)]
enum RowWeight {
    /// Weight = R(row node) for every edge of the row.
    RowRelevance,
    /// Weight = 1 / (number of kept neighbours on the same host as this one).
    PerHostDamping,
}

impl<'g> Operator<'g> {
    pub(crate) fn new(graph: &'g Graph, weighting: Weighting, cross_host_only: bool) -> Self {
        let mask = match weighting {
            Weighting::Relevance1999 { authorities } => authority_mask(graph, authorities),
            Weighting::Plain | Weighting::BharatHenzinger => None,
        };
        let (hub_w, auth_w) = match weighting {
            Weighting::Plain => (None, None),
            // h(u) <- sum E_B[u,v] a(v) with E_B[u,v] = R(u): the hub row's R;
            // a(v) <- sum E_F[u,v] h(u) with E_F[u,v] = R(v): the authority row's R.
            Weighting::Relevance1999 { .. } => {
                (Some(RowWeight::RowRelevance), Some(RowWeight::RowRelevance))
            }
            Weighting::BharatHenzinger => (
                Some(RowWeight::PerHostDamping),
                Some(RowWeight::PerHostDamping),
            ),
        };
        let mask = mask.as_deref();
        // Forward rows: row u, neighbour v; keep if v may be an authority.
        let (off, adj) = graph.forward();
        let hub_rows = build_rows(graph, off, adj, cross_host_only, hub_w, |_, v| {
            mask.is_none_or(|m| m[v as usize])
        });
        // Reverse rows: row v, neighbour u; keep if v may be an authority.
        let (off, adj) = graph.reverse();
        let auth_rows = build_rows(graph, off, adj, cross_host_only, auth_w, |v, _| {
            mask.is_none_or(|m| m[v as usize])
        });
        Self {
            hub_rows,
            auth_rows,
        }
    }
}

fn build_rows<'g>(
    graph: &Graph,
    off: &'g [usize],
    adj: &'g [u32],
    cross_host_only: bool,
    weight: Option<RowWeight>,
    keep_extra: impl Fn(u32, u32) -> bool + Sync,
) -> Rows<'g> {
    let hosts = graph.hosts();
    let n = off.len() - 1;
    let keep = |r: u32, o: u32| {
        (!cross_host_only || hosts[r as usize] != hosts[o as usize]) && keep_extra(r, o)
    };
    let counts: Vec<usize> = (0..n)
        .into_par_iter()
        .map(|r| {
            adj[off[r]..off[r + 1]]
                .iter()
                .filter(|&&o| keep(r as u32, o))
                .count()
        })
        .collect();
    let kept: usize = counts.iter().sum();
    let (off, adj): (Cow<'g, [usize]>, Cow<'g, [u32]>) = if kept == adj.len() {
        (Cow::Borrowed(off), Cow::Borrowed(adj))
    } else {
        let mut new_off = Vec::with_capacity(n + 1);
        new_off.push(0usize);
        let mut acc = 0;
        for c in &counts {
            acc += c;
            new_off.push(acc);
        }
        let mut new_adj = vec![0u32; kept];
        row_blocks(&new_off, &mut new_adj)
            .into_par_iter()
            .for_each(|block| {
                let mut pos = 0;
                for r in block.first..block.end {
                    for &o in &adj[off[r]..off[r + 1]] {
                        if keep(r as u32, o) {
                            block.data[pos] = o;
                            pos += 1;
                        }
                    }
                }
            });
        (Cow::Owned(new_off), Cow::Owned(new_adj))
    };
    let w = weight.map(|rule| row_weights(graph, &off, &adj, rule));
    Rows { off, adj, w }
}

fn row_weights(graph: &Graph, off: &[usize], adj: &[u32], rule: RowWeight) -> Vec<f32> {
    let rel = graph.relevances();
    let hosts = graph.hosts();
    let mut w = vec![0f32; adj.len()];
    row_blocks(off, &mut w).into_par_iter().for_each(|block| {
        let base = off[block.first];
        let mut scratch: Vec<u64> = Vec::new();
        for r in block.first..block.end {
            let (s, e) = (off[r], off[r + 1]);
            let out = &mut block.data[s - base..e - base];
            let row = &adj[s..e];
            match rule {
                RowWeight::RowRelevance => out.fill(rel[r]),
                RowWeight::PerHostDamping => {
                    scratch.clear();
                    scratch.extend(row.iter().map(|&v| hosts[v as usize]));
                    scratch.sort_unstable();
                    for (o, &v) in out.iter_mut().zip(row) {
                        let h = hosts[v as usize];
                        let lo = scratch.partition_point(|&x| x < h);
                        let hi = scratch.partition_point(|&x| x <= h);
                        *o = 1.0 / (hi - lo) as f32;
                    }
                }
            }
        }
    });
    w
}
