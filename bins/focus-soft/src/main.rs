//! `focus-soft`: Chakrabarti, van den Berg and Dom's soft-focus crawler (1999).
//! With no arguments it starts the embedded websim on loopback, trains on
//! its sampled examples, marks `recreation/outdoors` (the papers' cycling
//! and its sibling leaves) good and crawls 5,000 pages from 3 seeds. Each
//! outlink's 1999 priority (its page's relevance, floored at half the
//! page's centroid cosine to the topic) is scaled by what its kind of link
//! — same site or cross site — has yielded in the crawl and joined with an
//! online link model's score; `--child-priority paper` gives the papers'
//! rule unscaled. Flags: see `--help`.
//! No logic here: flags become a plan in `focus-cli`, the plan runs in
//! `focus-app`.

use clap::Parser;
use focus_cli::{CrawlArgs, Crawler};

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Chakrabarti et al.'s soft-focus focused crawler.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    crawl: CrawlArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    focus_app::init_logging("info");
    let plan = Cli::parse().crawl.plan(Crawler::SOFT)?;
    let summary = focus_app::run(&plan).await?;
    println!("{}", serde_json::to_string_pretty(&summary)?);
    println!("outputs in {}", plan.out.display());
    Ok(())
}
