//! Topic distillation for focused crawlers: find the hubs that lead to many
//! relevant pages, as the distiller of Chakrabarti, van den Berg and Dom
//! (1999) does, and the Bharat–Henzinger variant that BINGO! (2003) uses.
//!
//! * [`GraphBuilder`] turns stored links (page ids, any order, duplicates
//!   allowed) into a compact [`Graph`]: CSR forward and reverse adjacency with
//!   dense `u32` node indices, a host id, a relevance `R` and a visited flag per
//!   node. [`Graph::from_positions`] builds the same graph from pages in any
//!   order and links between their positions, for a caller that keeps its
//!   graph that way (the crawl does: 8 bytes a link).
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
//! ```
//! use focus_distill::{GraphBuilder, Hits, HitsConfig, PageId};
//!
//! let mut b = GraphBuilder::new();
//! // (page, host, relevance R, visited)
//! b.add_node(PageId(1), 10, 0.9, true) // a hub
//!     .add_node(PageId(2), 20, 0.95, true)
//!     .add_node(PageId(3), 30, 0.8, false); // not fetched yet
//! b.add_edge(PageId(1), PageId(2)).add_edge(PageId(1), PageId(3));
//! let graph = b.build()?;
//! let scores = Hits::new(HitsConfig::relevance_1999())?.run(&graph);
//! assert_eq!(scores.top_hubs(1)[0].0, PageId(1));
//! let missed = scores.missed_neighbours(&graph, 90.0)?;
//! assert_eq!(missed[0].0, PageId(3));
//! # Ok::<(), focus_distill::DistillError>(())
//! ```
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
pub use graph::{BuildStats, Graph, GraphBuilder, PageNode};
pub use hits::{Hits, HitsConfig, HitsScores};
pub use weighting::{AuthorityFilter, Weighting};
