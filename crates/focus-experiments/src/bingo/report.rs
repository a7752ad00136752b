//! The BINGO! reproduction's markdown (`bingo.md`) and figures: per web,
//! Table 1's crawl summary per phase and budget, the archetypes, Tables
//! 2–3 (top authorities and topic pages among the crawl result ranked by
//! confidence) beside the paper's numbers, the portal's recall curve; then
//! the expert searches.

use std::collections::HashSet;
use std::fmt::Write as _;

use focus_app::AppError;
use focus_eval::Series;

use super::measures::{hits, positive_curve, ranked_positive, stored_urls, Summary};
use super::{Expert, Portal, BOOKMARKS, LONG};
use crate::repro::ReproConfig;
use crate::write;

/// Points on the recall curves.
const CURVE_STEP: usize = 25;

/// The whole report: `sections` are (web, slug, portal, expert search).
pub(super) fn report(
    cfg: &ReproConfig,
    with_corpus: bool,
    sections: &[(String, &str, Portal, Expert)],
) -> Result<String, AppError> {
    let corpus = match (&cfg.corpus, with_corpus) {
        (Some(dir), true) => format!(" --corpus {}", dir.display()),
        _ => String::new(),
    };
    let n = cfg.pages;
    let mut md = format!(
        "# BINGO! (Sizov et al. 2003): portal generation and expert search, reproduced\n\n\
         Written by `cargo xtask repro bingo --pages {n} --seed {seed}{corpus}` (every number \
         and figure below). Every crawl is `focus_app::run_bingo`, as the `bingo` binary runs \
         it, as the paper gives it (`--child-priority paper`; the expert searches and \
         the small-needle survey also run the default, the apprentice) and otherwise with its defaults (learning phase on \
         the training pages' domains, archetypes admitted when the SVM accepts them, 50 OTHERS \
         pages of the top-level categories that do not hold the topic, tunnelling 2). The training pages are the user's bookmarks and \
         the crawl's seeds: the topic's seed pages (on the websim pages of its most popular \
         hosts, on the corpus its most linked-to pages), standing in for the paper's \
         authoritative home pages and Google's first answers. On the websim the crawl reads \
         them from a bookmarks file (`bingo --bookmarks FILE --good TOPIC --connect-to \
         websim`); on the corpus from an example set (`bingo --corpus DIR --examples DIR \
         --seeds FILE`). A bookmarks crawl fetches with the real web's settings, so the \
         reproduction serves the websim with its one `Retry-After` (two minutes, the \
         unavailable host's) capped at the 5 s the loopback fetcher allows; the web is \
         otherwise the default one, page for page. Truth (a page's topic, in-degrees) is the \
         web's and is used for scoring only.\n\n",
        seed = cfg.seed,
    );
    if !with_corpus {
        let _ = writeln!(
            md,
            "**The corpus cases were skipped:** no corpus at {}.\n",
            cfg.corpus
                .as_ref()
                .map_or("(none given)".into(), |d| d.display().to_string())
        );
    }
    let _ = writeln!(
        md,
        "## Portal generation for a single topic (§5.2, Tables 1–3)\n\n\
         The paper: two home pages (three documents) and about 400 OTHERS train the SVM; the \
         learning phase admits 1,002 archetypes; harvesting ran 90 minutes (Table 2) and, \
         resumed, 12 hours (Table 3). Here: {BOOKMARKS} bookmarks; one crawl of {long} pages \
         (learning phase {learning} of them; harvesting gets the rest of the budget whether \
         or not learning used its share), read after its first {n} attempts (the paper's \
         90 minutes) and at its end (12 hours). The yardstick standing in for \"the top 1,000 \
         DBLP authors\" is the topic's **top authorities**: its pages (the bookmarks left out) \
         ranked by in-degree in the whole web (distinct pages linking to them; on the websim \
         content links only, not navigation menus), the top tenth of the topic, at least 10 \
         and at most 100 (K). A page is positively classified when the SVM tree puts it in \
         the topic; the crawl result is ranked by the classifier's confidence in the topic (the \
         crawl's relevance; a page's latest judgement wins, as in the local index), and \"best K\" and \"best 5K\" stand for the \
         paper's best 1,000 and 5,000.\n",
        long = LONG * n,
        learning = super::learning_pages(n),
    );
    for (web, slug, p, _) in sections {
        portal_section(&mut md, cfg, web, slug, p)?;
    }
    md.push_str(PAPER_PORTAL);
    super::expert_report::section(&mut md, cfg, sections);
    Ok(md)
}

