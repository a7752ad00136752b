//! The expert search's part of `bingo.md` (§5.3): per web, the needle,
//! what the short crawl found of its hidden pages, where they rank by
//! confidence and in the local search, and the query's top 10 (the
//! paper's Figure 5).

use std::fmt::Write as _;

use super::measures::{hits, ranked_positive, stored_urls, Summary};
use super::{Expert, ExpertCrawl, Portal, NEEDLE_MIN, NEEDLE_TRAINING, TOP};
use crate::repro::ReproConfig;

/// Appends the expert search's section for `sections` (web, slug, portal,
/// expert search).
pub(super) fn section(
    md: &mut String,
    cfg: &ReproConfig,
    sections: &[(String, &str, Portal, Expert)],
) {
    let n = cfg.pages;
    let _ = writeln!(
        md,
        "\n## Expert search (§5.3): a needle in a haystack\n\n\
         The needle is the web's smallest leaf topic with at least {NEEDLE_MIN} pages \
         (chosen by that rule in code). {NEEDLE_TRAINING} of its pages (its seed pages, as \
         above) are the training pages and seeds; the rest are hidden from training and are \
         what the search should find. One short crawl of {n} pages (learning phase {}), then \
         the local search (`bingo search`, default `combined` ranking) for the topic's query \
         (the web's `topic_query`: on the websim the head of the topic's vocabulary, on the \
         corpus the words of its name that most pages lack), over every indexed page and \
         with `--topic`, and the crawl result ranked by SVM confidence; the training pages \
         are left out of every ranking (the user has them). **Found** means fetched and kept \
         by the crawl, so in the local index. Each web's search runs twice from the same \
         training pages with the same budget: BINGO! as the paper gives it (`bingo \
         --child-priority paper`) and `bingo`'s default, the apprentice (the project's online \
         link model and host health joined to the harvest, `docs/bingo.md`). Beside them, a \
         breadth-first crawl from the same seeds with the same budget and fetcher \
         (`focus-soft --baseline bfs`).\n\n\
         | web | crawler | needle | pages | hidden | attempts | positively classified | hidden found | breadth-first found | hidden found and classified in the topic | at least half found | hidden in confidence top 10 | top 20 | seconds |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        super::learning_pages(n)
    );
    for (_, slug, _, e) in sections {
        for c in &e.crawls {
            expert_row(md, slug, e, c);
        }
    }
    md.push_str(
        "\n| web | crawler | query | hidden in search top 10 | top 20 | with `--topic`: top 10 | top 20 |\n|---|---|---|---|---|---|---|\n",
    );
    for (_, slug, _, e) in sections {
        let cell = |r: &Result<Vec<(String, f64)>, String>, k: usize| match r {
            Ok(h) => {
                let urls: Vec<String> = h.iter().map(|x| x.0.clone()).collect();
                format!("{} of {}", hits(&urls, k, &e.hidden), urls.len().min(k))
            }
            Err(err) => format!("error: {err}"),
        };
        for c in &e.crawls {
            let _ = writeln!(
                md,
                "| {slug} | {} | `{}` | {} | {} | {} | {} |",
                c.label,
                e.query,
                cell(&c.search, TOP[0]),
                cell(&c.search, TOP[1]),
                cell(&c.search_topic, TOP[0]),
                cell(&c.search_topic, TOP[1]),
            );
        }
    }
    for (web, _, _, e) in sections {
        top_results(md, web, e);
    }
    md.push_str(PAPER_EXPERT);
}

fn expert_row(md: &mut String, slug: &str, e: &Expert, c: &ExpertCrawl) {
    let a = &c.run.attempts;
    let stored = stored_urls(a);
    let found = e
        .hidden
        .iter()
        .filter(|u| stored.contains(u.as_str()))
        .count();
    let ranked: Vec<String> = ranked_positive(a)
        .into_iter()
        .filter(|u| !e.training.contains(u))
        .collect();
    let classified = hits(&ranked, usize::MAX, &e.hidden);
    let bfs = e.hidden.iter().filter(|u| e.baseline.contains(*u)).count();
    let half = if 2 * found >= e.hidden.len() {
        "yes"
    } else {
        "no"
    };
    let _ = writeln!(
        md,
        "| {slug} | {} | {} | {} | {} | {} | {} | {found} of {} ({:.2}) | {bfs} of {} ({:.2}) | {classified} | {half} | {} | {} | {:.0} |",
        c.label,
        e.topic,
        e.pages,
        e.hidden.len(),
        a.len(),
        Summary::of(a).positive,
        e.hidden.len(),
        found as f64 / e.hidden.len().max(1) as f64,
        e.hidden.len(),
        bfs as f64 / e.hidden.len().max(1) as f64,
        hits(&ranked, TOP[0], &e.hidden),
        hits(&ranked, TOP[1], &e.hidden),
        c.run.seconds,
    );
}

/// The query's top 10 over every indexed page of each crawl (the paper's
/// Figure 5).
fn top_results(md: &mut String, web: &str, e: &Expert) {
    for c in &e.crawls {
        let _ = writeln!(
            md,
            "\nTop {} for `{}` on {web}, {} (✓: a hidden page of {}):\n",
            TOP[0], e.query, c.label, e.topic
        );
        match &c.search {
            Ok(h) if !h.is_empty() => {
                for (url, score) in h.iter().take(TOP[0]) {
                    let mark = if e.hidden.contains(url) { " ✓" } else { "" };
                    let _ = writeln!(md, "- {score:.3} `{url}`{mark}");
                }
            }
            Ok(_) => md.push_str("- (no result)\n"),
            Err(err) => {
                let _ = writeln!(md, "- (the query failed: {err})");
            }
        }
    }
}

const PAPER_EXPERT: &str = "\nThe paper (ARIES recovery implementations, 7 training pages from \
Google's top 10): a 10-minute crawl visited about 17,000 URLs, 2,167 documents positively \
classified; the local search's top 10 for \"source code release\" held the open-source \
projects Shore and Minibase, and a Minibase page was among the top 10 by SVM confidence.\n";
