//! The raw flags, as clap sees them. Binaries `#[command(flatten)]` this
//! struct and call [`CrawlArgs::plan`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use focus_core::{defaults, ChildPriority, Crawler};

use crate::plan::{
    CrawlPlan, PlanError, DEFAULT_CONCURRENCY, DEFAULT_DISTILL_EVERY, DEFAULT_MAX_PAGES,
    DEFAULT_SEED,
};

/// Flags every focused crawler accepts.
#[derive(Debug, Clone, Default, Args)]
pub struct CrawlArgs {
    /// Example-set folder: each sub-folder is a topic holding example pages
    /// (.html/.txt) and/or a urls.txt. Without it, the embedded websim (or
    /// the `--corpus`) is started and its sampled examples are used.
    #[arg(long, value_name = "DIR")]
    pub examples: Option<PathBuf>,
    /// Crawl a recorded, labelled corpus replayed on loopback instead of
    /// the embedded websim: the Wikispeedia folder or a folder of .html
    /// files with a labels.tsv (docs/websim.md). Needs `--good`; examples
    /// and seeds are sampled from it unless `--examples`/`--seeds` say
    /// otherwise.
    #[arg(long, value_name = "PATH", conflicts_with = "websim_pages")]
    pub corpus: Option<PathBuf>,

    /// A good topic, as a path of the example set (repeatable). On the
    /// embedded websim the default is `recreation/outdoors`.
    #[arg(long = "good", value_name = "PATH")]
    pub good: Vec<String>,

    /// Seed URLs, one per line (`#` comments allowed). Required with
    /// `--examples`; on the websim it replaces the websim's own seeds.
    #[arg(long, value_name = "FILE")]
    pub seeds: Option<PathBuf>,

    /// Send connections for HOST1:PORT1 to HOST2:PORT2 (curl syntax; an
    /// empty HOST1 or PORT1 matches any). Repeatable.
    #[arg(long = "connect-to", value_name = "HOST1:PORT1:HOST2:PORT2")]
    pub connect_to: Vec<String>,

    /// Speak plain HTTP to every --connect-to target, `https` URLs
    /// included (their scheme is kept): for a server on this machine that
    /// terminates no TLS, such as `websim serve --corpus` replaying a
    /// mirror whose pages link with absolute `https://` URLs.
    #[arg(long, requires = "connect_to")]
    pub connect_plain: bool,

    /// Stop after this many fetch attempts.
    #[arg(long, default_value_t = DEFAULT_MAX_PAGES, value_name = "N")]
    pub max_pages: u64,

    /// Stop after this long (e.g. `90s`, `10m`, `2h`).
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub time_limit: Option<Duration>,

