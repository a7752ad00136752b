//! Topic distillation for focused crawlers: find the hubs that lead to many
//! relevant pages, as the distiller of Chakrabarti, van den Berg and Dom
//! (1999) does, and the Bharat–Henzinger variant that BINGO! (2003) uses.
//!
//! * [`GraphBuilder`] turns stored links (page ids, any order, duplicates
//!   allowed) into a compact [`Graph`]: CSR forward and reverse adjacency with
//!   dense `u32` node indices, a host id, a relevance `R` and a visited flag per
//!   node.
//! * [`Hits`] runs HITS by power iteration (L1 normalisation every half-step,
//!   a convergence test and an iteration cap) under a [`Weighting`]: plain
//!   Kleinberg, the 1999 relevance weighting (`E_F[u,v] = R(v)`,
//!   `E_B[u,v] = R(u)`, cross-host links only, authorities restricted to the
//!   most relevant pages, hubs unrestricted) or Bharat–Henzinger edge weights.
//! * [`HitsScores`] answers the crawl policies' questions: top hubs, top
//!   authorities and the VLDB paper's "missed neighbours of great hubs".
//! * [`base_set`] builds BINGO!'s base set (positives, their successors and a
//!   seeded bounded sample of predecessors).
//!
//! The crate is deterministic and does no I/O: no files, no network, no clock.
//! It must not depend on any `focus-*` crate other than `focus-core`, nor on
//! tokio, sled or anything that does I/O.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod base;
mod csr;
mod error;
mod graph;
mod hits;
mod id_index;
mod operator;
mod par;
mod query;
pub mod synthetic;
mod weighting;

pub use base::{base_set, BaseSet, BaseSetConfig};
pub use error::DistillError;
pub use focus_core::PageId;
pub use graph::{BuildStats, Graph, GraphBuilder};
pub use hits::{Hits, HitsConfig, HitsScores};
pub use weighting::{AuthorityFilter, Weighting};
