//! The two webs of the BINGO! reproduction and what the experiments ask of
//! them: their ground truth (a topic's pages, its leaf sizes, in-degrees:
//! evaluation only), the user's training pages (the topic's seed pages,
//! standing in for the paper's authoritative home pages and Google's top
//! results) and OTHERS pages, and the [`BingoPlan`] that crawls them as the
//! `bingo` binary would.
//!
//! * The websim is served here, on loopback (its `Retry-After` capped as
//!   the loopback fetcher caps it: `bingo/paced.rs`), and crawled from a
//!   bookmarks file (`bingo --bookmarks FILE --good PATH --connect-to RULE
//!   --host-interval 0`): the websim's own source samples ten training
//!   pages per topic, the experiments need three, and seven.
//! * The corpus is replayed by `run_bingo` itself (`bingo --corpus DIR
//!   --examples DIR --seeds FILE`), the training pages an example set of
//!   `urls.txt` files.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use focus_cli::{BingoPlan, CrawlPlan, Strategy, TopicSource, DEFAULT_OTHERS};
use focus_core::{Canonicalizer, Crawler, Taxonomy, TopicId};
use focus_websim::{Corpus, LinkTarget, ServerHandle, Site, Web};
use rayon::prelude::*;

use super::bookmarks::{bookmarks_html, lines};
use crate::eval::crawls::oracle_order;
use crate::{input, write};
use focus_app::{AppError, OTHERS};

/// Which web, and how it is reached.
enum Kind {
    /// The embedded websim, served here.
    Websim { web: Arc<Web>, server: ServerHandle },
    /// The replayed corpus (served by `run_bingo`).
    Corpus { corpus: Arc<Corpus>, dir: PathBuf },
}

/// One web of the reproduction.
pub(super) struct World {
    /// Its short name in folders and figures.
    pub(super) slug: &'static str,
    /// Its name in the report.
    pub(super) title: String,
    kind: Kind,
    canon: Canonicalizer,
}

/// What one BINGO! crawl is given.
pub(super) struct Inputs<'a> {
    /// The user's topic (a path of the web's taxonomy).
    pub(super) topic: &'a str,
    /// Its training pages (canonical URLs), which are also the seeds.
    pub(super) training: &'a [String],
    /// Pages far from the topic (BINGO!'s OTHERS).
    pub(super) others: &'a [String],
    /// Fetch attempts of both phases.
    pub(super) pages: u64,
    /// Fetch attempts of the learning phase.
    pub(super) learning: u64,
    /// Seed of the crawl.
    pub(super) seed: u64,
}

impl World {
    /// The default websim of `seed`, served on loopback.
    pub(super) async fn websim(seed: u64) -> Result<World, AppError> {
        let web = Arc::new(Web::new(focus_websim::WebConfig::default(), seed).map_err(input)?);
        let addr = "127.0.0.1:0".parse().map_err(input)?;
        let server = focus_websim::serve(Arc::new(super::paced::Paced(web.clone())), addr)
            .await
            .map_err(input)?;
        Ok(World {
            slug: "websim",
            title: format!("the websim (default web, seed {seed})"),
            kind: Kind::Websim { web, server },
            canon: Canonicalizer::default(),
        })
    }

    /// The replayed corpus in `dir`.
    pub(super) fn corpus(dir: &Path) -> Result<World, AppError> {
        let corpus = Arc::new(Corpus::load(dir).map_err(input)?);
        Ok(World {
            slug: "corpus",
            title: format!("the replayed corpus ({})", corpus.name()),
            kind: Kind::Corpus {
                corpus,
                dir: dir.to_path_buf(),
            },
            canon: Canonicalizer::default(),
        })
    }

    /// Stops the websim's server (the corpus's is `run_bingo`'s own).
    pub(super) async fn shutdown(self) {
        if let Kind::Websim { server, .. } = self.kind {
            server.shutdown().await;
        }
    }

    pub(super) fn site(&self) -> &dyn Site {
        match &self.kind {
            Kind::Websim { web, .. } => web.as_ref(),
            Kind::Corpus { corpus, .. } => corpus.as_ref(),
        }
    }

    pub(super) fn taxonomy(&self) -> &Taxonomy {
        self.site().taxonomy()
    }

    /// A topic by path.
    pub(super) fn topic(&self, path: &str) -> Result<TopicId, AppError> {
        self.site()
            .find_topic(path)
            .filter(|&t| t != TopicId::ROOT)
            .ok_or_else(|| input(format!("{} has no topic {path}", self.title)))
    }

    /// **Truth.** The labels of page `pid`.
    fn labels(&self, pid: u32) -> Vec<TopicId> {
        match &self.kind {
            Kind::Websim { web, .. } => web.truth_of(pid).into_iter().collect(),
            Kind::Corpus { corpus, .. } => corpus.labels(pid).to_vec(),
        }
    }

    /// The canonical URL of page `pid`.
    pub(super) fn url(&self, pid: u32) -> Option<String> {
        let raw = self.site().page_url(pid)?;
        self.canon
            .canonicalize(&raw)
            .ok()
            .map(|c| c.as_str().to_owned())
    }

