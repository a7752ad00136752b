//! The real-corpus evaluation's report: runs the crawls
//! ([`super::crawls::run_all`]) and writes `<corpus>.md` (`wikispeedia.md`)
//! with its tables and the recall curves (`<corpus>/*.svg`) from the scores
//! alone.

use std::fmt::Write as _;
use std::time::Instant;

use focus_eval::{line_chart, Series};
use focus_websim::{Corpus, Site};

use super::crawls::{
    eval_command, input, run_all, Crawler, EvalConfig, Protocol, Scored, BUDGETS, HUB_SEEDS,
    TOPIC_SEEDS,
};
use super::split::TRAIN_SHARE;
use focus_app::AppError;

/// Points on a recall curve.
const CURVE_STEP: usize = 10;

use crate::write;

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    s / n.max(1) as f64
}

fn of(
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

/// Runs the evaluation and writes `<corpus>.md` (`wikispeedia.md`) and its
/// SVGs to `cfg.out`. Returns the report.
pub async fn crawl_report(cfg: &EvalConfig) -> Result<String, AppError> {
    let started = Instant::now();
    let corpus = Corpus::load(&cfg.corpus).map_err(input)?;
    let name = corpus.name().to_owned();
    std::fs::create_dir_all(cfg.out.join(&name)).map_err(input)?;
    let scores = run_all(cfg, &corpus).await?;
    let crawlers: Vec<Crawler> = Crawler::ALL
        .into_iter()
        .filter(|c| scores.iter().any(|s| s.crawler == *c))
        .collect();
    let md = render(
        cfg,
        &corpus,
        &scores,
        &crawlers,
        started.elapsed().as_secs(),
    );
    for protocol in [Protocol::Hub, Protocol::Topic] {
        let series: Vec<Series> = crawlers
            .iter()
            .map(|&c| Series {
                name: c.name().to_owned(),
                points: curve(
                    of(&scores, protocol, c).collect::<Vec<_>>().as_slice(),
                    cfg.pages,
                ),
            })
            .collect();
        let title = format!(
            "{}, {}: mean recall over {} categories",
            capitalise(&name),
            protocol.name(),
            cfg.categories.len()
        );
        write(
            &cfg.out.join(format!("{name}/mean-{}.svg", slug(protocol))),
            &line_chart(&title, "pages fetched", "recall of held-out pages", &series),
        )?;
        for category in &cfg.categories {
            let series: Vec<Series> = crawlers
                .iter()
                .filter_map(|&c| {
                    find(&scores, category, protocol, c).map(|s| Series {
                        name: c.name().to_owned(),
                        points: curve(&[s], cfg.pages),
                    })
                })
                .collect();
            let title = format!("{category}, {}", protocol.name());
            write(
                &cfg.out.join(format!(
                    "{name}/{}-{}.svg",
                    category.replace('/', "-"),
                    slug(protocol)
                )),
                &line_chart(&title, "pages fetched", "recall of held-out pages", &series),
            )?;
        }
    }
    write(&cfg.out.join(format!("{name}.md")), &md)?;
    Ok(md)
}

fn slug(p: Protocol) -> &'static str {
    match p {
        Protocol::Hub => "hub",
        Protocol::Topic => "topic",
    }
}

/// Mean recall over `scores` after every [`CURVE_STEP`] pages.
fn curve(scores: &[&Scored], pages: usize) -> Vec<(f64, f64)> {
    (0..=pages)
        .step_by(CURVE_STEP)
        .map(|n| {
            let r = if n == 0 {
                0.0
            } else {
                mean(scores.iter().map(|s| s.recall_at(n)))
            };
            (n as f64, r)
        })
        .collect()
}

