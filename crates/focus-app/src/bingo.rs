//! BINGO! (Sizov et al. 2003) composed from the crates: a topic tree with
//! training pages (a bookmarks file's folders, an example set, or pages
//! sampled from the websim or a corpus for its `--good` topics) plus an
//! `others` class of far-away pages → per feature space (`--spaces`: terms,
//! term pairs, neighbours' anchor terms) one linear SVM per topic
//! (focus-classify's [`SpacedSvm`] of [`focus_classify::SvmTree`]s, MI
//! feature selection per space, ξα estimates), voting unanimously while
//! learning and ξα-weighted (or `--single-space`: the best space alone)
//! while harvesting →
//! the learning phase (sharp focus, depth first, on the training pages'
//! domains: [`Bingo::learning`]) → archetypes per topic: the top HITS
//! authorities and the top SVM confidences of the pages it kept, admitted
//! when the topic's SVM accepts them (or, `--admit above-mean`, when more
//! confident than the topic's training pages on average) (`archetypes.tsv`,
//! which `--review` lets the user edit) → retraining →
//! the harvesting phase (soft focus, best first by confidence, tunnelling,
//! from the best hubs and the seeds: [`Bingo::harvesting`]) → the local
//! search index over every page both phases kept (`bingo/search.rs`).
//! Each phase is an ordinary crawl of the engine in its own directory
//! (`OUT/learning`, `OUT/harvesting`).

mod archetypes;
mod search;
mod topics;

use std::collections::BTreeSet;
use std::sync::Arc;

use focus_classify::meta::Rule;
use focus_classify::{Example, Featurizer, SpacedSvm, Spaces, SvmConfig, SvmRelevance};
use focus_cli::BingoPlan;
use focus_core::{
    CanonicalUrl, Canonicalizer, ChildPriority, Crawler, Dispatch, Taxonomy, TopicId,
};
use focus_crawl::bingo::{Bingo, Phase as CrawlPhase};
use focus_crawl::{CrawlConfig, Parts, Truth};
use focus_eval::Summary;
use focus_fetch::Fetcher;
use focus_text::TextConfig;

pub use archetypes::Archetype;
pub use search::{search_crawl, Cluster, SearchOutcome};
pub use topics::far_away_pages;

use crate::sample_pass::run_with_bar;
use crate::setup::{crawl_config, serve_source, AppError};

/// The topic that holds the far-away pages (BINGO!'s OTHERS).
pub const OTHERS: &str = "others";

/// What a BINGO! run produced.
#[derive(Debug)]
pub struct BingoOutcome {
    /// The learning phase's summary (`OUT/learning/summary.json`).
    pub learning: Summary,
    /// The harvesting phase's summary; `None` when the run stopped for the
    /// user's review of the archetypes.
    pub harvesting: Option<Summary>,
    /// Every archetype candidate, admitted or not (`archetypes.tsv`).
    pub archetypes: Vec<Archetype>,
    /// Per user topic: (path, training pages before, after the archetypes).
    pub training: Vec<(String, usize, usize)>,
    /// Per topic: the ξα precision estimate of its SVMs after retraining
    /// (weighted over the feature spaces).
    pub precision: Vec<(String, f64)>,
    /// Per trained feature space: its name and the ξα precision estimate
    /// of its user topics' SVMs (of the retrained trees; of the initial
    /// ones when the run stopped for review).
    pub spaces: Vec<(&'static str, f64)>,
    /// Pages in the local search index (`OUT/index`).
    pub indexed: u64,
}

/// The trained trees (one per feature space) and what they were trained on.
struct Model {
    tree: SpacedSvm,
    taxonomy: Taxonomy,
    examples: Vec<Example>,
}

/// Whether the plan harvests with the link model (`--child-priority
/// apprentice`) rather than the paper's priority.
fn apprentice(plan: &BingoPlan) -> bool {
    plan.crawl.strategy.crawler
        == (Crawler::Bingo {
            priority: ChildPriority::Apprentice,
        })
}

fn train(plan: &BingoPlan, taxonomy: &Taxonomy, examples: Vec<Example>) -> Result<Model, AppError> {
    let cfg = SvmConfig {
        seed: plan.crawl.seed,
        balanced: true,
        // The link model learns from the crawl's relevances: rejected
        // pages must rank for it to learn anything among them.
        relevance: if apprentice(plan) {
            SvmRelevance::Calibrated
        } else {
            SvmRelevance::Paper
        },
        ..SvmConfig::default()
    };
    let tree = SpacedSvm::train(taxonomy, &examples, &plan.spaces, &cfg)?;
    Ok(Model {
        tree,
        taxonomy: taxonomy.clone(),
        examples,
    })
}

/// One phase's crawl.
struct Phase<'a> {
    dir: &'a str,
    policy: Bingo,
    seeds: Vec<CanonicalUrl>,
    pages: u64,
    resume: bool,
}

