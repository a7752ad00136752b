//! The typed crawl plan: what a binary asked for, validated once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use focus_core::{
    defaults, ChildPriority, Crawler, Dispatch, Flow, Relevance, SoftOrder, Strategy,
};

use crate::args::{BaselineArg, CrawlArgs, DispatchArg, FlowArg, OrderArg, RelevanceArg};

/// Where the taxonomy, examples and seeds come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopicSource {
    /// Start the embedded websim on loopback and use its sampled examples
    /// and seed URLs. `good` empty means the crawler's default topic.
    Websim {
        /// Good topic paths of the websim taxonomy.
        good: Vec<String>,
        /// Seed URLs to use instead of the websim's own (`--seeds`).
        seeds: Option<PathBuf>,
        /// Pages of the web instead of the default web's (`--websim-pages`).
        pages: Option<u32>,
        /// Percentage of cross-host content links that are dead
        /// (`--websim-dead-links`; default none).
        dead_links: Option<u8>,
        /// Percentage of pages broken on otherwise healthy hosts
        /// (`--websim-page-faults`; default none).
        page_faults: Option<u8>,
        /// Median delay of the websim's answers in milliseconds, as servers
        /// across the internet (`--websim-latency`; default none).
        latency_ms: Option<u64>,
    },
    /// Replay a recorded, labelled corpus on loopback (`--corpus`) and
    /// crawl it; its ground truth is wired in for evaluation only.
    Corpus {
        /// The corpus folder.
        dir: PathBuf,
        /// Good topics: paths of the corpus's taxonomy (or its own
        /// category names); at least one.
        good: Vec<String>,
        /// An example set to train on instead of pages sampled from the
        /// corpus (`--examples`).
        examples: Option<PathBuf>,
        /// Seed URLs instead of the corpus's own (`--seeds`).
        seeds: Option<PathBuf>,
    },
    /// A user's example set and seed list.
    Examples {
        /// The example-set folder.
        dir: PathBuf,
        /// Good topic paths (at least one).
        good: Vec<String>,
        /// The seed URL file.
        seeds: PathBuf,
    },
}

impl TopicSource {
    /// The embedded default websim, its own seeds and no faults, with these
    /// good topic paths (empty: the crawler's default topic).
    pub fn websim(good: Vec<String>) -> Self {
        TopicSource::Websim {
            good,
            seeds: None,
            pages: None,
            dead_links: None,
            page_faults: None,
            latency_ms: None,
        }
    }

    /// The good topics as named (a websim's empty list: its default).
    pub fn good(&self) -> &[String] {
        match self {
            TopicSource::Websim { good, .. }
            | TopicSource::Corpus { good, .. }
            | TopicSource::Examples { good, .. } => good,
        }
    }

    /// The seed URL file, if one was given.
    pub fn seeds_file(&self) -> Option<&Path> {
        match self {
            TopicSource::Websim { seeds, .. } | TopicSource::Corpus { seeds, .. } => {
                seeds.as_deref()
            }
            TopicSource::Examples { seeds, .. } => Some(seeds),
        }
    }
}

/// Fetch attempts of a crawl unless `--max-pages` says otherwise.
pub const DEFAULT_MAX_PAGES: u64 = defaults::MAX_PAGES;

/// URLs fetched at once unless `--concurrency` says otherwise.
pub const DEFAULT_CONCURRENCY: usize = defaults::BATCH;

/// Pages between two distillations unless `--distill-every` says otherwise.
pub const DEFAULT_DISTILL_EVERY: u64 = defaults::DISTILL_EVERY;

/// Seed of every random choice unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = defaults::SEED;

