//! Running a [`Query`] against a [`LocalIndex`]: parsing the query text,
//! the topic filter, collecting the BM25 candidate set, re-ranking it and
//! assembling the best [`Hit`]s (equal scores ordered by URL).

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{DocAddress, TantivyDocument, Term};

use super::local_index::{io_err, LocalIndex, SegmentColumns};
use super::ranking::{score, Candidate, Ranking};
use super::schema::normalise_topic;
use crate::SearchError;

/// Candidates re-ranked per query: `max(CANDIDATE_FACTOR·limit, MIN_CANDIDATES)`.
pub const MIN_CANDIDATES: usize = 1000;
/// See [`MIN_CANDIDATES`].
pub const CANDIDATE_FACTOR: usize = 10;

/// A search request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Query<'a> {
    /// Query text in tantivy's query language (plain words are OR-ed).
    pub text: &'a str,
    /// Restrict to this topic path and its subtopics (prefix on path
    /// segments: `a` matches `a` and `a/b`, not `ab`).
    pub topic: Option<&'a str>,
    /// The order of the results.
    pub ranking: Ranking,
    /// At most this many hits are returned.
    pub limit: usize,
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The page's URL.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// The page's topic path (normalised), if it had one.
    pub topic: Option<String>,
    /// The ranking's score (higher is better).
    pub score: f64,
    /// The raw BM25 score.
    pub text_score: f64,
    /// The stored classifier confidence.
    pub confidence: f64,
    /// The stored HITS authority.
    pub authority: f64,
}

impl LocalIndex {
    /// Runs `q` (see the [module docs](crate::index) for parsing, filtering and
    /// ranking). At most `q.limit` hits, best first, equal scores by URL.
    pub fn search(&self, q: &Query<'_>) -> Result<Vec<Hit>, SearchError> {
        let ranking = q.ranking.validate()?;
        let parsed = self
            .parser
            .parse_query(q.text)
            .map_err(|cause| SearchError::BadQuery {
                query: q.text.to_owned(),
                cause,
            })?;
        let mut has_term = false;
        parsed.query_terms(&mut |_, _| has_term = true);
        if !has_term {
            return Err(SearchError::EmptyQuery(q.text.to_owned()));
        }
        if q.limit == 0 {
            return Ok(Vec::new());
        }
        let query: Box<dyn tantivy::query::Query> = match q.topic.and_then(normalise_topic) {
            None => parsed,
            Some(topic) => {
                let filter = TermQuery::new(
                    Term::from_field_text(self.fields.topic_path, &topic),
                    IndexRecordOption::Basic,
                );
                Box::new(BooleanQuery::new(vec![
                    (Occur::Must, parsed),
                    (
                        Occur::Must,
                        Box::new(ConstScoreQuery::new(Box::new(filter), 0.0)),
                    ),
                ]))
            }
        };
        let pool = q.limit.saturating_mul(CANDIDATE_FACTOR).max(MIN_CANDIDATES);
        let top = self
            .searcher
            .search(&query, &TopDocs::with_limit(pool).order_by_score())?;
        let mut candidates = Vec::with_capacity(top.len());
        for (bm25, address) in top {
            let cols = self.segment(address)?;
            candidates.push(Candidate {
                address,
                text_score: f64::from(bm25),
                confidence: cols.confidence.first(address.doc_id).unwrap_or(0.0),
                authority: cols.authority.first(address.doc_id).unwrap_or(0.0),
                score: 0.0,
            });
        }
        score(&mut candidates, ranking);
        // Keep what can reach the top `limit`, ties at the boundary included,
        // before reading URLs.
        if candidates.len() > q.limit {
            let mut scores: Vec<f64> = candidates.iter().map(|c| c.score).collect();
            let (_, &mut threshold, _) =
                scores.select_nth_unstable_by(q.limit - 1, |a, b| b.total_cmp(a));
            candidates.retain(|c| c.score.total_cmp(&threshold) != Ordering::Less);
        }
        let mut ranked = Vec::with_capacity(candidates.len());
        for c in candidates {
            let url = self.url(c.address)?;
            ranked.push((c, url));
        }
        ranked.sort_by(|(a, ua), (b, ub)| b.score.total_cmp(&a.score).then_with(|| ua.cmp(ub)));
        ranked.truncate(q.limit);
        ranked
            .into_iter()
            .map(|(c, url)| self.hit(c, url))
            .collect()
    }

