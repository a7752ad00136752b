//! `collection-synth`: Bergmark's collection synthesis (2002). With no
//! arguments it starts the embedded websim on loopback, asks its search
//! service for the top 7 pages of each of eight topics, builds one TF-IDF
//! centroid of 20 terms per topic, prints the centroids' quality report,
//! crawls 5,000 pages following only the links of pages correlating 0.3 or
//! more with their closest centroid, and prints each collection's size and
//! precision at 10, 50 and 100 against the websim's truth. `--corpus PATH`
//! does the same on a replayed corpus (its 10 largest categories unless
//! `--good` names others); `--topics FILE` gives the topics and their
//! queries or seed URLs, on any web with `--web`. Flags: see `--help`.
//! No logic here: flags become a plan in `focus-cli`, the plan runs in
//! `focus-app`.

use clap::Parser;
use focus_cli::CollectionArgs;

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Bergmark's collection synthesis: many topical collections in one crawl.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    args: CollectionArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    focus_app::init_logging("info");
    let plan = Cli::parse().args.plan()?;
    let outcome = focus_app::run_collections(&plan).await?;
    println!("{}", serde_json::to_string_pretty(&outcome.summary)?);
    println!(
        "\n{} collections, idf from {}, threshold {}:\n",
        outcome.report.collections.len(),
        outcome.report.idf,
        outcome.report.threshold
    );
    print!("{}", focus_app::collections_table(&outcome.report));
    println!(
        "\noutputs in {} (collections/<topic>.tsv, collections.json, collections.svg)",
        plan.crawl.out.display()
    );
    Ok(())
}
