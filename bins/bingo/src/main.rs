//! `bingo`: the BINGO! focused crawler (Sizov et al. 2003). With no
//! arguments it starts the embedded websim on loopback, takes 10 sampled
//! pages of `recreation/outdoors` as the user's bookmarks and 50 pages of
//! the other top-level categories as OTHERS, trains an SVM per topic, runs
//! the learning phase (1,000 pages: sharp focus, depth first, on the
//! bookmarks' domains), admits archetypes (top authorities and top
//! confidences above the training pages' mean), retrains, runs the
//! harvesting phase (soft focus, best first, tunnelling) for the rest of
//! `--max-pages`, and indexes every kept page for `bingo search`.
//! `--bookmarks FILE` starts from a browser's bookmarks (folders = topics,
//! one named `others` for far-away pages), `--corpus PATH --good TOPIC`
//! from a replayed corpus, `--review` stops for the user to confirm the
//! archetypes. `bingo search --out DIR QUERY` queries a finished crawl.
//! No logic here: flags become a plan in `focus-cli`, the plan runs in
//! `focus-app`.

use clap::{Parser, Subcommand};
use focus_cli::{BingoArgs, SearchArgs};

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The BINGO! focused crawler and its local search.
#[derive(Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    args: BingoArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Query the local search index of a finished crawl.
    Search(SearchArgs),
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Some(Command::Search(args)) = cli.command {
        return search(&args);
    }
    focus_app::init_logging("info");
    let plan = cli.args.plan()?;
    let outcome = focus_app::run_bingo(&plan).await?;
    let harvest = |s: &focus_app::Summary| {
        format!(
            "{} pages, true harvest {}, estimated harvest {:.3}",
            s.pages_fetched,
            s.harvest_rate_true
                .map_or_else(|| "unknown".to_owned(), |h| format!("{h:.3}")),
            s.harvest_rate_estimated
        )
    };
    println!("learning phase: {}", harvest(&outcome.learning));
    println!("archetypes (topic, confidence, source, admitted):");
    for a in &outcome.archetypes {
        let source = match (a.by_authority, a.by_confidence) {
            (true, true) => "authority+confidence",
            (true, false) => "authority",
            _ => "confidence",
        };
        println!(
            "  {}\t{:+.3}\t{source}\t{}\t{}",
            a.topic,
            a.confidence,
            if a.admitted {
                "admitted"
            } else {
                "not admitted"
            },
            a.url
        );
    }
    for (topic, before, after) in &outcome.training {
        println!("training pages of {topic}: {before} -> {after}");
    }
    match &outcome.harvesting {
        Some(s) => {
            println!("harvesting phase: {}", harvest(s));
            for (space, p) in &outcome.spaces {
                println!("feature space {space}: xi-alpha precision {p:.3}");
            }
            for (topic, p) in &outcome.precision {
                println!("xi-alpha precision estimate of {topic}: {p:.3}");
            }
            println!(
                "{} pages indexed: bingo search --out {} \"QUERY\"",
                outcome.indexed,
                plan.crawl.out.display()
            );
        }
        None => println!(
            "stopped for review: edit {}/archetypes.tsv, then run again with --resume",
            plan.crawl.out.display()
        ),
    }
    Ok(())
}

fn search(args: &SearchArgs) -> anyhow::Result<()> {
    let found = focus_app::search_crawl(args)?;
    for (i, h) in found.hits.iter().enumerate() {
        println!(
            "{:>3}. {:.4}  [{}]  {}  {}",
            i + 1,
            h.score,
            h.topic.as_deref().unwrap_or("-"),
            h.url,
            h.title
        );
    }
    println!("{} results in {:.1} ms", found.hits.len(), found.query_ms);
    if let Some(clusters) = &found.clusters {
        println!("{} clusters:", clusters.len());
        for c in clusters {
            println!("  [{}] {} pages", c.label.join(", "), c.urls.len());
        }
    }
    Ok(())
}
