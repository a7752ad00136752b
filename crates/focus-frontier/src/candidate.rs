//! A URL waiting in the frontier, with what its order needs.

use focus_core::{CanonicalUrl, HostKey, PageId};
use serde::{Deserialize, Serialize};

use crate::tunnel::TunnelState;

/// A URL waiting to be fetched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The canonical URL.
    pub url: CanonicalUrl,
    /// Its page id (`url.page_id()`).
    pub id: PageId,
    /// Its politeness unit (`url.host_key()`).
    pub host: HostKey,
    /// Links from the seeds.
    pub depth: u32,
    /// The page it was found on (`None` for seeds).
    pub parent: Option<PageId>,
    /// Priority in [0, 1] (higher is sooner): R of the parent for soft
    /// focus, the classifier score for best-first, a likelihood for layers.
    pub priority: f64,
    /// Fetch attempts so far (the VLDB paper's numtries).
    pub numtries: u32,
    /// Off-topic steps since the last relevant page.
    pub tunnel: TunnelState,
    /// Context-graph layer (0 = target) or BINGO! topic, when the
    /// discipline uses one.
    pub layer: Option<u32>,
}

impl Candidate {
    /// A fresh candidate for `url` at `depth` with `priority`.
    pub fn new(url: CanonicalUrl, depth: u32, parent: Option<PageId>, priority: f64) -> Self {
        Self {
            id: url.page_id(),
            host: url.host_key(),
            url,
            depth,
            parent,
            priority: if priority.is_nan() { 0.0 } else { priority },
            numtries: 0,
            tunnel: TunnelState::default(),
            layer: None,
        }
    }
}
