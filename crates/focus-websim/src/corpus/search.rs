//! A corpus's services: backlinks (sources ordered by their own in-degree,
//! as a search engine ranks popular pages first) and keyword search (BM25
//! over each page's title, counted three times, and the first
//! [`INDEXED_WORDS`] words of its visible text). Both are built on first
//! use, in one pass over the corpus.

use std::collections::HashMap;

use super::Corpus;
use crate::site::Site;

/// Words of a page's text that the keyword index holds (the title and the
/// lead of an article are what a search engine's snippet shows).
const INDEXED_WORDS: usize = 2000;
/// BM25 parameters (the usual defaults).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Backlinks of every page: sources, most linked-to first (ties by id).
pub(super) fn backlinks(corpus: &Corpus) -> Vec<Vec<u32>> {
    let mut back: Vec<Vec<u32>> = vec![Vec::new(); corpus.pages.len()];
    for (src, links) in corpus.out_links.iter().enumerate() {
        for &t in links {
            back[t as usize].push(src as u32);
        }
    }
    for list in &mut back {
        list.sort_by(|a, b| {
            corpus
                .in_degree(*b)
                .cmp(&corpus.in_degree(*a))
                .then(a.cmp(b))
        });
    }
    back
}

/// Lower-case alphanumeric words.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Visible text of an HTML page, roughly: tags and entities dropped.
pub(super) fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// An inverted index with BM25 scoring.
#[derive(Debug)]
pub(crate) struct SearchIndex {
    postings: HashMap<String, Vec<(u32, u32)>>,
    lengths: Vec<u32>,
    mean_length: f64,
}

impl SearchIndex {
    pub(super) fn build(corpus: &Corpus) -> Self {
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut lengths = Vec::with_capacity(corpus.pages.len());
        for pid in 0..corpus.page_count() {
            let title = &corpus.pages[pid as usize].title;
            let text = corpus.page_text(pid);
            let mut tf: HashMap<String, u32> = HashMap::new();
            let mut n = 0u32;
            for w in words(title) {
                *tf.entry(w).or_default() += 3;
                n += 3;
            }
            for w in words(&text).take(INDEXED_WORDS) {
                *tf.entry(w).or_default() += 1;
                n += 1;
            }
            lengths.push(n);
            for (w, c) in tf {
                postings.entry(w).or_default().push((pid, c));
            }
        }
        let mean_length =
            lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / lengths.len().max(1) as f64;
        Self {
            postings,
            lengths,
            mean_length: mean_length.max(1.0),
        }
    }

    /// Whether `word` is in more than half the indexed pages: a word that
    /// common selects nothing (a search engine's stop word, such as "it").
    pub(super) fn is_common(&self, word: &str) -> bool {
        self.postings
            .get(word)
            .is_some_and(|list| list.len() * 2 > self.lengths.len())
    }

    /// Up to `max` page ids by BM25 score of `query` (ties by id).
    pub(super) fn query(&self, query: &str, max: usize) -> Vec<u32> {
        let n = self.lengths.len() as f64;
        let mut score: HashMap<u32, f64> = HashMap::new();
        let mut terms: Vec<String> = words(query).collect();
        terms.sort();
        terms.dedup();
        for t in terms {
            let Some(list) = self.postings.get(&t) else {
                continue;
            };
            let df = list.len() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            for &(p, tf) in list {
                let len = f64::from(self.lengths[p as usize]);
                let tf = f64::from(tf);
                let s = idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / self.mean_length));
                *score.entry(p).or_default() += s;
            }
        }
        let mut hits: Vec<(u32, f64)> = score.into_iter().collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.into_iter().take(max).map(|(p, _)| p).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_tags_keeps_text() {
        assert_eq!(
            words(&strip_tags("<p>Hello <b>World</b></p>")).collect::<Vec<_>>(),
            vec!["hello", "world"]
        );
    }
}