    /// URLs fetched at once (one batch). A host with a politeness interval
    /// (robots.txt Crawl-delay, or any interval on the real web) gives at
    /// most one URL per batch, so when the best URLs sit on few such hosts,
    /// fewer keeps the crawl closer to its priority order and more fetches
    /// faster.
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY, value_name = "N")]
    pub concurrency: usize,

    /// How fetches keep going: `batches` (default) pops a batch of
    /// `--concurrency` URLs, applies its pages in the order they were popped
    /// and pops the next batch when the last one is applied, on a logical
    /// clock, so the same seed gives the same crawl page for page; `stream`
    /// pops a URL whenever one of the `--concurrency` slots is free and
    /// applies each page as it arrives, on the real clock, so one slow
    /// server holds only its own slot (faster on the real web, where a
    /// batch of 32 often waits for one slow server; the order then depends
    /// on how fetches interleave).
    #[arg(long, value_enum, default_value_t = FlowArg::Batches, value_name = "FLOW")]
    pub flow: FlowArg,

    /// Run the distiller (relevance-weighted HITS over the crawled graph)
    /// every N pages and raise the unvisited citations of its top hubs to
    /// the highest priority; past 10 N pages, whenever the crawl has grown
    /// by a tenth (a distillation costs in proportion to the graph).
    /// Ignored by the baselines.
    #[arg(long, default_value_t = DEFAULT_DISTILL_EVERY, value_name = "N")]
    pub distill_every: u64,

    /// Which URLs fill a batch: `promising` (default) fetches only URLs at
    /// least as promising as the crawl's recent harvest while there are
    /// any, waiting for their hosts (a politeness interval, or every
    /// connection to the host busy) instead of spending fetches on worse
    /// ones; `fill` fills every batch with the
    /// best ready URLs however poor they are (throughput first).
    #[arg(long, value_enum, default_value_t = DispatchArg::Promising, value_name = "RULE")]
    pub dispatch: DispatchArg,

    /// Soft focus's order among URLs of equal relevance: `vldb` (default),
    /// the VLDB 1999 paper's `serverload` key (hosts fetched least first),
    /// or `www`, the WWW 1999 paper's first come first served. An error
    /// with hard focus or a baseline.
    #[arg(long, value_enum, value_name = "ORDER")]
    pub order: Option<OrderArg>,

    /// Soft focus's priority for a page's outlinks: `centroid-floor`
    /// (default), `apprentice` with the page's evidence floored at half its
    /// TF-IDF centroid cosine to the good topics, so an off-topic page that
    /// reads like the topic passes more on to its links; `apprentice`,
    /// `learnt` blended with an online link model (anchor text, words
    /// around the link, URL words, the page's relevance and class, the
    /// link's host relation) trained on what the crawl's fetched pages
    /// turned out to be, and each page's queued links re-scored as its
    /// fetched children are judged; `learnt`, the page's relevance scaled by what
    /// links of the same kind (same site or cross site) from relevant pages
    /// have yielded so far, relative to the better kind, and by how the
    /// link's host has answered; `link-kinds`, the same without the host
    /// answers; or `paper`, the page's relevance, as both 1999 papers give
    /// it. BINGO! takes `apprentice` (default: the link model and host
    /// health joined to its harvest's confidence order, its SVMs giving the
    /// pages they reject a calibrated relevance below ½) or `paper`. An
    /// error with hard focus or a baseline.
    #[arg(long, value_enum, value_name = "RULE")]
    pub child_priority: Option<ChildPriorityArg>,

    /// How a page's relevance R is computed: `tempered` (default), naive
    /// Bayes with its word evidence weighted by a length-dependent factor
    /// fitted on the examples, so R ranks real pages and is calibrated; or
    /// `exact`, the 1999 papers' posterior (on real pages 0 or 1 to many
    /// decimal places).
    #[arg(long, value_enum, default_value_t = RelevanceArg::Tempered, value_name = "RULE")]
    pub relevance: RelevanceArg,

    /// Run a baseline instead of the crawler's own focus, classifying pages
    /// only to measure them: `bfs` (breadth-first) or `random` (the 1999
    /// papers' "unfocused" crawl, in seeded random order).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub baseline: Option<BaselineArg>,

    /// Size of the embedded websim in pages (default: its default web of
    /// 200,000). A bigger web of the same model has proportionally bigger
    /// topics, so a long crawl does not run out of its topic.
    #[arg(long, value_name = "N", conflicts_with = "examples")]
    pub websim_pages: Option<u32>,

    /// Make this percentage of the embedded websim's cross-host content
    /// links dead, as on the real web: half 404 on a live host, half to a
    /// host that no longer exists (docs/websim.md). Default: none.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100), conflicts_with = "examples")]
    pub websim_dead_links: Option<u8>,

    /// Break this percentage of the embedded websim's regular pages (home
    /// pages excepted) on hosts that are otherwise fine: each answers 500,
    /// 503 with Retry-After, trickles and stalls, or resets the connection,
    /// every time (docs/websim.md). Default: none.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100), conflicts_with = "examples")]
    pub websim_page_faults: Option<u8>,

    /// Answer the embedded websim's requests after a delay, as servers
    /// across the internet do: log-normal, this median in milliseconds,
    /// sigma 1 (half of it, in variance, the host's own median, half the
    /// page's), the same delay for a URL every run; the crawl then waits
    /// as on the real web (its timeouts: 20 s to the first byte). Default:
    /// none (loopback speed).
    #[arg(long, value_name = "MS", conflicts_with = "examples")]
    pub websim_latency: Option<u64>,

    /// Queued URLs kept in memory: beyond N the frontier files URLs in its
    /// disk-backed cold tier under `--out` (for crawls whose frontier
    /// outgrows memory; the crawl's order is the same). Default: all in
    /// memory.
    #[arg(long, value_name = "N")]
    pub frontier_memory: Option<usize>,

    /// Attempts at one URL: a transient failure (5xx, 429, a timeout, a
    /// refused or broken connection) puts the URL back in the frontier, to
    /// be tried again after fresh URLs, until N attempts have failed;
    /// `summary.json` counts abandoned URLs by cause.
    #[arg(long, default_value_t = defaults::MAX_TRIES, value_name = "N")]
    pub max_tries: u32,

    /// Minimum time between two requests to one host (e.g. `500ms`, `2s`;
    /// robots.txt `Crawl-delay` can only raise it). Default: 1 s on the
    /// web, none on a web served on this machine (the websim, `--corpus`).
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub host_interval: Option<Duration>,
    /// Connections open at once to one host (default 2; its registered
    /// domain may have as many). Only a host without an interval gets more
    /// than one request at a time: for a site you own, with
    /// `--host-interval 0s`. robots.txt is obeyed whatever the setting.
    #[arg(long, value_name = "N")]
    pub host_connections: Option<usize>,
    /// Output directory (pages.jsonl, summary.json, hubs.tsv,
    /// authorities.tsv, harvest.svg, and the store).
    #[arg(long, default_value = "focus-out", value_name = "DIR")]
    pub out: PathBuf,

    /// Seed of every random choice (websim, random order, sampling).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Continue the crawl stored in --out instead of starting afresh
    /// (where no page is stored there, the crawl starts from its seeds and
    /// says so).
    #[arg(long)]
    pub resume: bool,

    /// When the crawl ends, rewrite its store into a fresh database of
    /// its live records only (sled's log keeps the space of rewritten
    /// ones until its garbage collection gets to them); summary.json gives
    /// both sizes. Needs free disk for the compacted copy; the original is
    /// kept if anything fails or the copy is not smaller.
    #[arg(long)]
    pub compact_store: bool,
}

