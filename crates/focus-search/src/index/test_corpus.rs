//! Test fixtures shared by the index's unit tests: a 200-page corpus over
//! three vocabularies (crawling, tennis, cooking) with nested, prefix-alike
//! and missing topics, an index built from it, and query helpers.

use super::{Hit, LocalIndex, Query, Ranking, SearchDoc};

const CRAWL: [&str; 10] = [
    "crawler",
    "frontier",
    "spider",
    "fetch",
    "robots",
    "politeness",
    "hyperlink",
    "harvest",
    "queue",
    "seed",
];
const TENNIS: [&str; 10] = [
    "racket",
    "serve",
    "volley",
    "tournament",
    "umpire",
    "baseline",
    "backhand",
    "forehand",
    "deuce",
    "ace",
];
const COOK: [&str; 10] = [
    "recipe", "oven", "flour", "saute", "simmer", "garlic", "butter", "knead", "roast", "pepper",
];

pub(super) fn topic_of(i: usize) -> Option<&'static str> {
    if i % 50 == 49 {
        return None;
    }
    Some(match (i % 3, i % 18) {
        (0, 0 | 9) => "science",
        (0, 3 | 12) => "sciencefiction",
        (0, 6) => "/science//crawling/",
        (0, _) => "science/crawling",
        (1, _) => "sports/tennis",
        _ => "cooking",
    })
}

pub(super) fn corpus() -> Vec<SearchDoc> {
    (0..200)
        .map(|i| {
            let vocab = [CRAWL, TENNIS, COOK][i % 3];
            let mut words: Vec<&str> = (0..6).map(|j| vocab[(i * 3 + j * j) % 10]).collect();
            if i % 30 == 1 {
                words.push("wimbledon");
            }
            words.push("page");
            SearchDoc {
                url: format!("http://site{}.example/p{i}", i % 7),
                title: format!("{} page {i}", ["Crawling", "Tennis", "Cooking"][i % 3]),
                text: words.join(" "),
                topic: topic_of(i).map(str::to_owned),
                confidence: ((i * 37) % 200) as f64 / 200.0,
                authority: ((i * 53) % 200) as f64 / 1000.0,
            }
        })
        .collect()
}

pub(super) fn build() -> (tempfile::TempDir, LocalIndex) {
    let dir = tempfile::tempdir().unwrap();
    let index = LocalIndex::create(dir.path(), corpus()).unwrap();
    (dir, index)
}

pub(super) fn q<'a>(
    text: &'a str,
    topic: Option<&'a str>,
    ranking: Ranking,
    limit: usize,
) -> Query<'a> {
    Query {
        text,
        topic,
        ranking,
        limit,
    }
}

pub(super) fn urls(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.url.as_str()).collect()
}

pub(super) fn has_word(doc: &SearchDoc, w: &str) -> bool {
    doc.text
        .split(' ')
        .chain(doc.title.split(' '))
        .any(|x| x == w)
}
pub(super) fn doc(url: &str, title: &str, text: &str) -> SearchDoc {
    SearchDoc {
        url: url.into(),
        title: title.into(),
        text: text.into(),
        topic: None,
        confidence: 0.5,
        authority: 0.0,
    }
}
