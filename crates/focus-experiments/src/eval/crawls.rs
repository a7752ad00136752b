//! The real-corpus crawl evaluation (`cargo xtask eval wikispeedia`, or
//! `cargo xtask eval corpus --corpus PATH` for any labelled corpus): every
//! crawler the project has, plus the optional scikit-learn reference, crawls
//! the replayed corpus for each evaluation category
//! ([`default_categories`] unless named) from two seed protocols; each
//! crawl is scored on the category's held-out pages.
//!
//! * Training: the shared split ([`Split`]); every crawler gets the same
//!   example-set folder of the training pages of all categories and marks
//!   the evaluated category good; the context crawler back-crawls from
//!   [`CONTEXT_TARGETS`] training pages of the category instead.
//! * Seeds: *hub seeds* are the [`HUB_SEEDS`] most linked-to pages of the
//!   corpus (the same for every category); *topic seeds* are
//!   [`TOPIC_SEEDS`] held-out pages of the category, chosen by a seeded
//!   hash.
//! * Scored pages: the category's labelled pages (its subtopics included)
//!   that are neither training pages nor seeds. Fetching anything else earns
//!   nothing. Recall at a budget is the share of scored pages among the
//!   first `budget` fetch attempts; harvest is scored pages per attempt.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use focus_cli::{CrawlPlan, Strategy, TopicSource};
use focus_core::TopicId;
use focus_websim::{Corpus, Site};
use xxhash_rust::xxh3::xxh3_64_with_seed;

use super::split::Split;
use focus_app::{run, AppError};

pub use super::crawler::{Crawler, Protocol};
use super::own_app;
pub use super::own_app::{
    bingo_learning_pages, context_targets, BINGO_LEARNING_SHARE, CONTEXT_TARGETS,
};
pub use super::scoring::{
    empty_attempts, oracle_order, score, scored_pages, training_pages, Scored,
};

/// Hub seeds: the corpus's most linked-to pages.
pub const HUB_SEEDS: usize = 5;
/// Topic seeds: held-out pages of the category.
pub const TOPIC_SEEDS: usize = 3;
/// The budgets (fetch attempts) at which recall and harvest are read.
pub const BUDGETS: [usize; 4] = [100, 250, 500, 1000];

/// Wikispeedia's ten evaluation categories: sizes from 38 to 229 pages,
/// depths one to three, sciences and humanities.
pub const CATEGORIES: [&str; 10] = [
    "Science/Biology/Birds",
    "Science/Chemistry/Chemical_elements",
    "Science/Physics/Space_Astronomy",
    "Music",
    "Religion",
    "IT",
    "Design_and_Technology/Railway_transport",
    "Countries",
    "Everyday_life/Sports",
    "Citizenship/Politics_and_government",
];

/// Where the Wikispeedia corpus sits beside a checkout of the project (the
/// evaluation's default corpus, run from the workspace root).
pub const WIKISPEEDIA_DIR: &str = "../shared/corpora/wikispeedia";

/// How many categories another corpus is evaluated on by default.
pub const DEFAULT_CATEGORIES: usize = 10;

/// The fewest labelled pages a category needs to be evaluated by default:
/// a training share, [`TOPIC_SEEDS`] seeds and held-out pages to score.
pub const MIN_CATEGORY_PAGES: u64 = 20;

/// The categories a corpus is evaluated on when none are named: Wikispeedia's
/// ten ([`CATEGORIES`]) when the corpus has them all, else its
/// [`DEFAULT_CATEGORIES`] largest leaf categories with at least
/// [`MIN_CATEGORY_PAGES`] labelled pages (ties by topic id; `collection-synth`
/// collects a corpus's largest leaves too, without the minimum).
pub fn default_categories(corpus: &Corpus) -> Vec<String> {
    if CATEGORIES.iter().all(|c| corpus.find_topic(c).is_some()) {
        return CATEGORIES.iter().map(|&c| c.to_owned()).collect();
    }
    let mut leaves: Vec<(u64, TopicId)> = corpus
        .taxonomy()
        .leaves()
        .into_iter()
        .map(|l| (corpus.truth_count(l), l))
        .filter(|&(n, _)| n >= MIN_CATEGORY_PAGES)
        .collect();
    leaves.sort_by_key(|&(n, l)| (std::cmp::Reverse(n), l));
    leaves
        .into_iter()
        .take(DEFAULT_CATEGORIES)
        .map(|(_, l)| corpus.taxonomy().path(l).to_owned())
        .collect()
}