impl CrawlArgs {
    /// Validates the flags into a plan for a binary whose own crawler is
    /// `own` (the flags may replace it by a baseline or adjust its rules).
    pub fn plan(&self, own: Crawler) -> Result<CrawlPlan, PlanError> {
        CrawlPlan::from_args(self, own)
    }
}

/// `--dispatch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum DispatchArg {
    /// Only URLs at least as promising as the recent harvest.
    #[default]
    Promising,
    /// Every batch filled however poor its URLs.
    Fill,
}

/// `--flow`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum FlowArg {
    /// Batches applied in pop order on a logical clock (reproducible).
    #[default]
    Batches,
    /// A slot refilled as soon as its page arrives, on the real clock.
    Stream,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// The VLDB 1999 paper's order (serverload tie-break).
    Vldb,
    /// The WWW 1999 paper's order (arrival tie-break).
    Www,
}

/// `--child-priority`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChildPriorityArg {
    /// `apprentice`, with the page's evidence floored at half its centroid
    /// cosine to the good topics.
    CentroidFloor,
    /// `learnt`, blended with an online link model of the link's anchor,
    /// context and URL words, trained on the crawl's own judgements.
    Apprentice,
    /// Relevance scaled by the learnt yield of the link's kind and by how
    /// the link's host has answered.
    Learnt,
    /// Relevance scaled by the learnt yield of the link's kind only.
    LinkKinds,
    /// The parent's relevance (the 1999 papers).
    Paper,
}

impl From<ChildPriorityArg> for ChildPriority {
    fn from(arg: ChildPriorityArg) -> Self {
        match arg {
            ChildPriorityArg::CentroidFloor => ChildPriority::CentroidFloor,
            ChildPriorityArg::Apprentice => ChildPriority::Apprentice,
            ChildPriorityArg::Learnt => ChildPriority::Learnt,
            ChildPriorityArg::LinkKinds => ChildPriority::LinkKinds,
            ChildPriorityArg::Paper => ChildPriority::Paper,
        }
    }
}

/// `--baseline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BaselineArg {
    /// Breadth-first.
    Bfs,
    /// Seeded random order.
    Random,
}

/// Parses `90`, `90s`, `15m`, `2h` or `500ms`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (try 90s, 10m or 2h)"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "m" | "min" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        "ms" => return Ok(Duration::from_millis(n)),
        other => {
            return Err(format!(
                "unknown duration unit `{other}` (use ms, s, m or h)"
            ))
        }
    };
    Ok(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5y").is_err());
    }
}

/// `--relevance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum RelevanceArg {
    /// Tempered naive Bayes posteriors (ranks and is calibrated).
    #[default]
    Tempered,
    /// The papers' exact posterior.
    Exact,
}
