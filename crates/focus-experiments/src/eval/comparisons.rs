//! How the crawlers of the real-corpus evaluation compare, from their
//! scores alone: the score arithmetic (recall at a budget, who is ahead at
//! every budget) and the report's comparison lines (the yardsticks of
//! issue 21: soft against breadth-first, the reference and the oracles;
//! training pages fetched; attempts that received nothing). Must not run
//! crawls or write files: [`super::report`] does.

use std::fmt::Write as _;

use super::crawls::{Crawler, Protocol, Scored, BUDGETS};

pub(super) fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    s / n.max(1) as f64
}

pub(super) fn of(
    scores: &[Scored],
    protocol: Protocol,
    crawler: Crawler,
) -> impl Iterator<Item = &Scored> + '_ {
    scores
        .iter()
        .filter(move |s| s.protocol == protocol && s.crawler == crawler)
}

/// The categories of `scores`, in the order they were evaluated.
pub(super) fn categories(scores: &[Scored]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in scores {
        if !out.contains(&s.category.as_str()) {
            out.push(&s.category);
        }
    }
    out
}

pub(super) fn find<'a>(
    scores: &'a [Scored],
    category: &str,
    protocol: Protocol,
    crawler: Crawler,
) -> Option<&'a Scored> {
    of(scores, protocol, crawler).find(|s| s.category == category)
}

/// Crawler `a`'s and crawler `b`'s scores on `category` under `protocol`,
/// when both crawled it.
pub(super) fn pair<'a>(
    scores: &'a [Scored],
    category: &str,
    protocol: Protocol,
    a: Crawler,
    b: Crawler,
) -> Option<(&'a Scored, &'a Scored)> {
    Some((
        find(scores, category, protocol, a)?,
        find(scores, category, protocol, b)?,
    ))
}

/// Of the categories crawled both by crawler `a` (its scores in `a_scores`)
/// and by crawler `b` (in `b_scores`, which may be another run's) under
/// `protocol`: on how many `a` finds at least as many scored pages as `b`
/// at every budget, and how many there are.
pub(super) fn held_at_every_budget(
    a_scores: &[Scored],
    a: Crawler,
    b_scores: &[Scored],
    b: Crawler,
    protocol: Protocol,
) -> (usize, usize) {
    let pairs: Vec<_> = categories(a_scores)
        .into_iter()
        .filter_map(|cat| {
            Some((
                find(a_scores, cat, protocol, a)?,
                find(b_scores, cat, protocol, b)?,
            ))
        })
        .collect();
    let held = pairs.iter().filter(|(x, y)| at_every_budget(x, y)).count();
    (held, pairs.len())
}

/// Whether `a` finds at least as many scored pages as `b` at every budget.
pub(super) fn at_every_budget(a: &Scored, b: &Scored) -> bool {
    BUDGETS.iter().all(|&n| a.found_at(n) >= b.found_at(n))
}

/// The budgets where `a` finds fewer scored pages than `b`: (budget, a's,
/// b's).
pub(super) fn shortfalls(a: &Scored, b: &Scored) -> Vec<(usize, usize, usize)> {
    BUDGETS
        .iter()
        .map(|&n| (n, a.found_at(n), b.found_at(n)))
        .filter(|(_, x, y)| x < y)
        .collect()
}

/// A crawler's mean recall over the categories at `budget`.
pub(super) fn mean_recall_at(
    scores: &[Scored],
    protocol: Protocol,
    crawler: Crawler,
    budget: usize,
) -> f64 {
    mean(of(scores, protocol, crawler).map(|s| s.recall_at(budget)))
}

