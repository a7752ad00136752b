//! The flags of the BINGO! crawler (`bingo`, Sizov et al. 2003) on top of
//! the shared crawl flags, its `search` subcommand, and their typed plans.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use focus_core::{Crawler, FeatureSpace};

use crate::args::CrawlArgs;
use crate::plan::{CrawlPlan, PlanError};

/// Fetch attempts of the learning phase (the rest of `--max-pages` goes to
/// harvesting).
pub const DEFAULT_LEARNING_PAGES: u64 = 1_000;
/// Candidates per topic from each archetype source: the top HITS
/// authorities and the top SVM confidences (N_auth = N_conf).
pub const DEFAULT_ARCHETYPES: usize = 25;
/// Far-away documents in the OTHERS class (the paper: "about 50").
pub const DEFAULT_OTHERS: usize = 50;
/// Off-topic pages a path may cross (the paper: 2).
pub const DEFAULT_MAX_TUNNEL: u8 = 2;
/// The feature spaces of `bingo` without `--spaces` (`docs/bingo.md` says
/// why `anchors` is not among them: measured, it changed little and
/// cost time).
pub const DEFAULT_SPACES: [FeatureSpace; 3] = [
    FeatureSpace::Terms,
    FeatureSpace::TermPairs,
    FeatureSpace::Neighbours,
];

/// Which archetype candidates become training pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Admit {
    /// Every candidate its topic's SVM accepts (confidence > 0): the
    /// paper's own portal experiment, which started from a handful of
    /// pages (§5.2: "we did not enforce the thresholding scheme").
    #[default]
    Positive,
    /// Candidates more confident than the topic's training pages on
    /// average (§3.2). The training pages' own confidences are inflated
    /// (the SVM was fitted to them), so from a few bookmarks this admits
    /// little or nothing.
    AboveMean,
}

/// Flags of `bingo`.
#[derive(Debug, Clone, Args)]
pub struct BingoArgs {
    /// The shared crawl flags. `--good` names the topics of the websim or
    /// the `--corpus` (repeatable); `--max-pages` counts both phases.
    #[command(flatten)]
    pub crawl: CrawlArgs,

    /// A browser's bookmarks file (Netscape bookmark HTML, as browsers
    /// export it): its folders are the topics, its bookmarks the training
    /// pages and the seeds. Crawls the web (or what `--connect-to` routes
    /// to); `--good` names the folders to crawl for (all by default).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["corpus", "examples"])]
    pub bookmarks: Option<PathBuf>,

    /// Fetch attempts of the learning phase.
    #[arg(long, default_value_t = DEFAULT_LEARNING_PAGES, value_name = "N")]
    pub learning_pages: u64,

    /// Archetype candidates per topic from each source (top authorities,
    /// top confidences).
    #[arg(long, default_value_t = DEFAULT_ARCHETYPES, value_name = "N")]
    pub archetypes: usize,

    /// Which candidates are admitted as archetypes.
    #[arg(long, value_enum, default_value_t = Admit::Positive, value_name = "RULE")]
    pub admit: Admit,

    /// Far-away documents in the OTHERS class.
    #[arg(long, default_value_t = DEFAULT_OTHERS, value_name = "N")]
    pub others: usize,

    /// Off-topic pages a path may cross (tunnelling).
    #[arg(long, default_value_t = DEFAULT_MAX_TUNNEL, value_name = "N")]
    pub max_tunnel: u8,

    /// Stop after the learning phase and write `archetypes.tsv` for the
    /// user to confirm (delete the lines of pages that are not archetypes);
    /// run again with `--resume` to retrain on what is left and harvest.
    #[arg(long)]
    pub review: bool,

    /// The feature spaces, one SVM tree each (comma-separated: `terms`,
    /// `pairs` (term pairs), `neighbours` (the anchor texts of the page's
    /// out-links), `anchors` (the page's terms with the anchor texts of the
    /// links to it that the crawl has seen: its predecessors' anchors));
    /// their meta vote is unanimous while learning and ξα-weighted while
    /// harvesting.
    #[arg(long, value_delimiter = ',', value_parser = parse_space, default_value = "terms,pairs,neighbours", value_name = "LIST")]
    pub spaces: Vec<FeatureSpace>,