/// [`default_categories`] of the corpus in `dir`.
pub fn default_categories_in(dir: &Path) -> Result<Vec<String>, AppError> {
    Ok(default_categories(&Corpus::load(dir).map_err(input)?))
}

/// The command that runs the evaluation `cfg` describes, for reports:
/// `cargo xtask eval wikispeedia` on the default corpus, else `cargo xtask
/// eval corpus --corpus PATH`, with `--categories` when they are not the
/// corpus's default ones.
pub fn eval_command(cfg: &EvalConfig, corpus: &Corpus) -> String {
    let mut cmd = if cfg.corpus == Path::new(WIKISPEEDIA_DIR) {
        String::from("cargo xtask eval wikispeedia")
    } else {
        format!("cargo xtask eval corpus --corpus {}", cfg.corpus.display())
    };
    if cfg.categories != default_categories(corpus) {
        cmd.push_str(" --categories ");
        cmd.push_str(&cfg.categories.join(","));
    }
    match cfg.distill_every {
        Some(n) => format!("{cmd} --distill-every {n}"),
        None => cmd,
    }
}

/// Settings of one evaluation run.
#[derive(Debug, Clone)]
pub struct EvalConfig {
    /// The corpus folder.
    pub corpus: PathBuf,
    /// Where the report and SVGs go (`docs/results`).
    pub out: PathBuf,
    /// Scratch directory: example set, seed files, the crawls' outputs.
    pub work: PathBuf,
    /// Seed of the split, the topic seeds and every crawl.
    pub seed: u64,
    /// Fetch attempts per crawl (the largest budget).
    pub pages: usize,
    /// How to run the scikit-learn reference crawler, or `None` to leave
    /// it out.
    pub reference: Option<Reference>,
    /// The crawlers to run (report order is [`Crawler::ALL`]'s).
    pub crawlers: Vec<Crawler>,
    /// The categories to evaluate, as topic paths of the corpus (see
    /// [`default_categories`]).
    pub categories: Vec<String>,
    /// The distiller's period (`--distill-every`) of the crawls that
    /// distil (soft, hard, BINGO!'s harvest), or `None` for their own
    /// default (1,000 pages: a crawl of the default budget then distils
    /// only at its end).
    pub distill_every: Option<u64>,
}

impl EvalConfig {
    /// The plan of one evaluated crawl with `strategy` from `source`,
    /// written to `dir`: the evaluation's budget, seed and distiller
    /// period, the crawler's defaults otherwise.
    pub(super) fn plan(&self, source: TopicSource, dir: &Path, strategy: Strategy) -> CrawlPlan {
        let base = CrawlPlan::new(source, dir.to_path_buf());
        CrawlPlan {
            max_pages: self.pages as u64,
            seed: self.seed,
            strategy,
            distill_every: self.distill_every.unwrap_or(base.distill_every),
            ..base
        }
    }
}

/// The optional scikit-learn reference crawler.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The Python interpreter (`python3`).
    pub python: String,
    /// `xtask/reference/crawl_sklearn.py`.
    pub script: PathBuf,
}

/// The hub seeds: the most linked-to pages (ties by id).
pub fn hub_seeds(corpus: &Corpus) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..corpus.page_count()).collect();
    ids.sort_by(|a, b| {
        corpus
            .in_degree(*b)
            .cmp(&corpus.in_degree(*a))
            .then(a.cmp(b))
    });
    ids.truncate(HUB_SEEDS);
    ids
}

/// The topic seeds of `topic`: held-out pages of it, by a seeded hash.
pub fn topic_seeds(corpus: &Corpus, split: &Split, topic: TopicId, seed: u64) -> Vec<u32> {
    let mut ids: Vec<u32> = scored_pages(corpus, split, topic, &[])
        .into_iter()
        .collect();
    ids.sort_by_key(|&p| (xxh3_64_with_seed(&p.to_le_bytes(), seed ^ 0x7e5d), p));
    ids.truncate(TOPIC_SEEDS);
    ids
}

pub(super) use crate::input;