    fn segment(&self, address: DocAddress) -> Result<&SegmentColumns, SearchError> {
        self.columns
            .get(address.segment_ord as usize)
            .ok_or_else(|| {
                SearchError::Engine(tantivy::TantivyError::InternalError(format!(
                    "segment {} out of range",
                    address.segment_ord
                )))
            })
    }

    fn url(&self, address: DocAddress) -> Result<String, SearchError> {
        let col = &self.segment(address)?.url;
        let mut url = String::new();
        if let Some(ord) = col.term_ords(address.doc_id).next() {
            col.ord_to_str(ord, &mut url)
                .map_err(io_err("read the url column of", &self.dir))?;
        }
        Ok(url)
    }

    fn hit(&self, c: Candidate, url: String) -> Result<Hit, SearchError> {
        let doc: TantivyDocument = self.searcher.doc(c.address)?;
        let text = |field: Field| {
            doc.get_first(field)
                .and_then(|v| v.as_str().map(str::to_owned))
        };
        Ok(Hit {
            url,
            title: text(self.fields.title).unwrap_or_default(),
            topic: text(self.fields.topic),
            score: c.score,
            text_score: c.text_score,
            confidence: c.confidence,
            authority: c.authority,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::index::test_corpus::{build, corpus, doc, has_word, q, topic_of, urls};

    #[test]
    fn text_ranking_finds_exactly_the_matching_docs_and_all_words_first() {
        let (_dir, index) = build();
        assert_eq!(index.len(), 200);
        let docs = corpus();
        let hits = index
            .search(&q("wimbledon", None, Ranking::Text, 50))
            .unwrap();
        let want: BTreeSet<&str> = docs
            .iter()
            .filter(|d| has_word(d, "wimbledon"))
            .map(|d| d.url.as_str())
            .collect();
        assert_eq!(want.len(), 7);
        assert_eq!(urls(&hits).into_iter().collect::<BTreeSet<_>>(), want);
        assert!(hits
            .iter()
            .all(|h| h.text_score > 0.0 && h.score == h.text_score));
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));

        // Two words: every document holding both outranks every document
        // holding one; nothing else matches.
        let hits = index
            .search(&q("wimbledon deuce", None, Ranking::Text, 200))
            .unwrap();
        let by_url = |u: &str| docs.iter().find(|d| d.url == u).unwrap();
        let both = docs
            .iter()
            .filter(|d| has_word(d, "wimbledon") && has_word(d, "deuce"))
            .count();
        let any = docs
            .iter()
            .filter(|d| has_word(d, "wimbledon") || has_word(d, "deuce"))
            .count();
        assert!(both > 0 && any > both);
        assert_eq!(hits.len(), any);
        for (rank, h) in hits.iter().enumerate() {
            let d = by_url(&h.url);
            assert_eq!(
                has_word(d, "wimbledon") && has_word(d, "deuce"),
                rank < both,
                "{rank}: {}",
                h.url
            );
        }
    }

    #[test]
    fn topic_filter_takes_subtopics_but_not_name_prefixes() {
        let (_dir, index) = build();
        for filter in ["science", "/science/", "science//"] {
            let hits = index
                .search(&q("page", Some(filter), Ranking::Text, 500))
                .unwrap();
            let want: BTreeSet<String> = (0..200)
                .filter(
                    |&i| matches!(topic_of(i), Some(t) if t == "science" || t.contains("crawling")),
                )
                .map(|i| corpus()[i].url.clone())
                .collect();
            let got: BTreeSet<String> = hits.iter().map(|h| h.url.clone()).collect();
            assert_eq!(got, want, "filter {filter}");
            let topics: BTreeSet<&str> = hits.iter().filter_map(|h| h.topic.as_deref()).collect();
            assert_eq!(topics, BTreeSet::from(["science", "science/crawling"]));
        }
        let hits = index
            .search(&q("page", Some("science/crawling"), Ranking::Text, 500))
            .unwrap();
        assert!(!hits.is_empty());
        assert!(hits
            .iter()
            .all(|h| h.topic.as_deref() == Some("science/crawling")));
        let hits = index
            .search(&q("page", Some("sciencefiction"), Ranking::Text, 500))
            .unwrap();
        assert_eq!(
            hits.len(),
            (0..200)
                .filter(|&i| topic_of(i) == Some("sciencefiction"))
                .count()
        );
        // The filter does not change text scores.
        let all = index
            .search(&q("spider", None, Ranking::Text, 500))
            .unwrap();
        let filtered = index
            .search(&q("spider", Some("science"), Ranking::Text, 500))
            .unwrap();
        for h in &filtered {
            let same = all.iter().find(|a| a.url == h.url).unwrap();
            assert_eq!(same.text_score, h.text_score);
        }
        // The root does not restrict.
        let root = index
            .search(&q("page", Some("/"), Ranking::Text, 500))
            .unwrap();
        assert_eq!(root.len(), 200);
        assert!(index
            .search(&q("page", Some("nosuchtopic"), Ranking::Text, 10))
            .unwrap()
            .is_empty());
    }
    #[test]
    fn stemming_and_stop_words_apply_to_documents_and_queries() {
        let dir = tempfile::tempdir().unwrap();
        let index = LocalIndex::create(
            dir.path(),
            [
                doc("http://a/", "Crawled pages", "the spider crawled the web"),
                doc("http://b/", "Cooking", "recipes for the oven"),
            ],
        )
        .unwrap();
        let hits = index
            .search(&q("crawling", None, Ranking::Text, 10))
            .unwrap();
        assert_eq!(urls(&hits), ["http://a/"]);
        let hits = index.search(&q("Recipe", None, Ranking::Text, 10)).unwrap();
        assert_eq!(urls(&hits), ["http://b/"]);
        // "the" is a stop word: a query made only of stop words is an error,
        // and with other words it does not match everything.
        assert!(matches!(
            index.search(&q("the", None, Ranking::Text, 10)),
            Err(SearchError::EmptyQuery(_))
        ));
        let hits = index
            .search(&q("the oven", None, Ranking::Text, 10))
            .unwrap();
        assert_eq!(urls(&hits), ["http://b/"]);
        for empty in ["", "   ", "!!"] {
            assert!(matches!(
                index.search(&q(empty, None, Ranking::Text, 10)),
                Err(SearchError::EmptyQuery(_))
            ));
        }
        assert!(matches!(
            index.search(&q("nosuchfield:oven", None, Ranking::Text, 10)),
            Err(SearchError::BadQuery { .. })
        ));
        assert!(index
            .search(&q("oven", None, Ranking::Text, 0))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn equal_scores_are_ordered_by_url() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "http://e/",
            "http://b/",
            "http://d/",
            "http://a/",
            "http://c/",
        ];
        let index = LocalIndex::create(
            dir.path(),
            names.iter().map(|u| doc(u, "Same", "identical words here")),
        )
        .unwrap();
        for ranking in [
            Ranking::Text,
            Ranking::Confidence,
            Ranking::Authority,
            Ranking::DEFAULT_COMBINED,
        ] {
            let hits = index.search(&q("identical", None, ranking, 10)).unwrap();
            assert_eq!(
                urls(&hits),
                [
                    "http://a/",
                    "http://b/",
                    "http://c/",
                    "http://d/",
                    "http://e/"
                ]
            );
            // A limit that cuts through the tie keeps the smallest URLs.
            let hits = index.search(&q("identical", None, ranking, 2)).unwrap();
            assert_eq!(urls(&hits), ["http://a/", "http://b/"]);
        }
    }
}