    /// Harvest with the single feature space whose SVMs have the best ξα
    /// precision estimate instead of the meta vote (the paper's choice
    /// "when the crawler's run-time is critical"; learning always votes).
    #[arg(long)]
    pub single_space: bool,
}

fn parse_space(name: &str) -> Result<FeatureSpace, String> {
    FeatureSpace::parse(name).ok_or_else(|| {
        let names: Vec<&str> = FeatureSpace::ALL.iter().map(|s| s.name()).collect();
        format!(
            "unknown feature space {name:?} (one of {})",
            names.join(", ")
        )
    })
}

/// A validated BINGO! plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BingoPlan {
    /// The shared crawl plan (`max_pages` counts both phases).
    pub crawl: CrawlPlan,
    /// The bookmarks file, when the topics come from one.
    pub bookmarks: Option<PathBuf>,
    /// Learning-phase fetch attempts.
    pub learning_pages: u64,
    /// Archetype candidates per source and topic.
    pub archetypes: usize,
    /// Which candidates are admitted.
    pub admit: Admit,
    /// OTHERS documents.
    pub others: usize,
    /// Tunnelling distance.
    pub max_tunnel: u8,
    /// Stop for the user's review after learning.
    pub review: bool,
    /// Feature spaces, one SVM tree each (terms always among them).
    pub spaces: Vec<FeatureSpace>,
    /// Harvest with the best space alone.
    pub single_space: bool,
}

impl BingoPlan {
    /// The defaults of the flags around `crawl`, with `learning_pages` of
    /// its budget for the learning phase.
    pub fn new(crawl: CrawlPlan, learning_pages: u64) -> Self {
        Self {
            crawl,
            bookmarks: None,
            learning_pages,
            archetypes: DEFAULT_ARCHETYPES,
            admit: Admit::default(),
            others: DEFAULT_OTHERS,
            max_tunnel: DEFAULT_MAX_TUNNEL,
            review: false,
            spaces: DEFAULT_SPACES.to_vec(),
            single_space: false,
        }
    }
}

/// BINGO! flags that do not make a crawl.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BingoPlanError {
    /// A shared flag is wrong.
    #[error(transparent)]
    Crawl(#[from] PlanError),
    /// The learning phase would use the whole budget.
    #[error("--learning-pages ({learning}) must be below --max-pages ({max}): the harvesting phase needs pages too")]
    NoHarvest {
        /// `--learning-pages`.
        learning: u64,
        /// `--max-pages`.
        max: u64,
    },
    /// A count of 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
}

impl BingoArgs {
    /// Validates the flags into a plan.
    pub fn plan(&self) -> Result<BingoPlan, BingoPlanError> {
        for (flag, n) in [
            ("--learning-pages", self.learning_pages),
            ("--archetypes", self.archetypes as u64),
        ] {
            if n == 0 {
                return Err(BingoPlanError::Zero(flag));
            }
        }
        let crawl = self.crawl.plan(Crawler::BINGO)?;
        if self.learning_pages >= crawl.max_pages {
            return Err(BingoPlanError::NoHarvest {
                learning: self.learning_pages,
                max: crawl.max_pages,
            });
        }
        Ok(BingoPlan {
            crawl,
            bookmarks: self.bookmarks.clone(),
            learning_pages: self.learning_pages,
            archetypes: self.archetypes,
            admit: self.admit,
            others: self.others,
            max_tunnel: self.max_tunnel,
            review: self.review,
            spaces: with_terms(&self.spaces),
            single_space: self.single_space,
        })
    }
}

