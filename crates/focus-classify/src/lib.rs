//! The classifiers of the focused-crawling papers behind one trait.
//!
//! * [`HierNb`] — hierarchical multinomial naive Bayes over a taxonomy
//!   (Chakrabarti et al. 1999): per-node feature selection, Laplace-smoothed
//!   θ(c,t) (eq. 1 of the VLDB paper), Pr[c|d] by the chain rule, soft
//!   relevance R(d) = Σ_good Pr[c|d] and the best leaf for hard focus;
//!   exact posteriors or [`temper`]ed ones (word evidence weighted by a
//!   fitted, length-dependent factor), which rank and are calibrated.
//! * [`Centroids`] — Bergmark's TF-IDF centroids and cosine correlation
//!   with a minimum term overlap and idf re-estimation.
//! * [`SvmTree`] — BINGO!'s linear SVM per topic node against competing
//!   siblings plus far-away OTHERS, top-down, with ξα precision estimates;
//!   optionally [`platt`]-calibrated, so the pages it rejects still rank.
//! * [`LayeredNb`] — Diligenti's per-layer naive Bayes with thresholds.
//! * [`meta`] — BINGO!'s unanimous, majority and ξα-weighted votes;
//!   [`SpacedSvm`] — one SVM tree per [`FeatureSpace`] (terms, term pairs,
//!   neighbours' anchor terms) under such a vote.
//! * [`features`] — mutual-information feature selection.
//! * [`Featurizer`] — an analysed page (or text) to the term counts every
//!   classifier takes, shared by training and crawling so both see the same
//!   features.
//!
//! Classifiers take **term-count vectors** ([`SparseVec`] of raw counts)
//! and own whatever weighting they need, so callers only ever count terms.
//! Deterministic and I/O-free (models are bytes via [`model_io`]; the naive
//! Bayes and the SVM tree train on rayon, to the same model on any number
//! of threads). Depends
//! on `focus-core`, `focus-text` and `focus-html` (the analysed page the
//! featurizer reads) only; it must not depend on the fetcher, the engine or
//! the websim.
//!
//! # Example
//!
//! ```
//! use focus_classify::{Classifier, Example, Featurizer, HierNb, HierNbConfig};
//! use focus_core::TaxonomyBuilder;
//!
//! let tax = TaxonomyBuilder::new().topic("cycling")?.good("cycling")?.topic("funds")?.build();
//! let (cycling, funds) = (tax.lookup("cycling")?, tax.lookup("funds")?);
//! let f = Featurizer::default();
//! let examples = vec![
//!     Example { counts: f.text("bicycle race saddle wheel tour"), topic: cycling },
//!     Example { counts: f.text("wheel gears bicycle helmet ride"), topic: cycling },
//!     Example { counts: f.text("mutual fund shares portfolio returns"), topic: funds },
//!     Example { counts: f.text("fund manager fees shares index"), topic: funds },
//! ];
//! let nb = HierNb::train(&tax, &examples, HierNbConfig::default())?;
//! let j = nb.classify(&f.text("a bicycle tour on one wheel"));
//! assert!(j.relevance > 0.5);
//! assert_eq!(j.best, Some(cycling));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod centroid;
pub mod eval;
pub mod features;
mod featurize;
pub mod hier_nb;
pub mod layered_nb;
pub mod meta;
pub mod model_io;
pub mod platt;
pub mod svm;
pub mod svm_spaces;
pub mod svm_tree;
pub mod temper;
mod term_index;
#[cfg(test)]
mod threads_test;
mod weights;

pub use centroid::{CentroidConfig, CentroidQuality, Centroids, DocumentFrequencies};
pub use featurize::{restrict, space_of, Featurizer, Spaces, PAIR_WINDOW};
pub use focus_core::FeatureSpace;
pub use hier_nb::{HierNb, HierNbConfig, Scoring};
pub use layered_nb::{LayerVerdict, LayeredNb};
pub use svm::{LinearSvm, SvmConfig, SvmRelevance, SvmTree};
pub use svm_spaces::{SpaceMember, SpacedSvm};

use focus_core::TopicId;
use focus_text::SparseVec;
use serde::{Deserialize, Serialize};

/// What a classifier says about one document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// Relevance to the good topics, in [0, 1].
    pub relevance: f64,
    /// The best class (a leaf for naive Bayes); `None` when the document is
    /// unclassified (too little overlap, "other", or OTHERS at the root).
    pub best: Option<TopicId>,
    /// Per-class scores (the family defines them: posteriors, correlations,
    /// SVM confidences), highest first.
    pub scores: Vec<(TopicId, f64)>,
}

/// A trained classifier.
pub trait Classifier: Send + Sync {
    /// Judges one term-count vector.
    fn classify(&self, counts: &SparseVec) -> Judgement;

    /// The relevance of one term-count vector, `classify(counts).relevance`,
    /// which a classifier may compute without the rest of the judgement.
    fn relevance(&self, counts: &SparseVec) -> f64 {
        self.classify(counts).relevance
    }
}

/// A labelled training document.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// Raw term counts.
    pub counts: SparseVec,
    /// Its topic (any node of the taxonomy).
    pub topic: TopicId,
}

/// Why a model cannot be trained or loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassifyError {
    /// Not enough labelled data to train.
    #[error("cannot train: {0}")]
    Training(String),
    /// Model bytes are corrupt, foreign or of another version or kind.
    #[error("model: {0}")]
    Model(String),
}
