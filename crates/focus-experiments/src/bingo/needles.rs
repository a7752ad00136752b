//! §5.3 over many needles: one needle of a handful of pages says little
//! (on the corpus the smallest leaf leaves three hidden pages, so "half
//! found" moves in thirds), so every small leaf topic of the corpus is a
//! needle in turn — seven of its pages train BINGO! and seed it, the rest
//! are hidden — and each is crawled by BINGO! as the paper gives it, by
//! `bingo`'s default (the apprentice) and by breadth-first from the same
//! seeds with the same budget; the share of hidden pages each finds,
//! beside the oracle bound's (the evaluation's greedy walk that knows every
//! discovered page's label): about how many of them a crawl from the seeds
//! can reach within the budget (a greedy walk, not the optimum).

use std::collections::HashSet;
use std::fmt::Write as _;

use focus_app::AppError;
use focus_cli::BingoPlan;

use super::crawl::stored;
use super::world::{apprentice, Inputs, World};
use super::{learning_pages, NEEDLE_MIN, NEEDLE_TRAINING};
use crate::repro::ReproConfig;

/// The largest needle of the survey, in pages.
pub(super) const NEEDLE_MAX: u64 = 30;
/// Needles surveyed at most (the smallest first).
pub(super) const MOST: usize = 12;

/// One needle's outcome.
pub(super) struct Row {
    topic: String,
    pages: usize,
    hidden: usize,
    bingo: usize,
    /// Found by `bingo` with its default, the apprentice.
    apprentice: usize,
    bfs: usize,
    /// Found by the oracle bound (`None` where it is not walked).
    oracle: Option<usize>,
}

/// The leaves of `min` to `max` pages, smallest first (ties by path), at
/// most `most`.
pub(super) fn small_leaves(leaves: &[(String, u64)], min: u64, max: u64, most: usize) -> Vec<&str> {
    let mut small: Vec<&(String, u64)> = leaves
        .iter()
        .filter(|(_, n)| (min..=max).contains(n))
        .collect();
    small.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    small
        .into_iter()
        .take(most)
        .map(|(p, _)| p.as_str())
        .collect()
}

/// Crawls every small needle of `world` with BINGO! and breadth-first.
pub(super) async fn survey(cfg: &ReproConfig, world: &World) -> Result<Vec<Row>, AppError> {
    let leaves = world.leaf_sizes();
    let mut rows = Vec::new();
    for (i, path) in small_leaves(&leaves, NEEDLE_MIN, NEEDLE_MAX, MOST)
        .into_iter()
        .enumerate()
    {
        let topic = world.topic(path)?;
        let (all, training, hidden) = world.needle_pages(topic, NEEDLE_TRAINING);
        let others = world.others(topic);
        let dir = cfg
            .work
            .join("bingo")
            .join(world.slug)
            .join(format!("needle-{i}"));
        let inputs = Inputs {
            topic: path,
            training: &training,
            others: &others,
            pages: cfg.pages,
            learning: learning_pages(cfg.pages),
            seed: cfg.seed,
        };
        tracing::warn!("bingo: {} needle {path}", world.slug);
        let plan = world.plan(&dir, &inputs)?;
        let found = kept_by(&plan).await?;
        let found_apprentice = kept_by(&apprentice(&plan, &dir)?).await?;
        let bfs_plan = world.baseline_plan(&dir, &inputs)?;
        focus_app::run(&bfs_plan).await?;
        let bfs = stored(&bfs_plan.out.join("pages.jsonl"))?;
        rows.push(Row {
            topic: path.to_owned(),
            pages: all.len(),
            hidden: hidden.len(),
            bingo: hidden.iter().filter(|u| found.contains(*u)).count(),
            apprentice: hidden
                .iter()
                .filter(|u| found_apprentice.contains(*u))
                .count(),
            bfs: hidden.iter().filter(|u| bfs.contains(*u)).count(),
            oracle: world.oracle_found(topic, &training, &hidden, cfg.pages as usize),
        });
    }
    Ok(rows)
}

/// Runs BINGO! as `plan` says; the URLs both phases kept.
async fn kept_by(plan: &BingoPlan) -> Result<HashSet<String>, AppError> {
    focus_app::run_bingo(plan).await?;
    let mut found = HashSet::new();
    for phase in ["learning", "harvesting"] {
        let file = plan.crawl.out.join(phase).join("pages.jsonl");
        if file.is_file() {
            found.extend(stored(&file)?);
        }
    }
    Ok(found)
}