fn portal_section(
    md: &mut String,
    cfg: &ReproConfig,
    web: &str,
    slug: &str,
    p: &Portal,
) -> Result<(), AppError> {
    let a = &p.run.attempts;
    let short = &a[..p.short.min(a.len())];
    let k = p.authorities.len();
    let _ = writeln!(
        md,
        "### {web}: {}\n\n\
         Bookmarks: {}. OTHERS: {} pages. The topic has {} further pages; the yardstick is \
         its top K = {k} authorities (in-degree {} to {}). The crawl took {:.0} s.\n",
        p.topic,
        p.bookmarks
            .iter()
            .map(|u| format!("`{u}`"))
            .collect::<Vec<_>>()
            .join(", "),
        p.others,
        p.truth.len(),
        p.degrees.0,
        p.degrees.1,
        p.run.seconds,
    );
    let cols = [
        Summary::of(&a[..p.run.learning]),
        Summary::of(&a[p.run.learning..]),
        Summary::of(short),
        Summary::of(a),
    ];
    let _ = writeln!(
        md,
        "Table 1, crawl summary (depth counts links from the phase's own seeds):\n\n\
         | property | learning phase | harvesting phase | first {} attempts (90 minutes) | all {} (12 hours) |\n|---|---|---|---|---|",
        short.len(),
        a.len()
    );
    let row = |md: &mut String, name: &str, f: &dyn Fn(&Summary) -> String| {
        let cells: Vec<String> = cols.iter().map(f).collect();
        let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
    };
    row(md, "visited URLs", &|s| s.visited.to_string());
    row(md, "stored pages", &|s| s.stored.to_string());
    row(md, "extracted links", &|s| s.links.to_string());
    row(md, "positively classified", &|s| s.positive.to_string());
    row(md, "visited hosts", &|s| s.hosts.to_string());
    row(md, "max crawling depth", &|s| s.max_depth.to_string());
    let o = &p.run.outcome;
    let admitted: Vec<_> = o.archetypes.iter().filter(|x| x.admitted).collect();
    let training = o
        .training
        .iter()
        .find(|t| t.0 == p.topic)
        .map_or("?".into(), |t| format!("{} → {}", t.1, t.2));
    let xi = o
        .precision
        .iter()
        .find(|t| t.0 == p.topic)
        .map_or("–".into(), |t| format!("{:.2}", t.1));
    let stopped = serde_json::to_string(&o.learning.stopped_because)
        .unwrap_or_default()
        .replace('"', "");
    let _ = writeln!(
        md,
        "\nThe learning phase stopped after {} attempts ({stopped}). Archetype candidates: {}; \
         admitted: {} ({} among the top authorities, {} among the top confidences); the topic's \
         training pages {training}; ξα precision estimate of its SVM after retraining {xi}.\n",
        p.run.learning,
        o.archetypes.len(),
        admitted.len(),
        admitted.iter().filter(|x| x.by_authority).count(),
        admitted.iter().filter(|x| x.by_confidence).count(),
    );
    let budgets = [(short, "short"), (&a[..], "long")];
    let ranked: Vec<Vec<String>> = budgets.iter().map(|(b, _)| ranked_positive(b)).collect();
    let stored: Vec<Vec<String>> = budgets
        .iter()
        .map(|(b, _)| stored_urls(b).into_iter().map(str::to_owned).collect())
        .collect();
    let _ = writeln!(
        md,
        "Tables 2–3 (top authorities and topic pages among the crawl result, best confidence \
         first; distinct pages, where Table 1 counts attempts):\n\n\
         | crawl result | top-{k} authorities @{} | topic pages @{} | top-{k} authorities @{} | topic pages @{} |\n|---|---|---|---|---|",
        short.len(),
        short.len(),
        a.len(),
        a.len()
    );
    let cells = |list: &[String], n: usize| {
        let shown = list.len().min(n);
        let t = hits(list, n, &p.truth);
        format!(
            "{} | {t} ({:.2})",
            hits(list, n, &p.authorities),
            t as f64 / shown.max(1) as f64
        )
    };
    for (name, n) in [("best K", k), ("best 5K", 5 * k)] {
        let _ = writeln!(
            md,
            "| {name} ({n}) | {} | {} |",
            cells(&ranked[0], n),
            cells(&ranked[1], n)
        );
    }
    let _ = writeln!(
        md,
        "| all positively classified ({} / {}) | {} | {} |",
        ranked[0].len(),
        ranked[1].len(),
        cells(&ranked[0], usize::MAX),
        cells(&ranked[1], usize::MAX)
    );
    let _ = writeln!(
        md,
        "| every stored page ({} / {}) | {} | {} |",
        stored[0].len(),
        stored[1].len(),
        cells(&stored[0], usize::MAX),
        cells(&stored[1], usize::MAX)
    );
    let recall = |list: &[String], set: &HashSet<String>| {
        hits(list, usize::MAX, set) as f64 / set.len().max(1) as f64
    };
    let _ = writeln!(
        md,
        "\nRecall of the top {k} authorities among the positively classified pages: {:.2} after \
         {} attempts, {:.2} after {} (paper: 0.22 → 0.71); of all the topic's pages: {:.2} → {:.2}. \
         In brackets: the share of topic pages among those results (precision).\n",
        recall(&ranked[0], &p.authorities),
        short.len(),
        recall(&ranked[1], &p.authorities),
        a.len(),
        recall(&ranked[0], &p.truth),
        recall(&ranked[1], &p.truth),
    );
    let fig = format!("bingo-portal-{slug}.svg");
    write(
        &cfg.out.join(&fig),
        &focus_eval::line_chart(
            &format!("portal {} — {slug}: classified into the topic", p.topic),
            "fetch attempts (both phases)",
            "share found",
            &[
                Series {
                    name: format!("top {k} authorities"),
                    points: positive_curve(a, &p.authorities, CURVE_STEP),
                },
                Series {
                    name: "all topic pages".into(),
                    points: positive_curve(a, &p.truth, CURVE_STEP),
                },
            ],
        ),
    )?;
    let _ = writeln!(md, "![portal recall]({fig})\n");
    Ok(())
}

const PAPER_PORTAL: &str =
    "The paper (database research, DBLP as yardstick; Table 1: 90 minutes / \
12 hours): 100,209 / 3,001,982 visited URLs, 38,176 / 992,663 stored pages, 1,029,553 / \
38,393,351 extracted links, 21,432 / 518,191 positively classified, 3,857 / 34,647 visited \
hosts, max depth 22 / 236. Table 2 (90 minutes), top-1000 DBLP authors / all authors among \
the best 1,000 results: 27 / 91; best 5,000: 79 / 498; all 21,432: 218 / 1,396. Table 3 (12 \
hours): best 1,000: 267 / 342; best 5,000: 401 / 1,325; all 518,191: 712 / 7,101. \"Most \
noteworthy is the good recall: we found 712 of the top 1000 DBLP authors\"; \"the precision \
is not yet as good as we wished it to be\".\n";
