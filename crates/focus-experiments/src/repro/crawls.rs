//! Running one crawl of the reproduction and reading back what it left
//! behind: the fetched pages (`pages.jsonl`, in fetch order) and the top
//! authorities (`authorities.tsv`). Owns [`Crawl`] and its per-crawl
//! numbers (harvest, pages by link kind, hosts); figures and the report
//! are built from these by the sibling modules.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use focus_cli::{ChildPriority, CrawlPlan, Crawler, SoftOrder, Strategy, TopicSource};

use super::measures::{host_of, ratio};
use super::{input, ReproConfig};
use focus_app::{run, AppError};

/// One fetched page, as read back from `pages.jsonl`.
#[derive(Debug, Clone)]
pub(super) struct Fetched {
    pub(super) url: String,
    pub(super) parent: Option<String>,
    pub(super) relevance: f64,
    pub(super) truth: bool,
}

/// What one crawl left behind.
#[derive(Debug)]
pub(super) struct Crawl {
    pub(super) pages: Vec<Fetched>,
    pub(super) dir: PathBuf,
}

impl Crawl {
    pub(super) fn harvest(&self) -> f64 {
        ratio(
            self.pages.iter().filter(|p| p.truth).count(),
            self.pages.len(),
        )
    }

    pub(super) fn harvest_last(&self, n: usize) -> f64 {
        let tail = &self.pages[self.pages.len().saturating_sub(n)..];
        ratio(tail.iter().filter(|p| p.truth).count(), tail.len())
    }

    pub(super) fn relevant_urls(&self) -> Vec<String> {
        self.pages
            .iter()
            .filter(|p| p.truth)
            .map(|p| p.url.clone())
            .collect()
    }

    pub(super) fn urls(&self) -> Vec<String> {
        self.pages.iter().map(|p| p.url.clone()).collect()
    }

    /// (pages, harvest) of the pages reached through a same-host link and
    /// of those reached through a cross-host link.
    pub(super) fn by_link_kind(&self) -> [(usize, f64); 2] {
        let mut n = [(0usize, 0usize); 2];
        for p in &self.pages {
            let Some(parent) = &p.parent else { continue };
            let k = usize::from(host_of(parent) != host_of(&p.url));
            n[k].0 += 1;
            n[k].1 += usize::from(p.truth);
        }
        n.map(|(all, rel)| (all, ratio(rel, all)))
    }

    pub(super) fn hosts(&self) -> Vec<String> {
        self.pages.iter().map(|p| host_of(&p.url)).collect()
    }
}

fn read_pages(dir: &Path) -> Result<Vec<Fetched>, AppError> {
    let path = dir.join("pages.jsonl");
    let text =
        std::fs::read_to_string(&path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let v = focus_core::PageLine::parse(line).map_err(input)?;
        let relevance = v.harvested_relevance();
        out.push(Fetched {
            url: v.url,
            parent: v.parent,
            relevance,
            truth: v.relevant_true.unwrap_or(false),
        });
    }
    Ok(out)
}

/// The papers' soft-focus crawler: each outlink worth its parent's
/// relevance, in the VLDB paper's order.
pub(super) const PAPER_SOFT: Crawler = Crawler::Soft {
    order: SoftOrder::Vldb,
    priority: ChildPriority::Paper,
};

pub(super) async fn crawl(
    cfg: &ReproConfig,
    name: &str,
    good: &str,
    seeds: &Path,
    crawler: Crawler,
) -> Result<Crawl, AppError> {
    let dir = cfg.work.join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(input)?;
    }
    let source = TopicSource::Websim {
        good: vec![good.to_owned()],
        seeds: Some(seeds.to_path_buf()),
        pages: None,
        dead_links: None,
        page_faults: None,
        latency_ms: None,
    };
    let plan = CrawlPlan {
        max_pages: cfg.pages,
        // The papers' crawlers as they ran them: the exact posterior.
        strategy: Strategy::paper(crawler),
        seed: cfg.seed,
        ..CrawlPlan::new(source, dir.clone())
    };
    let summary = run(&plan).await?;
    tracing::info!(
        "{name}: {} pages, true harvest {:.3}",
        summary.pages_fetched,
        summary.harvest_rate_true.unwrap_or(0.0)
    );
    Ok(Crawl {
        pages: read_pages(&dir)?,
        dir,
    })
}

pub(super) fn top_authority_hosts(dir: &Path, n: usize) -> Result<Vec<String>, AppError> {
    let path = dir.join("authorities.tsv");
    let text =
        std::fs::read_to_string(&path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut seen = HashSet::new();
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(host_of)
        .filter(|h| seen.insert(h.clone()))
        .take(n)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, parent: Option<&str>, truth: bool) -> Fetched {
        Fetched {
            url: url.into(),
            parent: parent.map(Into::into),
            relevance: 0.0,
            truth,
        }
    }

    #[test]
    fn link_kinds_split_by_the_parents_host() {
        let c = Crawl {
            pages: vec![
                page("http://a.test/", None, true),
                page("http://a.test/1", Some("http://a.test/"), true),
                page("http://a.test/2", Some("http://a.test/"), false),
                page("http://b.test/", Some("http://a.test/1"), false),
            ],
            dir: PathBuf::new(),
        };
        assert_eq!(c.by_link_kind(), [(2, 0.5), (1, 0.0)]);
        assert_eq!(c.hosts(), ["a.test", "a.test", "a.test", "b.test"]);
        assert!((c.harvest() - 0.5).abs() < 1e-12);
        assert!(
            c.harvest_last(2).abs() < 1e-12,
            "the last two are irrelevant"
        );
    }
}
