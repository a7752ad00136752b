//! Reproduction of the 1999 papers' experiments on the websim
//! (`cargo xtask repro chakrabarti`): Figures 3–5 (unfocused, hard and soft
//! crawls on a cooperative and a competitive topic), Figures 6–7 (URL and
//! server overlap of two soft crawls from disjoint random halves of the
//! seeds), Figure 9 (link distance of the top authorities' hosts from the
//! seeds) and the VLDB paper's Figure 6 (coverage of a reference crawl by a
//! test crawl from a disjoint start set). Writes SVGs and a markdown report.
//!
//! Every crawl goes through [`focus_app::run`], exactly as the binaries do; the
//! figures are computed from the crawls' own outputs (`pages.jsonl`,
//! `authorities.tsv` and the store's link graph).
//!
//! This file holds the settings, the entry point and the helpers every part
//! shares; one topic's crawls and figures are `repro/topic.rs`, running a
//! crawl and reading its outputs `repro/crawls.rs`, coverage and link
//! distances `repro/measures.rs`, and the markdown `repro/report.rs`.

use std::path::PathBuf;

use focus_websim::{Web, WebConfig};

use crate::{input, write};
use focus_app::AppError;

mod crawls;
mod measures;
mod report;
mod topic;

use report::report;
use topic::topic;

/// Seeds drawn from the websim per topic; the two disjoint halves of the
/// overlap experiments take `SEEDS / 2` each.
const SEEDS: usize = 12;
/// Moving-average window of the harvest curves.
const WINDOW: usize = 100;
/// Points on the overlap and coverage curves.
const CURVE_STEP: usize = 100;
/// The VLDB paper's relevance threshold for the coverage experiment:
/// log R(u) > −1.
const COVERAGE_LOG_R: f64 = -1.0;

/// The two topics of the papers' robustness figures: cycling (a
/// cooperative community) and mutual funds (a competitive one).
const TOPICS: [(&str, &str); 2] = [
    ("recreation/outdoors/cycling", "cycling"),
    ("business/investment/mutual_funds", "mutual funds"),
];

/// Settings of one reproduction run.
#[derive(Debug, Clone)]
pub struct ReproConfig {
    /// Where SVGs and the report go (`docs/results`).
    pub out: PathBuf,
    /// Scratch directory for the crawls' own outputs.
    pub work: PathBuf,
    /// Pages per crawl.
    pub pages: u64,
    /// Seed of the websim and of every crawl.
    pub seed: u64,
    /// The replayed corpus, for the reproductions that also run on it
    /// (when it is there).
    pub corpus: Option<PathBuf>,
}

/// Runs every experiment and writes `chakrabarti.md` and the SVGs to
/// `cfg.out`. Returns the report.
pub async fn chakrabarti(cfg: &ReproConfig) -> Result<String, AppError> {
    std::fs::create_dir_all(&cfg.out).map_err(input)?;
    let web = Web::new(WebConfig::default(), cfg.seed).map_err(input)?;
    let mut results = Vec::new();
    for (path, label) in TOPICS {
        results.push(topic(cfg, &web, path, label).await?);
    }
    let md = report(cfg, &results);
    write(&cfg.out.join("chakrabarti.md"), &md)?;
    Ok(md)
}
