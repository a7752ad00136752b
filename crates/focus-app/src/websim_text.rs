//! Labelled websim pages as the crawler sees them, and the websim's text
//! calibrated with the crawler's own classifier: `Web::sample` pages of
//! every leaf, featurised exactly as fetched pages are (`focus_html::analyze`
//! then [`Featurizer::document`]), a [`HierNb`] with its default
//! configuration trained on the first pages of each leaf and scored on the
//! next ones. The websim itself may not depend on classifiers, so this
//! check lives here (`docs/websim.md`, calibration).

use focus_classify::eval::{score, Scores};
use focus_classify::Featurizer;
use focus_classify::{Classifier, Example, HierNb, HierNbConfig};
use focus_core::{Canonicalizer, Taxonomy, TopicId};
use focus_websim::{Site, Web};

use crate::AppError;

/// Up to `per_leaf` pages of every leaf of `taxonomy` sampled from a site
/// (the websim or a replayed corpus; never the
/// seeds), featurised as the crawler featurises fetched pages; one list per
/// leaf, in `taxonomy.leaves()` order and `Web::sample` order.
pub fn websim_pages(
    web: &dyn Site,
    taxonomy: &Taxonomy,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
    per_leaf: usize,
) -> Vec<Vec<Example>> {
    taxonomy
        .leaves()
        .into_iter()
        .map(|leaf| {
            web.sample(leaf, per_leaf)
                .into_iter()
                .filter_map(|p| {
                    let html = web.page_html(p.id)?;
                    let url = canon.canonicalize(&p.url).ok()?;
                    let doc = focus_html::analyze(&html, &url, canon);
                    Some(Example {
                        counts: featurizer.document(&doc),
                        topic: leaf,
                    })
                })
                .collect()
        })
        .collect()
}

/// Held-out leaf accuracy of the crawler's classifier on the websim: for
/// every leaf, the first `train` sampled pages train a default [`HierNb`]
/// (with the default [`Featurizer`]) and the next `test` are classified.
/// Flat over leaves; unclassified pages count as wrong.
pub fn websim_leaf_accuracy(web: &Web, train: usize, test: usize) -> Result<Scores, AppError> {
    let taxonomy = web.taxonomy().clone();
    let pages = websim_pages(
        web,
        &taxonomy,
        &Featurizer::default(),
        &Canonicalizer::default(),
        train + test,
    );
    let mut training = Vec::new();
    let mut held_out = Vec::new();
    for leaf in pages {
        let mut leaf = leaf.into_iter();
        training.extend(leaf.by_ref().take(train));
        held_out.extend(leaf);
    }
    let nb = HierNb::train(&taxonomy, &training, HierNbConfig::default())
        .map_err(|e| AppError::Input(e.to_string()))?;
    let pairs: Vec<(TopicId, Option<TopicId>)> = held_out
        .iter()
        .map(|e| (e.topic, nb.classify(&e.counts).best))
        .collect();
    Ok(score(&pairs))
}