    /// Canonical spellings of `urls` (those that parse).
    pub(super) fn canonical(&self, urls: &[String]) -> Vec<String> {
        urls.iter()
            .filter_map(|u| self.canon.canonicalize(u).ok())
            .map(|c| c.as_str().to_owned())
            .collect()
    }

    /// **Truth.** The pages labelled `topic` or below it.
    pub(super) fn pages_under(&self, topic: TopicId) -> Vec<u32> {
        let tax = self.taxonomy();
        (0..self.site().page_count())
            .filter(|&p| {
                self.labels(p)
                    .iter()
                    .any(|&l| tax.is_ancestor_or_self(topic, l))
            })
            .collect()
    }

    /// **Truth.** Every leaf topic's path and number of pages.
    pub(super) fn leaf_sizes(&self) -> Vec<(String, u64)> {
        let tax = self.taxonomy();
        let mut n: HashMap<TopicId, u64> = HashMap::new();
        for p in 0..self.site().page_count() {
            let mut labels = self.labels(p);
            labels.sort_unstable();
            labels.dedup();
            for l in labels {
                *n.entry(l).or_insert(0) += 1;
            }
        }
        tax.leaves()
            .into_iter()
            .map(|l| (tax.path(l).to_owned(), n.get(&l).copied().unwrap_or(0)))
            .collect()
    }

    /// **Truth.** How many distinct pages link to each of `pids` (on the
    /// websim content links only: its navigation menus and footers link
    /// every page of a host to the same few pages).
    pub(super) fn in_degrees(&self, pids: &[u32]) -> Vec<u32> {
        match &self.kind {
            Kind::Corpus { corpus, .. } => pids.iter().map(|&p| corpus.in_degree(p)).collect(),
            Kind::Websim { web, .. } => {
                let wanted: HashSet<u32> = pids.iter().copied().collect();
                let counts = (0..web.page_count())
                    .into_par_iter()
                    .fold(HashMap::new, |mut m: HashMap<u32, u32>, src| {
                        let mut targets: Vec<u32> = web
                            .out_links(src)
                            .into_iter()
                            .filter(|l| !l.nav)
                            .filter_map(|l| match l.target {
                                LinkTarget::Page(p) if p != src && wanted.contains(&p) => Some(p),
                                _ => None,
                            })
                            .collect();
                        targets.sort_unstable();
                        targets.dedup();
                        for t in targets {
                            *m.entry(t).or_insert(0) += 1;
                        }
                        m
                    })
                    .reduce(HashMap::new, |mut a, b| {
                        for (k, v) in b {
                            *a.entry(k).or_insert(0) += v;
                        }
                        a
                    });
                pids.iter()
                    .map(|p| counts.get(p).copied().unwrap_or(0))
                    .collect()
            }
        }
    }

    /// The user's `n` training pages of `topic`: its seed pages (on the
    /// websim pages of the topic's most popular hosts, on the corpus its
    /// most linked-to pages), as a user would take the authorities they
    /// know or a search engine's first answers.
    pub(super) fn training(&self, topic: TopicId, n: usize) -> Vec<String> {
        self.canonical(&self.site().seed_urls(topic, n))
    }

    /// BINGO!'s OTHERS as `run_bingo` samples them on a served web
    /// ([`focus_app::far_away_pages`]): [`DEFAULT_OTHERS`] pages of the
    /// top-level categories that do not hold `topic`.
    pub(super) fn others(&self, topic: TopicId) -> Vec<String> {
        let urls = focus_app::far_away_pages(self.site(), &[topic], DEFAULT_OTHERS);
        self.canonical(&urls.unwrap_or_default())
    }

    /// **Truth.** A needle's pages: every URL of `topic`, the `n` the user
    /// trains on ([`World::training`]) and the others, hidden.
    pub(super) fn needle_pages(
        &self,
        topic: TopicId,
        n: usize,
    ) -> (Vec<String>, Vec<String>, HashSet<String>) {
        let all: Vec<String> = self
            .pages_under(topic)
            .into_iter()
            .filter_map(|p| self.url(p))
            .collect();
        let training = self.training(topic, n);
        let hidden = all
            .iter()
            .filter(|u| !training.contains(u))
            .cloned()
            .collect();
        (all, training, hidden)
    }

    /// **Truth.** How many of `hidden` a crawl that knows every discovered
    /// page's label finds within `budget` fetches from the `training`
    /// pages ([`oracle_order`]: the needle's pages first, then pages by
    /// how many of them they link to): the bound of a perfect link
    /// classifier. `None` on the websim, whose graph the bound does not
    /// walk.
    pub(super) fn oracle_found(
        &self,
        topic: TopicId,
        training: &[String],
        hidden: &HashSet<String>,
        budget: usize,
    ) -> Option<usize> {
        let Kind::Corpus { corpus, .. } = &self.kind else {
            return None;
        };
        let (mut seeds, mut scored, mut relevant) = (Vec::new(), HashSet::new(), HashSet::new());
        for p in self.pages_under(topic) {
            relevant.insert(p);
            match self.url(p) {
                Some(u) if training.contains(&u) => seeds.push(p),
                Some(u) if hidden.contains(&u) => {
                    scored.insert(p);
                }
                _ => {}
            }
        }
        let order = oracle_order(corpus, &seeds, &scored, &relevant, budget);
        Some(order.iter().filter(|p| scored.contains(p)).count())
    }