/// The engine's configuration of a phase crawling `pages` pages into
/// `OUT/dir`, resumed or not, keeping its pages' text.
fn phase_config(plan: &BingoPlan, dir: &str, pages: u64, resume: bool) -> CrawlConfig {
    let mut cfg = crawl_config(&plan.crawl);
    cfg.out = plan.crawl.out.join(dir);
    cfg.max_pages = pages;
    cfg.keep_text = true;
    cfg.resume = resume;
    cfg
}

async fn crawl_phase(
    plan: &BingoPlan,
    model: &Model,
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    truth: Option<&Truth>,
    phase: Phase<'_>,
) -> Result<Summary, AppError> {
    let mut cfg = phase_config(plan, phase.dir, phase.pages, phase.resume);
    // The paper's default: a unanimous vote while learning, ξα-weighted
    // (or the best space alone) while harvesting.
    let classifier = match phase.policy.phase() {
        CrawlPhase::Learning => {
            // Depth first means the newest URL next, however poor.
            cfg.dispatch = Dispatch::Fill;
            model.tree.clone().with_rule(Rule::Unanimous)
        }
        CrawlPhase::Harvesting if plan.single_space => model.tree.clone().single_best(),
        CrawlPhase::Harvesting => model.tree.clone().with_rule(Rule::XiAlphaWeighted),
    };
    let parts = Parts {
        fetcher: fetcher.clone(),
        classifier: Arc::new(classifier),
        taxonomy: model.taxonomy.clone(),
        featurizer: featurizer.clone(),
        policy: Box::new(phase.policy),
        seeds: phase.seeds,
        truth: truth.cloned(),
        parents: None,
        similarity: None,
    };
    run_with_bar(parts, cfg).await
}

