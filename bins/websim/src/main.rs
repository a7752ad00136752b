//! `websim`: a thin command line over `focus-websim` — `serve` the synthetic
//! web (or, with `--corpus PATH`, a replayed labelled corpus) on loopback,
//! dump its ground `truth`, print calibration `stats` (a corpus's own
//! statistics), write labelled example pages with `sample`, and write the
//! whole web as static files for a stock HTTP server with `export` (or,
//! `export --labelled`, as a labelled folder to replay as a corpus), and
//! put the real web's answer times in front of any server with `delay`.

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use focus_websim::stats::{calibrate, StatsOptions};
use focus_websim::{Corpus, Site, Web, WebConfig};

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[derive(Parser)]
#[command(name = "websim", about = "The focus synthetic web")]
struct Cli {
    /// Seed of the web (same seed, same pages).
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    /// TOML configuration (default: the built-in default web,
    /// fixtures/websim/default.toml).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// Override the number of pages of the configuration.
    #[arg(long, global = true)]
    pages: Option<u32>,
    /// Override the share of cross-host content links that are dead, in
    /// percent (`links.dead_cross_host`; docs/websim.md).
    #[arg(long, global = true, value_parser = clap::value_parser!(u8).range(0..=100))]
    dead_links: Option<u8>,
    /// Serve a recorded corpus instead of the synthetic web: the
    /// Wikispeedia folder or a labelled folder (`labels.tsv` plus
    /// `<host>/...` files; docs/websim.md).
    #[arg(long, global = true, conflicts_with_all = ["config", "pages", "dead_links"])]
    corpus: Option<PathBuf>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Serve the web over HTTP/1.1 on one loopback listener.
    Serve {
        /// Address to bind.
        #[arg(long, default_value = "127.0.0.1:0")]
        addr: SocketAddr,
        /// Seed URLs printed per leaf topic.
        #[arg(long, default_value_t = 5)]
        seeds: usize,
        /// Answer after a log-normal delay with this median in
        /// milliseconds (sigma `--latency-sigma`), as servers across the
        /// internet; the same delay for a URL every run. Default: none.
        #[arg(long, value_name = "MS")]
        latency: Option<u64>,
        /// Log-normal sigma of `--latency` (half of it, in variance, each
        /// host's own median, half the page's).
        #[arg(long, default_value_t = 1.0, value_name = "SIGMA")]
        latency_sigma: f64,
    },
    /// Forward every request to another server (nginx serving `export`,
    /// say) after a log-normal delay, and relay its answer unchanged: that
    /// server's pages with the answer times of a server across the
    /// internet. No web is built.
    Delay {
        /// The server to forward to.
        #[arg(long)]
        upstream: SocketAddr,
        /// Address to bind.
        #[arg(long, default_value = "127.0.0.1:0")]
        addr: SocketAddr,
        /// Median delay in milliseconds (one server's: no per-host draw).
        #[arg(long, value_name = "MS")]
        latency: u64,
        /// Log-normal sigma of each URL's delay about the median; the same
        /// URL waits the same every run (`--seed`).
        #[arg(long, default_value_t = 1.0, value_name = "SIGMA")]
        latency_sigma: f64,
    },
    /// Dump the ground truth (URL, TAB, topic path) of every page.
    Truth {
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print every calibration figure next to its range (for a corpus: its
    /// sizes, link and label statistics).
    Stats,
    /// Write labelled example pages per leaf topic (example-set format).
    Sample {
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Pages per leaf topic.
        #[arg(long, default_value_t = 30)]
        per_topic: usize,
    },
    /// Write every page as a static file under one host's layout
    /// (`DIR/HOST/PATH`, links rewritten to `/HOST/PATH`, `DIR/index.html`
    /// linking every host), for a stock HTTP server such as nginx.
    Export {
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Write a labelled folder instead (`DIR/HOST/PATH` with links
        /// untouched, each host's robots.txt, `labels.tsv` with the truth),
        /// which `--corpus DIR` replays as a multi-host corpus.
        #[arg(long)]
        labelled: bool,
        /// With --labelled, on a one-site corpus (`--corpus`): move each
        /// page to a host named after the first-level topic of its first
        /// label (`science.test`, same path), links following, and leave
        /// out this share of the pages, in percent, so every link to them
        /// is dead (their labels are kept): the corpus's own text and links
        /// on several hosts, with dead links (docs/websim.md).
        #[arg(long, value_name = "PERCENT", requires = "labelled", value_parser = clap::value_parser!(u8).range(0..=100))]
        spread_by_topic: Option<u8>,
    },
}

/// The synthetic web of the flags.
fn web(cli: &Cli) -> anyhow::Result<Web> {
    let mut config = match &cli.config {
        Some(p) => WebConfig::load(p)?,
        None => WebConfig::default(),
    };
    if let Some(p) = cli.pages {
        config = config.with_pages(p);
    }
    if let Some(percent) = cli.dead_links {
        config = config.with_dead_links(percent);
    }
    Ok(Web::new(config, cli.seed)?)
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Cmd::Delay {
        upstream,
        addr,
        latency,
        latency_sigma,
    } = cli.cmd
    {
        let latency = focus_websim::Latency::one_server(latency, latency_sigma, cli.seed);
        return delay(upstream, addr, latency);
    }
    let stats = matches!(cli.cmd, Cmd::Stats);
    let site: Arc<dyn Site> = if let Some(dir) = &cli.corpus {
        let corpus = Corpus::load(dir)?;
        if stats {
            print!("{}", corpus.stats());
            return Ok(());
        }
        Arc::new(corpus)
    } else {
        let web = web(&cli)?;
        if stats {
            let c = calibrate(&web, &StatsOptions::default());
            print!("{}", c.render());
            if !c.all_ok() {
                eprintln!("websim stats: out of range");
                std::process::exit(1);
            }
            return Ok(());
        }
        Arc::new(web)
    };
    match cli.cmd {
        Cmd::Serve {
            addr,
            seeds,
            latency,
            latency_sigma,
        } => {
            let latency = latency.map_or(focus_websim::Latency::NONE, |ms| {
                focus_websim::Latency::lognormal(ms, latency_sigma, cli.seed)
            });
            serve(&site, addr, seeds, latency)
        }
        Cmd::Truth { out } => {
            let mut w: Box<dyn std::io::Write> = match out {
                Some(p) => {
                    Box::new(std::fs::File::create(&p).with_context(|| p.display().to_string())?)
                }
                None => Box::new(std::io::stdout().lock()),
            };
            let mut w = std::io::BufWriter::new(&mut w);
            match site.dump_truth(&mut w).and_then(|()| w.flush()) {
                // A closed pipe (`websim truth | head`) is not an error.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
                _ => Ok(()),
            }
        }
        Cmd::Stats | Cmd::Delay { .. } => Ok(()),
        Cmd::Sample { out, per_topic } => {
            let n = site.write_examples(&out, per_topic)?;
            println!("wrote {n} example pages under {}", out.display());
            let asked = per_topic * site.taxonomy().leaves().len();
            if n < asked {
                eprintln!(
                    "websim sample: {n} of the {asked} example pages asked for: a topic's \
                     examples leave out the {} pages its seeds are drawn from, so a small web \
                     (--pages) leaves some topics short",
                    focus_websim::SEED_POOL
                );
            }
            if n == 0 && asked > 0 {
                anyhow::bail!("no example pages written: the web is too small to sample");
            }
            Ok(())
        }
        Cmd::Export {
            out,
            labelled,
            spread_by_topic,
        } => {
            let site_files = if let Some(dead_pages_percent) = spread_by_topic {
                let spread = focus_websim::Spread {
                    dead_pages_percent,
                    seed: cli.seed,
                };
                focus_websim::write_spread_folder(&*site, &out, spread)?
            } else if labelled {
                focus_websim::write_labelled_folder(&*site, &out)?
            } else {
                focus_websim::write_static_site(&*site, &out)?
            };
            println!(
                "wrote {} pages of {} hosts under {}",
                site_files.pages,
                site_files.hosts,
                out.display()
            );
            Ok(())
        }
    }
}

/// The delaying proxy until Ctrl-C.
fn delay(
    upstream: SocketAddr,
    addr: SocketAddr,
    latency: focus_websim::Latency,
) -> anyhow::Result<()> {
    until_ctrl_c(
        |_| Ok(()),
        focus_websim::delay_proxy(upstream, addr, latency),
    )
}

fn serve(
    web: &Arc<dyn Site>,
    addr: SocketAddr,
    seeds: usize,
    latency: focus_websim::Latency,
) -> anyhow::Result<()> {
    let more = |out: &mut dyn std::io::Write| {
        writeln!(
            out,
            "search http://{}/search?q=WORDS  backlinks http://{}/backlinks?url=URL",
            web.search_host(),
            web.search_host()
        )?;
        let tax = web.taxonomy();
        for leaf in tax.leaves() {
            for url in web.seed_urls(leaf, seeds) {
                writeln!(out, "seed {} {url}", tax.path(leaf))?;
            }
        }
        Ok(())
    };
    until_ctrl_c(more, focus_websim::serve_with(web.clone(), addr, latency))
}

/// Starts a server on a runtime of its own, prints where it listens and
/// the `more` lines, and serves until Ctrl-C.
fn until_ctrl_c(
    more: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    start: impl std::future::Future<
        Output = Result<focus_websim::ServerHandle, focus_websim::WebsimError>,
    >,
) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let handle = start.await?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {}", handle.addr())?;
        writeln!(out, "connect-to {}", handle.connect_to())?;
        more(&mut out)?;
        out.flush()?;
        drop(out);
        tokio::signal::ctrl_c().await?;
        handle.shutdown().await;
        Ok(())
    })
}
