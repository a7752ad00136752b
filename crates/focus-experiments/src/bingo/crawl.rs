//! One BINGO! crawl of the reproduction: [`focus_app::run_bingo`] on a
//! plan, exactly as the `bingo` binary runs it, and what it left behind
//! read back: both phases' fetch attempts in order (`pages.jsonl`), the
//! links each stored page carried (the phase's store) and the run's
//! outcome (archetypes, training sizes, ξα estimates).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use focus_app::{run_bingo, AppError, BingoOutcome};
use focus_cli::BingoPlan;
use focus_core::{HostKey, PageId, PageLine};
use focus_store::Store;

use super::measures::Attempt;
use crate::{input, page_lines};

/// What one crawl left behind.
pub(super) struct Run {
    /// Both phases' attempts, learning first.
    pub(super) attempts: Vec<Attempt>,
    /// How many of them the learning phase made.
    pub(super) learning: usize,
    /// `run_bingo`'s outcome.
    pub(super) outcome: BingoOutcome,
    /// The crawl's output directory.
    pub(super) out: PathBuf,
    /// Wall-clock seconds of `run_bingo` (training, both phases, index).
    pub(super) seconds: f64,
}

/// Runs `plan` for the user's `topic` and reads its outputs.
pub(super) async fn run(plan: &BingoPlan, topic: &str) -> Result<Run, AppError> {
    let started = Instant::now();
    let outcome = run_bingo(plan).await?;
    let seconds = started.elapsed().as_secs_f64();
    let out = plan.crawl.out.clone();
    let mut attempts = read_phase(&out.join("learning"), topic, true)?;
    let learning = attempts.len();
    attempts.extend(read_phase(&out.join("harvesting"), topic, false)?);
    Ok(Run {
        attempts,
        learning,
        outcome,
        out,
        seconds,
    })
}

/// One phase's attempts, with the links of each stored page.
fn read_phase(dir: &Path, topic: &str, learning: bool) -> Result<Vec<Attempt>, AppError> {
    let path = dir.join("pages.jsonl");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let links = link_counts(&dir.join("store"))?;
    let mut out = Vec::new();
    for p in page_lines(&path)? {
        let stored = is_stored(&p);
        out.push(Attempt {
            links: if stored {
                links
                    .get(&PageId::of_canonical(&p.url).0)
                    .copied()
                    .unwrap_or(0)
            } else {
                0
            },
            host: HostKey::of_url(&p.url).map_or_else(String::new, |h| h.as_str().to_owned()),
            learning,
            stored,
            positive: stored && p.class.as_deref().is_some_and(|c| under(c, topic)),
            relevance: if stored { p.relevance } else { 0.0 },
            depth: p.depth,
            url: p.url,
        });
    }
    Ok(out)
}

/// The URLs a crawl's `pages.jsonl` stored (fetched, kept, not a
/// duplicate), read as [`Run`]'s attempts are.
pub(super) fn stored(path: &Path) -> Result<std::collections::HashSet<String>, AppError> {
    Ok(page_lines(path)?
        .into_iter()
        .filter(is_stored)
        .map(|p| p.url)
        .collect())
}

fn is_stored(p: &PageLine) -> bool {
    p.received_page() && !p.retry && p.duplicate.is_none()
}

/// Whether topic path `class` is `topic` or below it.
fn under(class: &str, topic: &str) -> bool {
    class == topic
        || class
            .strip_prefix(topic)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Outlinks per page of a phase's store.
fn link_counts(store: &Path) -> Result<HashMap<u64, u64>, AppError> {
    let mut n = HashMap::new();
    if !store.is_dir() {
        return Ok(n);
    }
    let store = Store::open(store).map_err(input)?;
    for link in store.links() {
        let (from, _) = link.map_err(input)?;
        *n.entry(from).or_insert(0) += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_under_its_own_topic_and_its_ancestors() {
        assert!(under("a/b", "a/b") && under("a/b/c", "a/b") && under("a/b", "a"));
        assert!(!under("a/bc", "a/b") && !under("a", "a/b") && !under("others", "a"));
    }
}