/// A validated crawl plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlPlan {
    /// Taxonomy, examples and seeds.
    pub source: TopicSource,
    /// curl-style connect-to rules, still as text (the fetcher parses them).
    pub connect_to: Vec<String>,
    /// Plain HTTP to the connect-to targets, `https` URLs included.
    pub connect_plain: bool,
    /// Stop after this many fetch attempts.
    pub max_pages: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// URLs fetched at once (one batch; a host with a politeness interval
    /// gives at most one of them).
    pub concurrency: usize,
    /// Batches on the logical clock (reproducible) or a stream on the real
    /// clock (`--flow`).
    pub flow: Flow,
    /// Pages between two distillations.
    pub distill_every: u64,
    /// The crawler and its dispatch rule: the binary's own crawler, or
    /// the `--baseline`, with `--order`, `--child-priority`, `--dispatch`.
    pub strategy: Strategy,
    /// Queued URLs kept in memory before the frontier's cold tier takes
    /// the rest (`--frontier-memory`); `None`: all in memory.
    pub frontier_memory: Option<usize>,
    /// Attempts at one URL before a transient failure abandons it
    /// (`--max-tries`).
    pub max_tries: u32,
    /// Minimum time between two requests to one host (`--host-interval`);
    /// `None`: the source's own (1 s on the real web, none on a web served
    /// on this machine).
    pub host_interval: Option<Duration>,
    /// Connections at once to one host (`--host-connections`); `None`:
    /// the fetcher's own (2).
    pub host_connections: Option<usize>,
    /// Output directory.
    pub out: PathBuf,
    /// Seed of every random choice.
    pub seed: u64,
    /// Continue the stored crawl.
    pub resume: bool,
    /// Compact the store when the crawl ends.
    pub compact_store: bool,
}

/// Flags that do not make a crawl.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// `--examples` without `--seeds`.
    #[error("--examples needs --seeds FILE: a focused crawl starts from seed URLs")]
    ExamplesWithoutSeeds,
    /// `--examples` without any `--good`.
    #[error("--examples needs at least one --good PATH naming a topic folder")]
    ExamplesWithoutGood,
    /// `--corpus` without any `--good`.
    #[error("--corpus needs at least one --good TOPIC (a category of the corpus; `websim --corpus PATH stats` lists the largest)")]
    CorpusWithoutGood,
    /// `--max-pages 0`.
    #[error("--max-pages must be at least 1")]
    NoPages,
    /// `--concurrency 0`.
    #[error("--concurrency must be at least 1")]
    NoConcurrency,
    /// `--distill-every 0`.
    #[error("--distill-every must be at least 1")]
    NoDistillInterval,
    /// `--max-tries 0`.
    #[error("--max-tries must be at least 1")]
    NoTries,
    /// `--host-connections 0`.
    #[error("--host-connections must be at least 1")]
    NoHostConnections,
    /// A soft-focus rule for a crawler that is not soft focus.
    #[error("{flag} is a soft-focus rule; this crawl is {crawler}")]
    SoftFocusOnly {
        /// The flag.
        flag: &'static str,
        /// What the crawl is instead.
        crawler: &'static str,
    },
    /// A soft-focus child priority BINGO! does not have.
    #[error("BINGO! takes --child-priority apprentice or paper, not {0}")]
    BingoPriority(&'static str),
}

impl CrawlPlan {
    /// A plan with every setting at its default (the same defaults as the
    /// flags): soft focus, [`DEFAULT_MAX_PAGES`],
    /// [`DEFAULT_CONCURRENCY`], [`DEFAULT_DISTILL_EVERY`], seed 1, the
    /// frontier in memory. Programs that build plans (reproductions,
    /// evaluations, tests) start here and change what they need.
    pub fn new(source: TopicSource, out: PathBuf) -> Self {
        Self {
            source,
            connect_to: Vec::new(),
            connect_plain: false,
            max_pages: DEFAULT_MAX_PAGES,
            time_limit: None,
            concurrency: DEFAULT_CONCURRENCY,
            flow: Flow::Batches,
            distill_every: DEFAULT_DISTILL_EVERY,
            strategy: Strategy::of(Crawler::SOFT),
            frontier_memory: None,
            max_tries: defaults::MAX_TRIES,
            host_interval: None,
            host_connections: None,
            out,
            seed: DEFAULT_SEED,
            resume: false,
            compact_store: false,
        }
    }

