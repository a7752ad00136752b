//! The evaluation's crawlers that have a composition of their own in
//! focus-app (BINGO!'s two phases, the context-graph crawler and the
//! standard focused crawler on its classifier): their plans on the
//! replayed corpus, and the fetches they made, in order.

use std::path::Path;

use focus_app::{run_context, AppError};
use focus_cli::{ContextPlan, Strategy};
use focus_core::TopicId;
use focus_websim::Corpus;
use xxhash_rust::xxh3::xxh3_64_with_seed;

use super::crawls::{corpus_source, read_fetched, Crawler, EvalConfig};
use super::split::Split;

/// The share of the budget BINGO!'s learning phase gets (1 in 5; the
/// paper gives no number: its learning phase ran until it had archetypes).
pub const BINGO_LEARNING_SHARE: u64 = 5;

/// The learning phase's pages of a BINGO! crawl of `pages` (at least 1).
pub fn bingo_learning_pages(pages: u64) -> u64 {
    (pages / BINGO_LEARNING_SHARE).max(1)
}

/// BINGO! as `bingo` says (its default or the paper's order) on the corpus
/// with the evaluation's example set (every category's training pages: the
/// evaluated one is the user's topic, the others its negatives) and seeds;
/// the fetches of both phases in order.
pub(super) async fn bingo_crawl(
    cfg: &EvalConfig,
    bingo: focus_cli::Crawler,
    category: &str,
    examples: &Path,
    seeds: &Path,
    dir: &Path,
) -> Result<Vec<Option<String>>, AppError> {
    let source = corpus_source(cfg, category, Some(examples), seeds);
    let plan = focus_cli::BingoPlan::new(
        cfg.plan(source, dir, Strategy::of(bingo)),
        bingo_learning_pages(cfg.pages as u64),
    );
    focus_app::run_bingo(&plan).await?;
    let mut urls = read_fetched(&dir.join("learning").join("pages.jsonl"))?;
    urls.extend(read_fetched(&dir.join("harvesting").join("pages.jsonl"))?);
    Ok(urls)
}

/// Training pages of the category the context crawler's graphs start
/// from (the paper's seed set had ten).
pub const CONTEXT_TARGETS: usize = 10;

/// The context crawler (or the standard focused crawler on its
/// classifier) on the corpus, its targets read from `targets`.
pub(super) async fn context_crawl(
    cfg: &EvalConfig,
    crawler: Crawler,
    category: &str,
    seeds: &Path,
    targets: &Path,
    dir: &Path,
) -> Result<Vec<Option<String>>, AppError> {
    let source = corpus_source(cfg, category, None, seeds);
    let own = match crawler {
        Crawler::ContextStandard => focus_cli::Crawler::BestFirst,
        _ => focus_cli::Crawler::Context,
    };
    let plan = ContextPlan {
        targets: CONTEXT_TARGETS,
        targets_file: Some(targets.to_path_buf()),
        ..ContextPlan::new(cfg.plan(source, dir, Strategy::of(own)))
    };
    run_context(&plan).await?;
    read_fetched(&dir.join("pages.jsonl"))
}

/// [`CONTEXT_TARGETS`] training pages of `topic`, chosen by a seeded hash.
pub fn context_targets(corpus: &Corpus, split: &Split, topic: TopicId, seed: u64) -> Vec<u32> {
    let mut ids: Vec<u32> = split
        .train_pages()
        .filter(|&p| corpus.is_under(p, topic))
        .collect();
    ids.sort_by_key(|&p| (xxh3_64_with_seed(&p.to_le_bytes(), seed ^ 0xc0de), p));
    ids.truncate(CONTEXT_TARGETS);
    ids
}