/// The survey's part of `bingo.md`.
pub(super) fn section(md: &mut String, web: &str, pages: u64, rows: &[Row]) {
    let _ = writeln!(
        md,
        "\n### Every small needle of {web}\n\n\
         Each leaf topic of {NEEDLE_MIN} to {NEEDLE_MAX} pages (the {MOST} smallest at most) \
         is a needle in turn: {NEEDLE_TRAINING} of its pages train and seed BINGO! \
         ({pages} pages), the rest are hidden; breadth-first crawls from the same seeds with \
         the same budget. The oracle bound is not a crawler: it walks the web's links from the \
         same seeds with the same budget knowing every discovered page's label (the needle's \
         pages first, then pages by how many of them they link to, as in \
         `docs/results/wikispeedia.md`): what a perfect link classifier finds, walking greedily. \
         BINGO! is the paper's (`bingo --child-priority paper`); `bingo`'s default, the \
         apprentice, joins the project's online link model and host health to its harvest, its \
         SVMs giving the pages they reject a Platt-calibrated relevance below ½ \
         (`docs/bingo.md`). The share of the hidden pages each found:\n\n\
         | needle | pages | hidden | BINGO! (paper) found | `bingo` (apprentice) found | breadth-first found | oracle (bound) found |\n|---|---|---|---|---|---|---|"
    );
    let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
    let cell = |n: Option<usize>, of: usize| {
        n.map_or_else(|| "-".to_owned(), |n| format!("{n} ({:.2})", share(n, of)))
    };
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.topic,
            r.pages,
            r.hidden,
            cell(Some(r.bingo), r.hidden),
            cell(Some(r.apprentice), r.hidden),
            cell(Some(r.bfs), r.hidden),
            cell(r.oracle, r.hidden)
        );
    }
    if rows.is_empty() {
        md.push_str("| (no leaf of that size) | | | | | | |\n");
        return;
    }
    let n = rows.len() as f64;
    let mean = |f: fn(&Row) -> usize| rows.iter().map(|r| share(f(r), r.hidden)).sum::<f64>() / n;
    let half = |f: fn(&Row) -> usize| rows.iter().filter(|r| 2 * f(r) >= r.hidden).count();
    let _ = write!(
        md,
        "\nMean share found: BINGO! (paper) {:.2}, `bingo` (apprentice) {:.2}, breadth-first \
         {:.2}; at least half found on {} of {} needles by BINGO! (paper), {} by `bingo` \
         (apprentice), {} by breadth-first.",
        mean(|r| r.bingo),
        mean(|r| r.apprentice),
        mean(|r| r.bfs),
        half(|r| r.bingo),
        rows.len(),
        half(|r| r.apprentice),
        half(|r| r.bfs)
    );
    if rows.iter().all(|r| r.oracle.is_some()) {
        let oracle: fn(&Row) -> usize = |r| r.oracle.unwrap_or(0);
        let _ = write!(
            md,
            " The oracle bound: mean share {:.2}, at least half on {} of {}.",
            mean(oracle),
            half(oracle),
            rows.len()
        );
    }
    md.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_leaves_in_the_range_come_first() {
        let leaves: Vec<(String, u64)> = [("a", 9), ("b", 12), ("c", 10), ("d", 31), ("e", 10)]
            .into_iter()
            .map(|(p, n)| (p.to_owned(), n))
            .collect();
        assert_eq!(small_leaves(&leaves, 10, 30, 12), ["c", "e", "b"]);
        assert_eq!(small_leaves(&leaves, 10, 30, 2), ["c", "e"]);
    }

    fn row(topic: &str, hidden: usize, bingo: usize, bfs: usize, oracle: Option<usize>) -> Row {
        Row {
            topic: topic.into(),
            pages: hidden + 7,
            hidden,
            bingo,
            apprentice: bingo + 1,
            bfs,
            oracle,
        }
    }

    #[test]
    fn the_section_sets_each_needle_beside_the_oracle_bound() {
        let mut md = String::new();
        section(
            &mut md,
            "the corpus",
            1000,
            &[row("a", 3, 1, 1, Some(3)), row("b", 4, 2, 0, Some(2))],
        );
        assert!(
            md.contains("| a | 10 | 3 | 1 (0.33) | 2 (0.67) | 1 (0.33) | 3 (1.00) |"),
            "{md}"
        );
        assert!(
            md.contains("BINGO! (paper) 0.42, `bingo` (apprentice) 0.71, breadth-first 0.17; at least half found on 1 of 2 needles by BINGO! (paper), 2 by `bingo` (apprentice), 0 by breadth-first. The oracle bound: mean share 0.75, at least half on 2 of 2."),
            "{md}"
        );
        // Where the bound is not walked, its cell is empty and no mean is given.
        let mut md = String::new();
        section(&mut md, "the websim", 1000, &[row("a", 3, 1, 1, None)]);
        assert!(
            md.contains("| 1 (0.33) | - |") && !md.contains("The oracle bound:"),
            "{md}"
        );
    }
}