    pub(crate) fn from_args(a: &CrawlArgs, own: Crawler) -> Result<Self, PlanError> {
        if a.max_pages == 0 {
            return Err(PlanError::NoPages);
        }
        if a.concurrency == 0 {
            return Err(PlanError::NoConcurrency);
        }
        if a.distill_every == 0 {
            return Err(PlanError::NoDistillInterval);
        }
        if a.host_connections == Some(0) {
            return Err(PlanError::NoHostConnections);
        }
        if a.max_tries == 0 {
            return Err(PlanError::NoTries);
        }
        let source = match (&a.corpus, &a.examples, &a.seeds) {
            (Some(dir), examples, seeds) => {
                // Collection synthesis picks its own topics of a corpus.
                if a.good.is_empty() && own != Crawler::Collections {
                    return Err(PlanError::CorpusWithoutGood);
                }
                TopicSource::Corpus {
                    dir: dir.clone(),
                    good: a.good.clone(),
                    examples: examples.clone(),
                    seeds: seeds.clone(),
                }
            }
            (None, Some(dir), Some(seeds)) => {
                if a.good.is_empty() {
                    return Err(PlanError::ExamplesWithoutGood);
                }
                TopicSource::Examples {
                    dir: dir.clone(),
                    good: a.good.clone(),
                    seeds: seeds.clone(),
                }
            }
            (None, Some(_), None) => return Err(PlanError::ExamplesWithoutSeeds),
            (None, None, seeds) => TopicSource::Websim {
                good: a.good.clone(),
                seeds: seeds.clone(),
                pages: a.websim_pages,
                dead_links: a.websim_dead_links,
                page_faults: a.websim_page_faults,
                latency_ms: a.websim_latency,
            },
        };
        let strategy = strategy(a, own)?;
        Ok(Self {
            source,
            connect_to: a.connect_to.clone(),
            connect_plain: a.connect_plain,
            max_pages: a.max_pages,
            time_limit: a.time_limit,
            concurrency: a.concurrency,
            flow: match a.flow {
                FlowArg::Batches => Flow::Batches,
                FlowArg::Stream => Flow::Stream,
            },
            distill_every: a.distill_every,
            strategy,
            frontier_memory: a.frontier_memory,
            max_tries: a.max_tries,
            host_interval: a.host_interval,
            host_connections: a.host_connections,
            out: a.out.clone(),
            seed: a.seed,
            resume: a.resume,
            compact_store: a.compact_store,
        })
    }
}

