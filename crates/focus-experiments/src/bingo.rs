//! Reproduction of BINGO! (Sizov et al. 2003) (`cargo xtask repro
//! bingo`): §5.2's portal generation for a single topic from a few
//! bookmarks (Table 1's crawl summary, the archetypes, and Tables 2–3:
//! how many of the topic's top authorities the crawl found, after a short
//! and a four times longer budget, and how many are among its pages of
//! highest SVM confidence) and §5.3's expert search for a needle topic
//! from seven training pages (how many of its other pages the crawl
//! found, the local search's and the confidence ranking's top 10 and 20),
//! on the websim and on the replayed corpus.
//!
//! Every crawl is [`focus_app::run_bingo`], exactly as `bingo` runs it;
//! the measures come from its outputs (`pages.jsonl`, the stores' links,
//! `OUT/index` through [`focus_app::search_crawl`]) judged against the
//! web's truth. The webs, their truth and the crawls' inputs are
//! `bingo/world.rs`, running a crawl `bingo/crawl.rs`, the measures
//! `bingo/measures.rs`, the markdown and figures `bingo/report.rs`.

mod bookmarks;
mod crawl;
mod expert_report;
mod measures;
mod needles;
mod paced;
mod report;
mod world;

use std::collections::HashSet;
use std::path::Path;

use crate::eval::crawls::bingo_learning_pages as learning_pages;
use crate::repro::ReproConfig;
use crate::{input, write};
use focus_app::AppError;
use focus_cli::SearchArgs;

use crawl::Run;
use measures::{needle, top_authorities, top_k};
use world::{Inputs, World};

/// The portal topic on the websim: a cooperative community (the other
/// reproductions' cycling).
const WEBSIM_PORTAL: &str = "recreation/outdoors/cycling";
/// The portal topic on the corpus.
const CORPUS_PORTAL: &str = "Science/Biology/Birds";
/// The portal's bookmarks (the paper: the home pages of DeWitt and Gray,
/// three pages as Gray's has two frames).
const BOOKMARKS: usize = 3;
/// The long budget, in short budgets (the paper's 12 hours against 90
/// minutes: about 30 times the pages; four keeps the crawls short).
const LONG: u64 = 4;
/// The needle's training pages (the paper's Figure 4: seven).
const NEEDLE_TRAINING: usize = 7;
/// The needle is the smallest leaf topic with at least this many pages.
const NEEDLE_MIN: u64 = 10;
/// Results of the local search and of the confidence ranking examined.
const TOP: [usize; 2] = [10, 20];

/// One portal crawl and its yardstick.
pub(super) struct Portal {
    topic: String,
    bookmarks: Vec<String>,
    others: usize,
    /// The topic's pages but the bookmarks.
    truth: HashSet<String>,
    /// Its top authorities (the yardstick) and their in-degree range.
    authorities: HashSet<String>,
    degrees: (u32, u32),
    /// The short budget (the long one is the whole crawl).
    short: usize,
    run: Run,
}

/// One expert search.
pub(super) struct Expert {
    topic: String,
    pages: usize,
    training: Vec<String>,
    hidden: HashSet<String>,
    query: String,
    /// BINGO! as the paper gives it, then `bingo`'s default (the
    /// apprentice), from the same training pages with the same budget.
    crawls: [ExpertCrawl; 2],
    /// The breadth-first crawl from the same seeds with the same budget:
    /// its stored pages.
    baseline: HashSet<String>,
}

/// One crawler's expert search: its crawl and the local search over it.
pub(super) struct ExpertCrawl {
    /// The crawler, as the report names it.
    label: &'static str,
    /// The query's hits over every indexed page, and with `--topic`
    /// (training pages left out): (URL, score), or the error.
    search: Result<Vec<(String, f64)>, String>,
    search_topic: Result<Vec<(String, f64)>, String>,
    run: Run,
}

/// Runs every experiment and writes `bingo.md` and its SVGs to
/// `cfg.out`. Returns the report.
pub async fn bingo(cfg: &ReproConfig) -> Result<String, AppError> {
    if cfg.pages < 2 {
        return Err(input(
            "--pages must be at least 2 (a learning and a harvesting phase)",
        ));
    }
    std::fs::create_dir_all(&cfg.out).map_err(input)?;
    let mut sections = Vec::new();
    let websim = World::websim(cfg.seed).await?;
    let got = (
        portal(cfg, &websim, WEBSIM_PORTAL).await,
        expert(cfg, &websim).await,
    );
    let title = websim.title.clone();
    websim.shutdown().await;
    sections.push((title, "websim", got.0?, got.1?));
    let corpus = match &cfg.corpus {
        Some(dir) if dir.is_dir() => Some(World::corpus(dir)?),
        _ => None,
    };
    let mut survey = None;
    if let Some(corpus) = &corpus {
        let p = portal(cfg, corpus, CORPUS_PORTAL).await?;
        let e = expert(cfg, corpus).await?;
        sections.push((corpus.title.clone(), "corpus", p, e));
        survey = Some(needles::survey(cfg, corpus).await?);
    }
    let mut md = report::report(cfg, corpus.is_some(), &sections)?;
    if let (Some(rows), Some(corpus)) = (&survey, &corpus) {
        needles::section(&mut md, &corpus.title, cfg.pages, rows);
    }
    write(&cfg.out.join("bingo.md"), &md)?;
    Ok(md)
}

