//! The typed errors of the distiller.

use thiserror::Error;

/// What can go wrong when building a graph, configuring HITS or querying scores.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DistillError {
    /// The graph would need more nodes than a `u32` index can name.
    #[error("graph has {nodes} nodes; at most {max} are supported")]
    TooManyNodes {
        /// Number of distinct nodes offered.
        nodes: usize,
        /// The largest supported node count.
        max: usize,
    },
    /// A configuration value is out of range.
    #[error("invalid distiller configuration: {0}")]
    InvalidConfig(String),
    /// Scores were asked about a graph they were not computed on.
    #[error("scores cover {scores} nodes but the graph has {graph}")]
    GraphMismatch {
        /// Number of nodes in the scores.
        scores: usize,
        /// Number of nodes in the graph.
        graph: usize,
    },
}