/// How the default soft crawler compares with breadth-first and the
/// reference, category by category (the yardsticks of issue 21).
pub(super) fn comparisons(
    md: &mut String,
    scores: &[Scored],
    protocol: Protocol,
    crawlers: &[Crawler],
) {
    let mut lines = Vec::new();
    for (other, label) in [
        (Crawler::BreadthFirst, "breadth-first"),
        (Crawler::Reference, "the sklearn reference"),
    ] {
        if !crawlers.contains(&other) {
            continue;
        }
        let (mut every, mut mid, mut n) = (0, 0, 0);
        for cat in categories(scores) {
            let Some((s, o)) = pair(scores, cat, protocol, Crawler::Soft, other) else {
                continue;
            };
            n += 1;
            if at_every_budget(s, o) {
                every += 1;
            }
            if [250, 500].iter().all(|&b| s.found_at(b) > o.found_at(b)) {
                mid += 1;
            }
        }
        lines.push(format!(
            "- soft finds at least as many scored pages as {label} at every budget on \
             {every} of {n} categories, and more at both 250 and 500 pages on {mid} of {n}."
        ));
    }
    training_fetched(&mut lines, scores, protocol, crawlers);
    empty_attempts(&mut lines, scores, protocol, crawlers);
    let at500 = |c: Crawler| mean_recall_at(scores, protocol, c, 500);
    if crawlers.contains(&Crawler::Reference) {
        let (s, r) = (at500(Crawler::Soft), at500(Crawler::Reference));
        lines.push(format!(
            "- mean recall at 500 pages: soft {s:.3}, reference {r:.3} (ratio {:.2}).",
            s / r.max(1e-9)
        ));
        if crawlers.contains(&Crawler::Oracle) {
            let o = at500(Crawler::Oracle);
            lines.push(format!(
                "- the oracle bound at 500 pages is {o:.3}, {:.2} times the reference's recall.",
                o / r.max(1e-9)
            ));
        }
        if crawlers.contains(&Crawler::OracleBlind) {
            let b = at500(Crawler::OracleBlind);
            lines.push(format!(
                "- the oracle blind to the split finds {b:.3} at 500 pages, {:.2} times the \
                 reference's recall; soft finds {:.2} of it and the reference {:.2}.",
                b / r.max(1e-9),
                s / b.max(1e-9),
                r / b.max(1e-9)
            ));
        }
    }
    if crawlers.contains(&Crawler::SoftSequential) {
        let q = at500(Crawler::SoftSequential);
        let mut line = format!(
            "- mean recall at 500 pages of soft one fetch at a time: {q:.3} (soft: {:.3})",
            at500(Crawler::Soft)
        );
        if crawlers.contains(&Crawler::Reference) {
            let _ = write!(
                line,
                ", {:.2} times the reference's",
                q / at500(Crawler::Reference).max(1e-9)
            );
        }
        lines.push(line + ".");
    }
    if crawlers.contains(&Crawler::SoftPrevious) {
        lines.push(format!(
            "- mean recall at 500 pages of the previous default: {:.3}.",
            at500(Crawler::SoftPrevious)
        ));
    }
    if crawlers.contains(&Crawler::Context) && crawlers.contains(&Crawler::ContextStandard) {
        // Diligenti et al.'s comparison (issue 24): at 1,000 pages.
        let (mut wins, mut n) = (0, 0);
        for cat in categories(scores) {
            let Some((c, s)) = pair(
                scores,
                cat,
                protocol,
                Crawler::Context,
                Crawler::ContextStandard,
            ) else {
                continue;
            };
            n += 1;
            wins += usize::from(c.found_at(1000) > s.found_at(1000));
        }
        let at1000 = |c: Crawler| mean_recall_at(scores, protocol, c, 1000);
        lines.push(format!(
            "- the context crawler finds more scored pages than the standard focused crawler \
             (best first on the same classifier) at 1,000 pages on {wins} of {n} categories; \
             mean recall at 1,000 pages {:.3} against {:.3} (the paper: 50-60 % more on-topic \
             pages). Before its crawl it back-crawls up to 10 + 4 × 300 context-graph pages and \
             takes a 500-page reference pass, outside the budget (the paper: \"negligible\").",
            at1000(Crawler::Context),
            at1000(Crawler::ContextStandard)
        ));
    }
    for l in lines {
        let _ = writeln!(md, "{l}");
    }
    md.push('\n');
}

/// How many of the categories' training pages (which earn nothing) the
/// crawlers fetched early on, and, wherever soft trails breadth-first, the
/// two crawls' scored and training pages at that budget: a classifier
/// trained on those pages rates the links to them highest.
fn training_fetched(
    lines: &mut Vec<String>,
    scores: &[Scored],
    protocol: Protocol,
    crawlers: &[Crawler],
) {
    let early = [100, 250];
    let mut sums = Vec::new();
    for c in [Crawler::Soft, Crawler::BreadthFirst, Crawler::Reference] {
        if !crawlers.contains(&c) {
            continue;
        }
        let at = |b: usize| {
            of(scores, protocol, c)
                .map(|s| s.training_at(b))
                .sum::<usize>()
        };
        sums.push(format!("{} {} / {}", c.name(), at(early[0]), at(early[1])));
    }
    if sums.len() > 1 {
        lines.push(format!(
            "- the categories' training pages fetched within 100 / 250 pages (they earn nothing), \
             summed over the categories: {}.",
            sums.join(", ")
        ));
    }
    let mut trails = Vec::new();
    for cat in categories(scores) {
        let Some((s, o)) = pair(scores, cat, protocol, Crawler::Soft, Crawler::BreadthFirst) else {
            continue;
        };
        for b in BUDGETS
            .into_iter()
            .filter(|&b| s.found_at(b) < o.found_at(b))
        {
            trails.push(format!(
                "{cat} at {b} pages ({} against {} scored pages; training pages {} against {})",
                s.found_at(b),
                o.found_at(b),
                s.training_at(b),
                o.training_at(b)
            ));
        }
    }
    if !trails.is_empty() {
        lines.push(format!(
            "- where soft trails breadth-first: {}.",
            trails.join("; ")
        ));
    }
}