/// What each fetch attempt of a crawl output (`pages.jsonl`, or the
/// reference's JSON lines) fetched, in fetch order: the URL of the page it
/// received (where a redirect ended), or `None` when it received none (an
/// error status, a refusal by robots.txt, a timeout, a skipped type). A
/// failed attempt spends the budget and finds nothing.
pub(super) fn read_fetched(path: &Path) -> Result<Vec<Option<String>>, AppError> {
    Ok(crate::page_lines(path)?
        .into_iter()
        .map(|line| {
            line.received_page()
                .then(|| line.final_url.unwrap_or(line.url))
        })
        .collect())
}

fn write_seeds(corpus: &Corpus, ids: &[u32], file: &Path) -> Result<(), AppError> {
    let text: String = ids
        .iter()
        .filter_map(|&p| corpus.page_url(p))
        .map(|u| u + "\n")
        .collect();
    std::fs::write(file, text).map_err(|e| input(format!("{}: {e}", file.display())))
}

/// The replayed corpus with `category` good, the example set (if any)
/// and the seed file: every evaluation crawl's source.
pub(super) fn corpus_source(
    cfg: &EvalConfig,
    category: &str,
    examples: Option<&Path>,
    seeds: &Path,
) -> TopicSource {
    TopicSource::Corpus {
        dir: cfg.corpus.clone(),
        good: vec![category.to_owned()],
        examples: examples.map(Path::to_path_buf),
        seeds: Some(seeds.to_path_buf()),
    }
}

/// Runs one crawler on one category and protocol; returns what each of its
/// fetch attempts fetched ([`read_fetched`]), `None` for a crawler that is
/// not run here.
async fn crawl(
    cfg: &EvalConfig,
    crawler: Crawler,
    category: &str,
    examples: &Path,
    seeds: &Path,
    targets: &Path,
    dir: &Path,
) -> Result<Option<Vec<Option<String>>>, AppError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(input)?;
    }
    std::fs::create_dir_all(dir).map_err(input)?;
    if crawler.is_oracle() {
        return Ok(None);
    }
    if crawler == Crawler::Reference {
        let Some(reference) = &cfg.reference else {
            return Ok(None);
        };
        return super::reference::crawl(cfg, reference, category, examples, seeds, dir)
            .await
            .map(Some);
    }
    if let Crawler::Bingo | Crawler::BingoPaper = crawler {
        let bingo = if crawler == Crawler::BingoPaper {
            focus_cli::Crawler::BINGO_PAPER
        } else {
            focus_cli::Crawler::BINGO
        };
        return own_app::bingo_crawl(cfg, bingo, category, examples, seeds, dir)
            .await
            .map(Some);
    }
    if let Crawler::Context | Crawler::ContextStandard = crawler {
        return own_app::context_crawl(cfg, crawler, category, seeds, targets, dir)
            .await
            .map(Some);
    }
    let strategy = match crawler {
        Crawler::SoftPrevious => Strategy {
            relevance: focus_cli::Relevance::Exact,
            ..Strategy::of(focus_cli::Crawler::Soft {
                order: focus_cli::SoftOrder::Vldb,
                priority: focus_cli::ChildPriority::Learnt,
            })
        },
        _ => Strategy::of(match crawler {
            Crawler::Soft
            | Crawler::SoftSequential
            | Crawler::SoftPrevious
            | Crawler::Reference
            | Crawler::Oracle
            | Crawler::OracleBlind
            | Crawler::Context
            | Crawler::ContextStandard
            | Crawler::Bingo
            | Crawler::BingoPaper => focus_cli::Crawler::SOFT,
            Crawler::Hard => focus_cli::Crawler::Hard,
            Crawler::BreadthFirst => focus_cli::Crawler::BreadthFirst,
            Crawler::Random => focus_cli::Crawler::Random,
        }),
    };
    let source = corpus_source(cfg, category, Some(examples), seeds);
    let mut plan = cfg.plan(source, dir, strategy);
    if crawler == Crawler::SoftSequential {
        plan.concurrency = 1;
    }
    run(&plan).await?;
    read_fetched(&dir.join("pages.jsonl")).map(Some)
}

