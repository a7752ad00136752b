//! What a crawl is made of, and how the engine splits it: the page
//! analysis (fetcher, classifier, taxonomy, featurizer) goes to the
//! pipeline, the policy to the apply step, the truth to the scorer, the
//! backlink expansion to the pipeline (which asks) and the resume step
//! (which restores its count).

use std::sync::Arc;

use focus_classify::{Classifier, Featurizer};
use focus_core::{CanonicalUrl, Taxonomy};
use focus_fetch::Fetcher;

use crate::parents::ParentExpansion;
use crate::policy::Policy;
use crate::scorer::{Scorer, Truth};

/// What the crawl is made of.
pub struct Parts {
    /// The fetcher.
    pub fetcher: Fetcher,
    /// The classifier.
    pub classifier: Arc<dyn Classifier>,
    /// The taxonomy with the good marks (for hard focus and class names).
    pub taxonomy: Taxonomy,
    /// How pages become term counts (must match the classifier's training).
    pub featurizer: Featurizer,
    /// The crawler's personality ([`crate::policy::for_crawler`] gives the
    /// one a [`focus_core::Crawler`] names).
    pub policy: Box<dyn Policy>,
    /// Where the crawl starts.
    pub seeds: Vec<CanonicalUrl>,
    /// Ground truth for evaluation, when known: only the scorer sees it.
    pub truth: Option<Truth>,
    /// Backlink expansion: the parents of every page judged on-topic
    /// join the frontier ([`crate::parents`]); none in the papers' crawls
    /// but Diligenti's Fig. 6 variant.
    pub parents: Option<ParentExpansion>,
    /// A second judge of a page, whose relevance is the page's similarity
    /// to the good topics ([`crate::policy::PageVerdict::similarity`]; the
    /// applications give `focus_classify::Centroids` with the good subtree
    /// marked, trained on the same examples). Asked only when the policy
    /// uses it ([`Policy::uses_similarity`]); without one, the similarity
    /// of every page is 0.
    pub similarity: Option<Arc<dyn Classifier>>,
}

/// How a fetched page is turned into a judgement (shared with the
/// pipeline's rayon tasks).
pub(crate) struct Analysis {
    pub(crate) fetcher: Fetcher,
    pub(crate) classifier: Arc<dyn Classifier>,
    pub(crate) taxonomy: Taxonomy,
    pub(crate) featurizer: Featurizer,
    /// Whether each link's features are computed for the link model.
    pub(crate) link_features: bool,
    /// Backlink expansion, if the crawl asks for parents.
    pub(crate) parents: Option<ParentExpansion>,
    /// The similarity judge, if the policy uses one.
    pub(crate) similarity: Option<Arc<dyn Classifier>>,
    /// Whether each page's title and main text are kept (`texts.jsonl`).
    pub(crate) keep_text: bool,
}

/// [`Parts`] taken apart: each piece goes only where it is used.
pub(crate) struct Split {
    pub(crate) analysis: Arc<Analysis>,
    pub(crate) policy: Box<dyn Policy>,
    pub(crate) seeds: Vec<CanonicalUrl>,
    pub(crate) scorer: Scorer,
}

impl Parts {
    pub(crate) fn split(self, keep_text: bool) -> Split {
        let Parts {
            fetcher,
            classifier,
            taxonomy,
            featurizer,
            policy,
            seeds,
            truth,
            parents,
            similarity,
        } = self;
        Split {
            analysis: Arc::new(Analysis {
                fetcher,
                classifier,
                taxonomy,
                featurizer,
                link_features: policy.uses_link_model(),
                parents,
                similarity: similarity.filter(|_| policy.uses_similarity()),
                keep_text,
            }),
            policy,
            seeds,
            scorer: Scorer::new(truth),
        }
    }
}