fn render(
    cfg: &EvalConfig,
    corpus: &Corpus,
    scores: &[Scored],
    crawlers: &[Crawler],
    secs: u64,
) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Crawlers on a labelled corpus: {title}\n\n\
         Generated by `{command}` (seed {seed}, {secs} s on this machine). \
         The corpus (`{path}`: {pages} pages on {hosts} {host_word}, {links} links between \
         them, {cats} topics) is replayed on loopback by `focus-websim`'s corpus server \
         and crawled over HTTP. A seeded {share:.0} % of every category's pages are training \
         pages: every crawler gets them as one example-set folder and marks the evaluated \
         category good. A crawl is scored on the category's other pages (subtopics included), \
         seeds excepted; fetching a training page earns nothing. *Hub seeds* are the {HUB_SEEDS} \
         most linked-to pages (the same for every category); *topic seeds* are {TOPIC_SEEDS} \
         held-out pages of the category. Recall is the share of the scored pages fetched \
         within the budget (a page counts when an attempt received it: an attempt that got an \
         error or a refusal spends the budget and finds nothing); harvest is scored pages per \
         fetch attempt.\n\n\
         Crawlers: `soft` and `hard` are `focus-soft` and `focus-hard` with their defaults; \
         `soft, previous default` is `focus-soft --relevance exact --child-priority learnt` (the \
         default before tempered relevance and the link model); `bingo` is `bingo` with its \
         defaults, its learning phase on a fifth of the budget, and `bingo, paper's priority` \
         is `bingo --child-priority paper`; \
         `breadth-first` and `random` are `focus-soft --baseline bfs` and `--baseline random`; `sklearn \
         reference` is `xtask/reference/crawl_sklearn.py` (soft focus with a scikit-learn \
         logistic regression on TF-IDF, no distiller; run only where scikit-learn is \
         installed). `oracle (bound)` is not a crawler: it walks the corpus's link graph from \
         the same seeds knowing every discovered page's label before fetching it (scored pages \
         first, then the category's other pages, then pages by how many category pages they \
         link to), so it bounds what any crawler, with a perfect link classifier, finds within \
         the budget; pages it never finds are not reachable in time from the seeds. Its graph \
         holds only links between the corpus's pages, so where a corpus has dead links it \
         also knows them and spends no fetch on them. `oracle blind to the split` walks the \
         same graph knowing every label but not which of the category's pages are training \
         pages (the crawlers get the examples' text, not their URLs): it takes the category's \
         pages as it finds them, so what it finds is what a perfect link classifier could \
         expect to find, and the oracle's lead over it is what knowing the split is worth.\n",
        title = capitalise(corpus.name()),
        command = eval_command(cfg, corpus),
        path = cfg.corpus.display(),
        hosts = corpus.host_count(),
        host_word = if corpus.host_count() == 1 { "host" } else { "hosts" },
        seed = cfg.seed,
        pages = corpus.page_count(),
        links = corpus.link_count(),
        cats = corpus.taxonomy().len() - 1,
        share = TRAIN_SHARE * 100.0,
    );
    if crawlers.contains(&Crawler::SoftSequential) {
        let _ = writeln!(
            md,
            "`soft, one fetch at a time` is `focus-soft --concurrency 1`: the default crawl \
             taking its next decision after every fetch, as the reference does, instead of \
             after every batch of 32 (a batch also holds at most two URLs of a host that asks \
             for no interval, so on a one-host corpus the two differ little).\n"
        );
    }
    for protocol in [Protocol::Hub, Protocol::Topic] {
        let _ = writeln!(
            md,
            "## {}: mean over the {} categories\n",
            capitalise(protocol.name()),
            cfg.categories.len()
        );
        let mut head = String::from("| crawler |");
        let mut rule = String::from("|---|");
        for b in BUDGETS {
            let _ = write!(head, " recall@{b} |");
            rule.push_str("---|");
        }
        for b in BUDGETS {
            let _ = write!(head, " harvest@{b} |");
            rule.push_str("---|");
        }
        let _ = writeln!(md, "{head}\n{rule}");
        for &c in crawlers {
            let mut row = format!("| {} |", c.name());
            for b in BUDGETS {
                let _ = write!(row, " {:.3} |", mean_recall_at(scores, protocol, c, b));
            }
            for b in BUDGETS {
                let _ = write!(
                    row,
                    " {:.3} |",
                    mean(of(scores, protocol, c).map(|s| s.harvest_at(b)))
                );
            }
            let _ = writeln!(md, "{row}");
        }
        let _ = writeln!(
            md,
            "\n![mean recall, {0}]({2}/mean-{1}.svg)\n",
            protocol.name(),
            slug(protocol),
            corpus.name()
        );
        comparisons(&mut md, scores, protocol, crawlers);
    }
    let _ = writeln!(md, "## Per category\n");
    let _ = writeln!(
        md,
        "Recall at each budget (scored pages in brackets); curves in `{}/`.\n",
        cfg.out.join(corpus.name()).display()
    );
    for protocol in [Protocol::Hub, Protocol::Topic] {
        let _ = writeln!(md, "### {}\n", capitalise(protocol.name()));
        let mut head = String::from("| category | crawler |");
        let mut rule = String::from("|---|---|");
        for b in BUDGETS {
            let _ = write!(head, " @{b} |");
            rule.push_str("---|");
        }
        let _ = writeln!(md, "{head}\n{rule}");
        for category in &cfg.categories {
            for &c in crawlers {
                let Some(s) = find(scores, category, protocol, c) else {
                    continue;
                };
                let mut row = format!("| {category} ({}) | {} |", s.scored_total, c.name());
                for b in BUDGETS {
                    let _ = write!(row, " {:.3} |", s.recall_at(b));
                }
                let _ = writeln!(md, "{row}");
            }
        }
        md.push('\n');
    }
    md
}

/// How the default soft crawler compares with breadth-first and the
/// reference, category by category (the yardsticks of issue 21).
fn comparisons(md: &mut String, scores: &[Scored], protocol: Protocol, crawlers: &[Crawler]) {
    let soft = |cat: &str| find(scores, cat, protocol, Crawler::Soft);
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
            let (Some(s), Some(o)) = (soft(cat), find(scores, cat, protocol, other)) else {
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
            let (Some(c), Some(s)) = (
                find(scores, cat, protocol, Crawler::Context),
                find(scores, cat, protocol, Crawler::ContextStandard),
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
        let (Some(s), Some(o)) = (
            find(scores, cat, protocol, Crawler::Soft),
            find(scores, cat, protocol, Crawler::BreadthFirst),
        ) else {
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

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
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