/// Runs every crawl of the evaluation and scores it.
pub async fn run_all(cfg: &EvalConfig, corpus: &Corpus) -> Result<Vec<Scored>, AppError> {
    if cfg.categories.is_empty() {
        return Err(input(format!(
            "no category of {} to evaluate: it has no leaf category with {MIN_CATEGORY_PAGES} \
             labelled pages or more; name some with --categories",
            corpus.name()
        )));
    }
    let split = Split::new(corpus, cfg.seed);
    let examples = cfg.work.join("examples");
    if examples.exists() {
        std::fs::remove_dir_all(&examples).map_err(input)?;
    }
    let n = split.write_examples(corpus, &examples)?;
    tracing::info!("eval: {n} training example files in {}", examples.display());
    let hubs = hub_seeds(corpus);
    let mut out = Vec::new();
    for category in cfg.categories.iter().map(String::as_str) {
        let topic = corpus
            .find_topic(category)
            .ok_or_else(|| input(format!("the corpus has no category `{category}`")))?;
        let training = training_pages(corpus, &split, topic);
        // The category's pages, scored or not: what the oracles walk towards.
        let relevant: HashSet<u32> = (0..corpus.page_count())
            .filter(|&p| corpus.is_under(p, topic))
            .collect();
        for protocol in [Protocol::Hub, Protocol::Topic] {
            let seeds = match protocol {
                Protocol::Hub => hubs.clone(),
                Protocol::Topic => topic_seeds(corpus, &split, topic, cfg.seed),
            };
            let scored = scored_pages(corpus, &split, topic, &seeds);
            let slug = category.replace('/', "-");
            let base = cfg.work.join(&slug).join(protocol.slug());
            std::fs::create_dir_all(&base).map_err(input)?;
            let seed_file = base.join("seeds.txt");
            write_seeds(corpus, &seeds, &seed_file)?;
            let targets_file = base.join("targets.txt");
            write_seeds(
                corpus,
                &context_targets(corpus, &split, topic, cfg.seed),
                &targets_file,
            )?;
            for crawler in Crawler::ALL
                .into_iter()
                .filter(|c| cfg.crawlers.contains(c))
            {
                let dir = base.join(crawler.slug());
                let urls = if crawler.is_oracle() {
                    // Blind to the split, every page of the category is
                    // as good as a scored one.
                    let first = if crawler == Crawler::OracleBlind {
                        &relevant
                    } else {
                        &scored
                    };
                    oracle_order(corpus, &seeds, first, &relevant, cfg.pages)
                        .into_iter()
                        .map(|p| corpus.page_url(p))
                        .collect()
                } else {
                    match crawl(
                        cfg,
                        crawler,
                        category,
                        &examples,
                        &seed_file,
                        &targets_file,
                        &dir,
                    )
                    .await?
                    {
                        Some(urls) => urls,
                        None => continue,
                    }
                };
                let found = score(corpus, &urls, &scored);
                let s = Scored {
                    category: category.to_owned(),
                    protocol,
                    crawler,
                    scored_total: scored.len(),
                    found,
                    training: score(corpus, &urls, &training),
                    empty: empty_attempts(&urls),
                };
                tracing::warn!(
                    "eval {category} {} {}: recall@500 {:.3}, @1000 {:.3}",
                    protocol.name(),
                    crawler.name(),
                    s.recall_at(500),
                    s.recall_at(1000)
                );
                out.push(s);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only an attempt that received a page finds it: an error status, a
    /// refusal by robots.txt or a timeout spends the budget and finds
    /// nothing, and a redirect finds the page it ended at.
    #[test]
    fn an_attempt_finds_the_page_it_received() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pages.jsonl");
        std::fs::write(
            &file,
            [
                r#"{"url":"http://a.test/ok","status":200}"#,
                r#"{"url":"http://a.test/gone","status":404,"error":"status_404"}"#,
                r#"{"url":"http://a.test/private","status":null,"error":"robots_disallowed"}"#,
                r#"{"url":"http://a.test/slow","status":200,"error":"timeout_total"}"#,
                r#"{"url":"http://a.test/old","status":200,"final_url":"http://a.test/new"}"#,
            ]
            .join("\n"),
        )
        .unwrap();
        let fetched = read_fetched(&file).unwrap();
        assert_eq!(
            fetched,
            vec![
                Some("http://a.test/ok".to_owned()),
                None,
                None,
                None,
                Some("http://a.test/new".to_owned()),
            ]
        );
    }
}