/// Runs BINGO! as `plan` says: both phases, or the learning phase only
/// when `--review` stops for the user (a `--resume` run then retrains on
/// the archetypes left in `archetypes.tsv` and harvests).
pub async fn run_bingo(plan: &BingoPlan) -> Result<BingoOutcome, AppError> {
    use focus_crawl::policy::Policy as _;
    let learning_dir = plan.crawl.out.join("learning");
    let learning_done = learning_dir.join("summary.json");
    let resuming_review = plan.crawl.resume && plan.review && learning_done.is_file();
    // A wrong --out is refused before the examples are fetched and the
    // trees trained: both phases' folders are checked as they will be
    // crawled.
    let harvest_pages = plan.crawl.max_pages - plan.learning_pages;
    // A resumed review harvests afresh: its learning phase was the run
    // before.
    let harvest_resume = plan.crawl.resume && !resuming_review;
    for (dir, pages, resume) in [
        ("learning", plan.learning_pages, plan.crawl.resume),
        ("harvesting", harvest_pages, harvest_resume),
    ] {
        focus_crawl::check_config(&phase_config(plan, dir, pages, resume))?;
    }
    let canon = Canonicalizer::default();
    // BINGO!'s document analysis: stop words, Porter stemming, tf·idf;
    // and the feature spaces the trees read.
    let featurizer = Featurizer::new(TextConfig::stemmed()).with_spaces(Spaces::of(&plan.spaces));
    // A bookmarks file names a web of its own (the flags' source is then
    // the default websim, not served).
    let served = if plan.bookmarks.is_some() {
        None
    } else {
        serve_source(&plan.crawl.source, plan.crawl.seed).await?
    };
    let start = topics::topic_tree(plan, served.as_ref(), &canon)?;
    let examples =
        crate::user_input::user_examples(&start.set, &start.fetcher, &featurizer, &canon).await;
    let taxonomy = &start.set.taxonomy;
    let user_topics = topics::user_topics(taxonomy);
    let trained = |t: TopicId| {
        examples
            .iter()
            .any(|e| taxonomy.is_ancestor_or_self(t, e.topic))
    };
    if let Some(&t) = user_topics.iter().find(|&&t| !trained(t)) {
        return Err(AppError::Input(format!(
            "topic {} has no training page that could be fetched",
            start.set.taxonomy.path(t)
        )));
    }
    let initial = train(plan, &start.set.taxonomy, examples)?;
    tracing::info!(
        "initial SVM trees: {} training pages, {} topics, spaces (ξα precision) {:?}",
        initial.examples.len(),
        user_topics.len(),
        space_precision(&initial.tree)
    );

    // The learning phase: on the training pages' domains.
    let domains: BTreeSet<_> = start
        .set
        .urls()
        .map(|(_, u)| u.clone())
        .chain(start.seeds.iter().cloned())
        .collect();
    let domains: Vec<CanonicalUrl> = domains.into_iter().collect();
    let learning = if resuming_review {
        read_summary(&learning_done)?
    } else {
        crawl_phase(
            plan,
            &initial,
            &start.fetcher,
            &featurizer,
            start.truth.as_ref(),
            Phase {
                dir: "learning",
                policy: Bingo::learning(&domains).with_max_tunnel(plan.max_tunnel),
                seeds: start.seeds.clone(),
                pages: plan.learning_pages,
                resume: plan.crawl.resume,
            },
        )
        .await?
    };

    // A learning phase cut short by a stop gives no archetypes: the
    // harvest would not start anyway, and --resume finishes learning first.
    if crate::stop::stop_requested() {
        return Err(AppError::Stopped(format!(
            "asked for during the learning phase in {}; the harvesting phase was not started (resume with --resume)",
            learning_dir.display()
        )));
    }

    // Archetypes, then (unless the user reviews them first) retraining.
    let review_file = plan.crawl.out.join("archetypes.tsv");
    // The learning crawl's kept text: the candidates' and then the
    // admitted archetypes' documents (read once).
    let texts = archetypes::read_texts(&learning_dir)?;
    let archetypes = if resuming_review {
        archetypes::read(&review_file)?
    } else {
        let found = archetypes::select(
            &learning_dir,
            &texts,
            &initial,
            &featurizer,
            plan.archetypes,
            plan.admit,
        )?;
        archetypes::write(&review_file, &found)?;
        found
    };
    if plan.review && !resuming_review {
        tracing::info!(
            "stopped for review: edit {} (delete the lines of pages that are not archetypes), then run again with --resume",
            review_file.display()
        );
        return Ok(BingoOutcome {
            learning,
            harvesting: None,
            training: topics::training_sizes(&initial, &initial),
            archetypes,
            precision: Vec::new(),
            spaces: space_precision(&initial.tree),
            indexed: 0,
        });
    }
    let mut examples = initial.examples.clone();
    examples.extend(archetypes::examples(
        &texts,
        &archetypes,
        &initial.taxonomy,
        &featurizer,
    ));
    let retrained = train(plan, &initial.taxonomy, examples)?;
    let spaces = space_precision(&retrained.tree);
    tracing::info!("retrained SVM trees: spaces (ξα precision) {spaces:?}");
    let precision: Vec<(String, f64)> = retrained
        .tree
        .precision_estimates()
        .into_iter()
        .map(|(t, p)| (retrained.taxonomy.path(t).to_owned(), p))
        .collect();

    // The harvesting phase: from the best hubs and the seeds.
    let mut seeds = archetypes::hubs(&learning_dir, &canon, plan.archetypes)?;
    for s in &start.seeds {
        if !seeds.contains(s) {
            seeds.push(s.clone());
        }
    }
    let mut policy = Bingo::harvesting().with_max_tunnel(plan.max_tunnel);
    if apprentice(plan) {
        policy = policy.with_apprentice();
    }
    tracing::info!(
        "harvesting ({}) from {} hubs and seeds",
        policy.name(),
        seeds.len()
    );
    let harvesting = crawl_phase(
        plan,
        &retrained,
        &start.fetcher,
        &featurizer,
        start.truth.as_ref(),
        Phase {
            dir: "harvesting",
            policy,
            seeds,
            pages: harvest_pages,
            resume: harvest_resume,
        },
    )
    .await?;
    let indexed = search::index_crawl(&plan.crawl.out, &retrained.taxonomy)?;
    if let Some(served) = served {
        served.handle.shutdown().await;
    }
    Ok(BingoOutcome {
        learning,
        harvesting: Some(harvesting),
        training: topics::training_sizes(&initial, &retrained),
        archetypes,
        precision,
        spaces,
        indexed,
    })
}

/// Each trained space's name and ξα precision estimate.
fn space_precision(tree: &SpacedSvm) -> Vec<(&'static str, f64)> {
    tree.members()
        .iter()
        .map(|m| (m.space.name(), m.precision))
        .collect()
}

fn read_summary(path: &std::path::Path) -> Result<Summary, AppError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}