/// How many of each crawler's attempts received no page, against how many
/// it made: a replay the crawlers cannot read (every page refused, of a
/// type they skip, or unreachable) shows here instead of as a silent 0.
fn empty_attempts(
    lines: &mut Vec<String>,
    scores: &[Scored],
    protocol: Protocol,
    crawlers: &[Crawler],
) {
    let budget = BUDGETS[BUDGETS.len() - 1];
    let sums: Vec<String> = crawlers
        .iter()
        .filter(|c| !c.is_oracle())
        .map(|&c| {
            let (empty, made) = of(scores, protocol, c).fold((0, 0), |(e, m), s| {
                (e + s.empty_at(budget), m + s.attempts_at(budget))
            });
            format!("{}: {empty} of {made}", c.name())
        })
        .collect();
    if !sums.is_empty() {
        lines.push(format!(
            "- fetch attempts within {budget} pages that received no page (an error status or \
             dead link, a robots.txt refusal, a timeout, a skipped type: they spend the budget \
             and find nothing), of the attempts made, summed over the categories: {}.",
            sums.join("; ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(crawler: Crawler, found: Vec<usize>, training: Vec<usize>) -> Scored {
        Scored {
            category: "Music".into(),
            protocol: Protocol::Topic,
            crawler,
            scored_total: 10,
            empty: vec![0; found.len()],
            found,
            training,
        }
    }

    #[test]
    fn attempts_that_received_nothing_are_counted_per_crawler() {
        let mut soft = scored(Crawler::Soft, vec![0, 1, 1], vec![0; 3]);
        soft.empty = vec![0, 0, 1];
        let bfs = scored(Crawler::BreadthFirst, vec![0, 0], vec![0; 2]);
        let mut lines = Vec::new();
        let crawlers = [Crawler::Soft, Crawler::BreadthFirst, Crawler::Oracle];
        empty_attempts(&mut lines, &[soft, bfs], Protocol::Topic, &crawlers);
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].ends_with("categories: soft: 1 of 3; breadth-first: 0 of 2."),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn the_blind_oracle_is_set_beside_soft_and_the_reference_at_500_pages() {
        // 10 scored pages; at 500 pages soft has 4, the reference 2, the
        // blind oracle 5.
        let at500 = |crawler, n| {
            let mut s = scored(crawler, vec![n; 500], vec![0; 500]);
            s.protocol = Protocol::Hub;
            s
        };
        let scores = [
            at500(Crawler::Soft, 4),
            at500(Crawler::Reference, 2),
            at500(Crawler::OracleBlind, 5),
        ];
        let crawlers = [Crawler::Soft, Crawler::Reference, Crawler::OracleBlind];
        let mut md = String::new();
        comparisons(&mut md, &scores, Protocol::Hub, &crawlers);
        assert!(
            md.contains(
                "- the oracle blind to the split finds 0.500 at 500 pages, 2.50 times the \
                 reference's recall; soft finds 0.80 of it and the reference 0.40."
            ),
            "{md}"
        );
        let mut md = String::new();
        comparisons(&mut md, &scores[..2], Protocol::Hub, &crawlers[..2]);
        assert!(!md.contains("blind"), "{md}");
    }

    #[test]
    fn where_soft_trails_the_report_gives_both_crawls_training_pages() {
        // Soft ahead at 100 pages, behind from 250 on.
        let soft = scored(Crawler::Soft, vec![1; 300], vec![5; 300]);
        let mut bfs_found = vec![0; 150];
        bfs_found.extend(vec![3; 150]);
        let bfs = scored(Crawler::BreadthFirst, bfs_found, vec![2; 300]);
        let mut lines = Vec::new();
        let crawlers = [Crawler::Soft, Crawler::BreadthFirst];
        training_fetched(&mut lines, &[soft, bfs], Protocol::Topic, &crawlers);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("soft 5 / 5, breadth-first 2 / 2"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains(
                "Music at 250 pages (1 against 3 scored pages; training pages 5 against 2)"
            ),
            "{}",
            lines[1]
        );
        assert!(!lines[1].contains("at 100 pages"), "{}", lines[1]);
        // Nothing to explain when soft never trails.
        let mut lines = Vec::new();
        let even = [
            scored(Crawler::Soft, vec![3; 300], vec![1; 300]),
            scored(Crawler::BreadthFirst, vec![3; 300], vec![1; 300]),
        ];
        training_fetched(&mut lines, &even, Protocol::Topic, &crawlers);
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
}