/// §5.2 on one web: the topic from [`BOOKMARKS`] of its pages, crawled
/// for [`LONG`] short budgets.
async fn portal(cfg: &ReproConfig, world: &World, path: &str) -> Result<Portal, AppError> {
    let topic = world.topic(path)?;
    let bookmarks = world.training(topic, BOOKMARKS);
    let others = world.others(topic);
    let pids = world.pages_under(topic);
    let degrees = world.in_degrees(&pids);
    let pages: Vec<(String, u32)> = pids
        .iter()
        .zip(degrees)
        .filter_map(|(&p, d)| world.url(p).map(|u| (u, d)))
        .filter(|(u, _)| !bookmarks.contains(u))
        .collect();
    let truth: HashSet<String> = pages.iter().map(|p| p.0.clone()).collect();
    let k = top_k(pages.len());
    let indeg: std::collections::HashMap<&str, u32> =
        pages.iter().map(|(u, d)| (u.as_str(), *d)).collect();
    let authorities = top_authorities(pages.clone(), k);
    let range = authorities
        .iter()
        .filter_map(|u| indeg.get(u.as_str()).copied());
    let degrees = (range.clone().min().unwrap_or(0), range.max().unwrap_or(0));
    let authorities: HashSet<String> = authorities.into_iter().collect();
    let dir = cfg.work.join("bingo").join(world.slug).join("portal");
    let plan = world.plan(
        &dir,
        &Inputs {
            topic: path,
            training: &bookmarks,
            others: &others,
            pages: LONG * cfg.pages,
            learning: learning_pages(cfg.pages),
            seed: cfg.seed,
        },
    )?;
    tracing::warn!("bingo: {} portal for {path}", world.slug);
    let run = crawl::run(&plan, path).await?;
    Ok(Portal {
        topic: path.to_owned(),
        bookmarks,
        others: others.len(),
        truth,
        authorities,
        degrees,
        short: usize::try_from(cfg.pages).unwrap_or(usize::MAX),
        run,
    })
}

/// §5.3 on one web: the needle topic from [`NEEDLE_TRAINING`] of its
/// pages, a short crawl, then the local search.
async fn expert(cfg: &ReproConfig, world: &World) -> Result<Expert, AppError> {
    let sizes = world.leaf_sizes();
    let path = needle(&sizes, NEEDLE_MIN)
        .ok_or_else(|| {
            input(format!(
                "{}: no leaf topic of {NEEDLE_MIN} pages",
                world.title
            ))
        })?
        .to_owned();
    let topic = world.topic(&path)?;
    let (all, training, hidden) = world.needle_pages(topic, NEEDLE_TRAINING);
    let others = world.others(topic);
    let dir = cfg.work.join("bingo").join(world.slug).join("expert");
    let inputs = Inputs {
        topic: &path,
        training: &training,
        others: &others,
        pages: cfg.pages,
        learning: learning_pages(cfg.pages),
        seed: cfg.seed,
    };
    let paper = world.plan(&dir, &inputs)?;
    let apprentice = world::apprentice(&paper, &dir)?;
    let query = world.site().topic_query(topic);
    let search = |label: &'static str, plan| {
        let (query, path, training) = (&query, &path, &training);
        async move {
            tracing::warn!("bingo: {} expert search for {path}, {label}", world.slug);
            // Boxed: inline, this crawl made `bingo()`'s future larger than
            // clippy's `large_futures` bound (16 KiB).
            let run = Box::pin(crawl::run(plan, path)).await?;
            Ok::<_, AppError>(ExpertCrawl {
                label,
                search: local_search(&run.out, query, None, training),
                search_topic: local_search(&run.out, query, Some(path), training),
                run,
            })
        }
    };
    let crawls = [
        search("BINGO! (paper)", &paper).await?,
        search("`bingo` (apprentice)", &apprentice).await?,
    ];
    let bfs = world.baseline_plan(&dir, &inputs)?;
    focus_app::run(&bfs).await?;
    let baseline = crawl::stored(&bfs.out.join("pages.jsonl"))?;
    Ok(Expert {
        topic: path,
        pages: all.len(),
        training,
        hidden,
        query,
        crawls,
        baseline,
    })
}

/// `bingo search --out OUT [--topic T] QUERY` with the default ranking;
/// the best hits that are not training pages.
fn local_search(
    out: &Path,
    query: &str,
    topic: Option<&str>,
    training: &[String],
) -> Result<Vec<(String, f64)>, String> {
    let most = TOP[TOP.len() - 1];
    let args = SearchArgs {
        out: out.to_path_buf(),
        topic: topic.map(str::to_owned),
        rank: "combined".into(),
        limit: most + training.len(),
        cluster: false,
        query: query.to_owned(),
    };
    focus_app::search_crawl(&args)
        .map(|got| {
            got.hits
                .into_iter()
                .filter(|h| !training.contains(&h.url))
                .take(most)
                .map(|h| (h.url, h.score))
                .collect()
        })
        .map_err(|e| e.to_string())
}
