//! `context-graph`: Diligenti et al.'s context-focused crawler (2000).
//! With no arguments it starts the embedded websim on loopback, takes 10
//! pages of `recreation/outdoors` as targets, back-crawls their context
//! graphs through the websim's backlink service to 4 layers of at most 300
//! pages, takes a 500-page breadth-first pass from the seeds as the
//! reference corpus of its TF-IDF weights, trains one naive Bayes per
//! layer and crawls 5,000 pages from the N+2 queues. `--corpus PATH
//! --good TOPIC` does the same on a replayed corpus; `--examples DIR
//! --good TOPIC --seeds FILE --backlinks-file LINKS` on any web.
//! `--backlink-requests N` asks for the parents of pages judged on-topic
//! (the paper's Fig. 6), `--rebuild-every N` rebuilds the graphs from the
//! targets found. Flags: see `--help`.
//! No logic here: flags become a plan in `focus-cli`, the plan runs in
//! `focus-app`.

use clap::Parser;
use focus_cli::ContextArgs;

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Diligenti et al.'s context-focused crawler.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    args: ContextArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    focus_app::init_logging("info");
    let plan = Cli::parse().args.plan()?;
    let outcome = focus_app::run_context(&plan).await?;
    println!("{}", serde_json::to_string_pretty(&outcome.summary)?);
    println!(
        "merged context graph, documents per layer (0 = targets): {:?}",
        outcome.layer_sizes
    );
    println!(
        "thresholds (minimum training likelihood per layer): {:?}",
        outcome
            .thresholds
            .iter()
            .map(|t| format!("{t:.3e}"))
            .collect::<Vec<_>>()
    );
    for r in &outcome.rebuilds {
        println!(
            "rebuilt at {} pages with {} new targets: documents per layer {:?}",
            r.at_pages, r.new_targets, r.layer_sizes
        );
    }
    if plan.backlink_requests > 0 {
        println!(
            "backlink expansion: {} requests (budget {}), {} parents returned",
            outcome.summary.backlink_requests,
            plan.backlink_requests,
            outcome.summary.backlink_parents
        );
    }
    println!("outputs in {}", plan.crawl.out.display());
    Ok(())
}