    /// The plan of a breadth-first crawl into `dir/bfs` from the same
    /// training pages as seeds and with the same budget and fetcher as
    /// [`World::plan`]'s (its example set written to `dir/bfs-inputs`; a
    /// breadth-first crawl does not read it, `focus_app::run` needs one).
    pub(super) fn baseline_plan(&self, dir: &Path, i: &Inputs<'_>) -> Result<CrawlPlan, AppError> {
        let inputs = dir.join("bfs-inputs");
        let out = dir.join("bfs");
        for d in [&inputs, &out] {
            if d.exists() {
                std::fs::remove_dir_all(d).map_err(input)?;
            }
        }
        std::fs::create_dir_all(&inputs).map_err(input)?;
        let (examples, seeds) = example_set(&inputs, i)?;
        let good = vec![i.topic.to_owned()];
        let (source, connect_to, host_interval) = match &self.kind {
            Kind::Websim { server, .. } => (
                TopicSource::Examples {
                    dir: examples,
                    good,
                    seeds,
                },
                vec![server.connect_to()],
                Some(Duration::ZERO),
            ),
            Kind::Corpus { dir, .. } => (
                TopicSource::Corpus {
                    dir: dir.clone(),
                    good,
                    examples: Some(examples),
                    seeds: Some(seeds),
                },
                Vec::new(),
                None,
            ),
        };
        Ok(CrawlPlan {
            max_pages: i.pages,
            seed: i.seed,
            strategy: Strategy::of(Crawler::BreadthFirst),
            connect_to,
            host_interval,
            ..CrawlPlan::new(source, out)
        })
    }

    /// The plan of one BINGO! crawl into `dir/crawl`, its inputs written
    /// to `dir/inputs`.
    pub(super) fn plan(&self, dir: &Path, i: &Inputs<'_>) -> Result<BingoPlan, AppError> {
        let inputs = dir.join("inputs");
        let out = dir.join("crawl");
        for d in [&inputs, &out] {
            if d.exists() {
                std::fs::remove_dir_all(d).map_err(input)?;
            }
        }
        std::fs::create_dir_all(&inputs).map_err(input)?;
        let good = vec![i.topic.to_owned()];
        let crawl = |source: TopicSource| CrawlPlan {
            max_pages: i.pages,
            seed: i.seed,
            strategy: Strategy::of(Crawler::BINGO_PAPER),
            ..CrawlPlan::new(source, out.clone())
        };
        Ok(match &self.kind {
            Kind::Websim { server, .. } => {
                let file = inputs.join("bookmarks.html");
                write(
                    &file,
                    &bookmarks_html(&[(i.topic, i.training), (OTHERS, i.others)]),
                )?;
                let source = TopicSource::websim(good);
                let mut plan = BingoPlan::new(
                    CrawlPlan {
                        connect_to: vec![server.connect_to()],
                        host_interval: Some(Duration::ZERO),
                        ..crawl(source)
                    },
                    i.learning,
                );
                plan.bookmarks = Some(file);
                plan
            }
            Kind::Corpus { dir, .. } => {
                let (examples, seeds) = example_set(&inputs, i)?;
                let source = TopicSource::Corpus {
                    dir: dir.clone(),
                    good,
                    examples: Some(examples),
                    seeds: Some(seeds),
                };
                BingoPlan::new(crawl(source), i.learning)
            }
        })
    }
}

/// `paper` (a [`World::plan`] into `dir/crawl`) with `bingo`'s default
/// crawler, the apprentice, instead of the paper's, into
/// `dir/crawl-apprentice` (emptied first): the same inputs, seeds and budget.
pub(super) fn apprentice(paper: &BingoPlan, dir: &Path) -> Result<BingoPlan, AppError> {
    let mut plan = paper.clone();
    plan.crawl.strategy.crawler = Crawler::BINGO;
    plan.crawl.out = dir.join("crawl-apprentice");
    if plan.crawl.out.exists() {
        std::fs::remove_dir_all(&plan.crawl.out).map_err(input)?;
    }
    Ok(plan)
}

/// Writes the example set of `i` (the topic's training pages and OTHERS,
/// one `urls.txt` per folder) and its seed file (the training pages) under
/// `inputs`; returns their paths.
fn example_set(inputs: &Path, i: &Inputs<'_>) -> Result<(PathBuf, PathBuf), AppError> {
    let examples = inputs.join("examples");
    for (topic, urls) in [(i.topic, i.training), (OTHERS, i.others)] {
        let folder = examples.join(topic);
        std::fs::create_dir_all(&folder).map_err(input)?;
        write(&folder.join("urls.txt"), &lines(urls))?;
    }
    let seeds = inputs.join("seeds.txt");
    write(&seeds, &lines(i.training))?;
    Ok((examples, seeds))
}
