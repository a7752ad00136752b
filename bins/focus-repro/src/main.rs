//! `focus-repro`: runs a paper's experiments on the embedded websim and
//! writes SVGs and a markdown report (`cargo xtask repro chakrabarti` calls
//! it with `--release`). No logic here: the experiments live in
//! `focus_app::repro`.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// The papers whose experiments can be reproduced.
#[derive(Clone, Copy, ValueEnum)]
enum Paper {
    /// Chakrabarti et al. 1999 (WWW8 Figures 3–7 and 9, VLDB Figure 6).
    Chakrabarti,
}

/// Reproduces a paper's experiments on the websim.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Which paper.
    paper: Paper,
    /// Where the report and SVGs go.
    #[arg(long, default_value = "docs/results")]
    out: PathBuf,
    /// Scratch directory for the crawls' outputs.
    #[arg(long, default_value = "target/repro")]
    work: PathBuf,
    /// Pages per crawl.
    #[arg(long, default_value_t = 5000)]
    pages: u64,
    /// Seed of the websim and of every crawl.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let cfg = focus_app::repro::ReproConfig {
        out: cli.out,
        work: cli.work,
        pages: cli.pages,
        seed: cli.seed,
    };
    let report = match cli.paper {
        Paper::Chakrabarti => focus_app::repro::chakrabarti(&cfg).await?,
    };
    println!("{report}");
    println!("written to {}", cfg.out.display());
    Ok(())
}