/// The strategy the flags choose for a binary whose crawler is `own`.
fn strategy(a: &CrawlArgs, own: Crawler) -> Result<Strategy, PlanError> {
    let crawler = match a.baseline {
        Some(BaselineArg::Bfs) => Crawler::BreadthFirst,
        Some(BaselineArg::Random) => Crawler::Random,
        None => own,
    };
    let crawler = match crawler {
        Crawler::Soft { order, priority } => Crawler::Soft {
            order: match a.order {
                Some(OrderArg::Vldb) => SoftOrder::Vldb,
                Some(OrderArg::Www) => SoftOrder::Www,
                None => order,
            },
            priority: a.child_priority.map_or(priority, ChildPriority::from),
        },
        Crawler::Bingo { .. } if a.order.is_some() => {
            return Err(PlanError::SoftFocusOnly {
                flag: "--order",
                crawler: "BINGO!",
            })
        }
        Crawler::Bingo { priority } => match a.child_priority.map_or(priority, ChildPriority::from)
        {
            ChildPriority::Learnt => return Err(PlanError::BingoPriority("learnt")),
            ChildPriority::LinkKinds => return Err(PlanError::BingoPriority("link-kinds")),
            ChildPriority::CentroidFloor => return Err(PlanError::BingoPriority("centroid-floor")),
            priority => Crawler::Bingo { priority },
        },
        other => {
            let name = match other {
                Crawler::Hard => "hard focus",
                Crawler::BreadthFirst => "the breadth-first baseline",
                Crawler::Random => "the random baseline",
                _ => "not soft focus",
            };
            let misplaced = [
                ("--order", a.order.is_some()),
                ("--child-priority", a.child_priority.is_some()),
            ];
            if let Some((flag, _)) = misplaced.into_iter().find(|(_, given)| *given) {
                return Err(PlanError::SoftFocusOnly {
                    flag,
                    crawler: name,
                });
            }
            other
        }
    };
    let dispatch = match a.dispatch {
        DispatchArg::Promising => Dispatch::Promising,
        DispatchArg::Fill => Dispatch::Fill,
    };
    let relevance = match a.relevance {
        RelevanceArg::Tempered => Relevance::Tempered,
        RelevanceArg::Exact => Relevance::Exact,
    };
    Ok(Strategy {
        crawler,
        dispatch,
        relevance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        crawl: CrawlArgs,
    }

    fn plan(args: &[&str]) -> Result<CrawlPlan, PlanError> {
        let mut v = vec!["bin"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v).unwrap().crawl.plan(Crawler::SOFT)
    }

    #[test]
    fn no_arguments_means_the_embedded_websim() {
        let p = plan(&[]).unwrap();
        assert_eq!(p.source, TopicSource::websim(vec![]));
        assert_eq!(p.max_pages, 5000);
        assert_eq!(p.concurrency, 32);
        assert_eq!(p.distill_every, 1000);
        assert_eq!(p.strategy, Strategy::of(Crawler::SOFT));
        assert_eq!(p.flow, Flow::Batches, "reproducible unless asked");
    }

    #[test]
    fn a_stream_on_a_websim_with_latency() {
        let p = plan(&["--flow", "stream", "--websim-latency", "300"]).unwrap();
        assert_eq!(p.flow, Flow::Stream);
        assert!(matches!(
            p.source,
            TopicSource::Websim {
                latency_ms: Some(300),
                ..
            }
        ));
        assert_eq!(plan(&["--flow", "batches"]).unwrap().flow, Flow::Batches);
        assert!(Cli::try_parse_from(["bin", "--flow", "fast"]).is_err());
        assert!(
            Cli::try_parse_from(["bin", "--examples", "ex", "--websim-latency", "9"]).is_err(),
            "a user's own web has its own latency"
        );
    }

    #[test]
    fn a_users_web() {
        let p = plan(&[
            "--examples",
            "ex",
            "--good",
            "a/b",
            "--seeds",
            "s.txt",
            "--connect-to",
            "::127.0.0.1:8080",
            "--max-pages",
            "10",
            "--time-limit",
            "5m",
            "--concurrency",
            "4",
            "--distill-every",
            "250",
            "--dispatch",
            "fill",
            "--order",
            "www",
            "--child-priority",
            "paper",
            "--relevance",
            "exact",
            "--host-interval",
            "0s",
            "--host-connections",
            "8",
        ])
        .unwrap();
        assert_eq!(p.host_interval, Some(Duration::ZERO));
        assert_eq!(p.host_connections, Some(8));
        assert!(matches!(p.source, TopicSource::Examples { ref good, .. } if good == &["a/b"]));
        assert_eq!(p.time_limit, Some(Duration::from_secs(300)));
        assert_eq!(p.concurrency, 4);
        assert_eq!(p.distill_every, 250);
        assert_eq!(
            p.strategy,
            Strategy {
                crawler: Crawler::Soft {
                    order: SoftOrder::Www,
                    priority: ChildPriority::Paper
                },
                dispatch: Dispatch::Fill,
                relevance: Relevance::Exact,
            }
        );
        assert_eq!(p.connect_to, ["::127.0.0.1:8080"]);
        assert!(!p.connect_plain);
    }

    #[test]
    fn connect_plain_needs_a_connect_to_rule() {
        assert!(Cli::try_parse_from(["bin", "--connect-plain"]).is_err());
        let p = plan(&["--connect-to", "::127.0.0.1:8080", "--connect-plain"]).unwrap();
        assert!(p.connect_plain);
    }

    #[test]
    fn inconsistent_flags_are_clear_errors() {
        assert_eq!(
            plan(&["--host-connections", "0"]),
            Err(PlanError::NoHostConnections)
        );
        assert_eq!(
            plan(&["--examples", "ex", "--good", "a"]),
            Err(PlanError::ExamplesWithoutSeeds)
        );
        assert_eq!(
            plan(&["--examples", "ex", "--seeds", "s"]),
            Err(PlanError::ExamplesWithoutGood)
        );
        assert!(matches!(
            plan(&["--seeds", "s"]).unwrap().source,
            TopicSource::Websim { seeds: Some(_), .. }
        ));
        assert!(matches!(
            plan(&["--websim-pages", "1000000"]).unwrap().source,
            TopicSource::Websim {
                pages: Some(1_000_000),
                ..
            }
        ));
        assert!(Cli::try_parse_from(["bin", "--examples", "ex", "--websim-pages", "9"]).is_err());
        assert_eq!(plan(&["--max-pages", "0"]), Err(PlanError::NoPages));
        assert_eq!(plan(&["--concurrency", "0"]), Err(PlanError::NoConcurrency));
        assert_eq!(
            plan(&["--distill-every", "0"]),
            Err(PlanError::NoDistillInterval)
        );
        assert!(Cli::try_parse_from(["bin", "--baseline", "depth-first"]).is_err());
        assert_eq!(
            plan(&["--baseline", "random", "--order", "www"]),
            Err(PlanError::SoftFocusOnly {
                flag: "--order",
                crawler: "the random baseline"
            })
        );
        assert_eq!(plan(&["--corpus", "c"]), Err(PlanError::CorpusWithoutGood));
        assert!(Cli::try_parse_from(["bin", "--corpus", "c", "--websim-pages", "9"]).is_err());
    }

    #[test]
    fn each_binary_chooses_its_crawler_and_flags_adjust_it() {
        let hard = |args: &[&str]| {
            let mut v = vec!["bin"];
            v.extend_from_slice(args);
            Cli::try_parse_from(v).unwrap().crawl.plan(Crawler::Hard)
        };
        assert_eq!(hard(&[]).unwrap().strategy, Strategy::of(Crawler::Hard));
        assert_eq!(
            hard(&["--baseline", "bfs", "--dispatch", "fill"])
                .unwrap()
                .strategy,
            Strategy {
                dispatch: Dispatch::Fill,
                ..Strategy::of(Crawler::BreadthFirst)
            }
        );
        assert_eq!(
            hard(&["--child-priority", "paper"]),
            Err(PlanError::SoftFocusOnly {
                flag: "--child-priority",
                crawler: "hard focus"
            })
        );
        let soft = plan(&["--child-priority", "paper"]).unwrap().strategy;
        assert_eq!(
            soft.crawler,
            Crawler::Soft {
                order: SoftOrder::Vldb,
                priority: ChildPriority::Paper
            }
        );
        let soft = |flags: &[&str]| plan(flags).unwrap().strategy.crawler;
        assert_eq!(soft(&[]), Crawler::SOFT);
        assert_eq!(
            Crawler::SOFT,
            Crawler::Soft {
                order: SoftOrder::Vldb,
                priority: ChildPriority::CentroidFloor
            },
            "the default rule floors the page's evidence at half its centroid cosine"
        );
        assert_eq!(
            soft(&["--child-priority", "apprentice"]),
            Crawler::Soft {
                order: SoftOrder::Vldb,
                priority: ChildPriority::Apprentice
            },
            "the previous default, by name"
        );
    }

    #[test]
    fn a_replayed_corpus() {
        let p = plan(&["--corpus", "wiki", "--good", "subject.Science"]).unwrap();
        assert_eq!(
            p.source,
            TopicSource::Corpus {
                dir: "wiki".into(),
                good: vec!["subject.Science".into()],
                examples: None,
                seeds: None
            }
        );
        let p = plan(&[
            "--corpus",
            "wiki",
            "--good",
            "a",
            "--examples",
            "ex",
            "--seeds",
            "s.txt",
        ])
        .unwrap();
        assert!(matches!(
            p.source,
            TopicSource::Corpus {
                examples: Some(_),
                seeds: Some(_),
                ..
            }
        ));
    }
}