/// The spaces listed, without repeats, terms first (every tree needs the
/// page's own words).
fn with_terms(list: &[FeatureSpace]) -> Vec<FeatureSpace> {
    let mut v = vec![FeatureSpace::Terms];
    for &s in list {
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v
}

/// Flags of `bingo search`: a query over a finished crawl's local index.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The crawl's output directory (its `index/`).
    #[arg(long, default_value = "focus-out", value_name = "DIR")]
    pub out: PathBuf,
    /// Only pages of this topic (a topic path) and its subtopics.
    #[arg(long, value_name = "PATH")]
    pub topic: Option<String>,
    /// Ranking: `text` (BM25), `confidence`, `authority`, `combined` or
    /// `combined:TEXT,CONFIDENCE,AUTHORITY` (weights).
    #[arg(long, default_value = "combined", value_name = "RANKING")]
    pub rank: String,
    /// Results shown.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub limit: usize,
    /// Group the results of `--topic` into clusters labelled by their
    /// characteristic terms (k-means, k chosen by cluster impurity).
    #[arg(long)]
    pub cluster: bool,
    /// The query.
    pub query: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: BingoArgs,
    }

    fn plan(args: &[&str]) -> Result<BingoPlan, BingoPlanError> {
        let mut v = vec!["bingo"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v).unwrap().args.plan()
    }

    #[test]
    fn the_papers_settings_but_the_harvests_priority_by_default_and_a_budget_for_both_phases() {
        let p = plan(&[]).unwrap();
        assert_eq!(p.crawl.strategy.crawler, Crawler::BINGO);
        assert_eq!(
            (p.learning_pages, p.archetypes, p.others, p.max_tunnel),
            (1_000, 25, 50, 2)
        );
        assert!(!p.review && p.bookmarks.is_none());
        assert_eq!(p.admit, Admit::Positive);
        assert_eq!(p.spaces, DEFAULT_SPACES);
        let by_code = BingoPlan::new(p.crawl.clone(), p.learning_pages);
        assert_eq!(by_code.spaces, p.spaces, "the flag's default is the plan's");
        assert!(!p.single_space);
        // Terms are always a space; a repeat counts once.
        assert_eq!(
            plan(&["--spaces", "pairs,pairs"]).unwrap().spaces,
            [FeatureSpace::Terms, FeatureSpace::TermPairs]
        );
        assert!(Cli::try_parse_from(["bingo", "--spaces", "colours"]).is_err());
        assert_eq!(
            BingoPlan::new(p.crawl.clone(), 1_000),
            p,
            "the flags' defaults"
        );
        assert_eq!(
            plan(&["--admit", "above-mean"]).unwrap().admit,
            Admit::AboveMean
        );
        assert_eq!(
            plan(&["--max-pages", "800"]),
            Err(BingoPlanError::NoHarvest {
                learning: 1_000,
                max: 800
            })
        );
        assert_eq!(
            plan(&["--archetypes", "0"]),
            Err(BingoPlanError::Zero("--archetypes"))
        );
        let b = plan(&["--bookmarks", "b.html", "--review"]).unwrap();
        assert_eq!(b.bookmarks, Some(PathBuf::from("b.html")));
        assert!(b.review);
    }

    #[test]
    fn the_harvest_takes_the_apprentice_or_the_papers_priority() {
        use focus_core::ChildPriority;
        let p = plan(&[]).unwrap();
        assert_eq!(
            p.crawl.strategy.crawler,
            Crawler::Bingo {
                priority: ChildPriority::Apprentice
            }
        );
        let paper = plan(&["--child-priority", "paper"]).unwrap();
        assert_eq!(paper.crawl.strategy.crawler, Crawler::BINGO_PAPER);
        assert_eq!(
            plan(&["--child-priority", "apprentice"]).unwrap(),
            p,
            "the default, named"
        );
        for (flags, wrong) in [
            (["--child-priority", "learnt"], "learnt"),
            (["--child-priority", "link-kinds"], "link-kinds"),
            (["--child-priority", "centroid-floor"], "centroid-floor"),
        ] {
            assert_eq!(
                plan(&flags),
                Err(BingoPlanError::Crawl(PlanError::BingoPriority(wrong)))
            );
        }
        assert!(matches!(
            plan(&["--order", "www"]),
            Err(BingoPlanError::Crawl(PlanError::SoftFocusOnly {
                flag: "--order",
                ..
            }))
        ));
        // The baselines still refuse a child priority.
        assert!(plan(&["--baseline", "bfs", "--child-priority", "paper"]).is_err());
    }
}
