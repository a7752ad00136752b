//! How hits are ordered: [`Ranking`] (its weights' validation and its text
//! form, `FromStr`/`Display`, as the CLI spells it) and the scoring of the
//! candidate set: BM25, confidence and authority normalised over the
//! candidates and combined as a weighted sum.

use std::fmt;
use std::str::FromStr;

use tantivy::DocAddress;

use crate::SearchError;

/// How the documents matching a query are ordered (see the
/// [module docs](crate::index) for the candidate set and the normalisation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ranking {
    /// Tantivy's BM25 relevance.
    Text,
    /// The classifier's confidence for the document's topic.
    Confidence,
    /// The document's HITS authority.
    Authority,
    /// A weighted linear sum of the three, each normalised to [0, 1] over
    /// the candidates. Weights must be finite, non-negative and not all 0.
    Combined {
        /// Weight of the normalised BM25 score.
        text: f64,
        /// Weight of the normalised confidence.
        confidence: f64,
        /// Weight of the normalised authority.
        authority: f64,
    },
}

impl Ranking {
    /// The weights `"combined"` stands for: 0.5 text, 0.3 confidence, 0.2
    /// authority.
    pub const DEFAULT_COMBINED: Ranking = Ranking::Combined {
        text: 0.5,
        confidence: 0.3,
        authority: 0.2,
    };

    pub(super) fn validate(self) -> Result<Self, SearchError> {
        if let Ranking::Combined {
            text,
            confidence,
            authority,
        } = self
        {
            let w = [text, confidence, authority];
            if w.iter().any(|x| !x.is_finite() || *x < 0.0) || w.iter().all(|&x| x == 0.0) {
                return Err(SearchError::BadRanking(self.to_string()));
            }
        }
        Ok(self)
    }
}

impl fmt::Display for Ranking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ranking::Text => f.write_str("text"),
            Ranking::Confidence => f.write_str("confidence"),
            Ranking::Authority => f.write_str("authority"),
            Ranking::Combined {
                text,
                confidence,
                authority,
            } => write!(f, "combined:{text},{confidence},{authority}"),
        }
    }
}

impl FromStr for Ranking {
    type Err = SearchError;

    /// Parses `text`, `confidence`, `authority`, `combined` (weights
    /// 0.5/0.3/0.2) or `combined:T,C,A` (case-insensitive, spaces ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || SearchError::BadRanking(s.to_owned());
        let spec: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let ranking = match spec.as_str() {
            "text" => Ranking::Text,
            "confidence" => Ranking::Confidence,
            "authority" => Ranking::Authority,
            "combined" => Ranking::DEFAULT_COMBINED,
            other => {
                let weights = other.strip_prefix("combined:").ok_or_else(bad)?;
                let w: Vec<f64> = weights
                    .split(',')
                    .map(str::parse::<f64>)
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad())?;
                let [text, confidence, authority] = w[..] else {
                    return Err(bad());
                };
                Ranking::Combined {
                    text,
                    confidence,
                    authority,
                }
            }
        };
        ranking.validate().map_err(|_| bad())
    }
}

/// A candidate during re-ranking.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    pub(super) address: DocAddress,
    pub(super) text_score: f64,
    pub(super) confidence: f64,
    pub(super) authority: f64,
    pub(super) score: f64,
}

/// Sets each candidate's score under `ranking` (normalisation over the
/// candidates as the [module docs](crate::index) say).
pub(super) fn score(candidates: &mut [Candidate], ranking: Ranking) {
    match ranking {
        Ranking::Text => candidates.iter_mut().for_each(|c| c.score = c.text_score),
        Ranking::Confidence => candidates.iter_mut().for_each(|c| c.score = c.confidence),
        Ranking::Authority => candidates.iter_mut().for_each(|c| c.score = c.authority),
        Ranking::Combined {
            text,
            confidence,
            authority,
        } => {
            let fold = |f: fn(&Candidate) -> f64, init: f64, op: fn(f64, f64) -> f64| {
                candidates.iter().map(f).fold(init, op)
            };
            let max_text = fold(|c| c.text_score, 0.0, f64::max);
            let max_auth = fold(|c| c.authority, 0.0, f64::max);
            let min_conf = fold(|c| c.confidence, f64::INFINITY, f64::min);
            let max_conf = fold(|c| c.confidence, f64::NEG_INFINITY, f64::max);
            let ratio = |x: f64, d: f64| if d > 0.0 { x / d } else { 0.0 };
            for c in candidates.iter_mut() {
                let t = ratio(c.text_score.max(0.0), max_text);
                let a = ratio(c.authority.max(0.0), max_auth);
                let k = ratio(c.confidence - min_conf, max_conf - min_conf);
                c.score = text * t + confidence * k + authority * a;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::test_corpus::{build, corpus, q, urls};
    use crate::index::SearchDoc;

    #[test]
    fn confidence_and_authority_rank_by_their_fields() {
        let (_dir, index) = build();
        let docs = corpus();
        for ranking in [Ranking::Confidence, Ranking::Authority] {
            let field = |d: &SearchDoc| match ranking {
                Ranking::Confidence => d.confidence,
                _ => d.authority,
            };
            let hits = index.search(&q("page", None, ranking, 20)).unwrap();
            let mut want: Vec<&SearchDoc> = docs.iter().collect();
            want.sort_by(|a, b| field(b).total_cmp(&field(a)));
            let want: Vec<&str> = want[..20].iter().map(|d| d.url.as_str()).collect();
            assert_eq!(urls(&hits), want, "{ranking}");
            for h in &hits {
                let d = docs.iter().find(|d| d.url == h.url).unwrap();
                assert_eq!(h.score, field(d));
                assert_eq!((h.confidence, h.authority), (d.confidence, d.authority));
            }
            // Only matching documents are ranked.
            let hits = index.search(&q("wimbledon", None, ranking, 20)).unwrap();
            assert_eq!(hits.len(), 7);
            assert!(hits.windows(2).all(|w| w[0].score > w[1].score));
        }
    }

    #[test]
    fn combined_weights_move_the_order_as_expected() {
        let (_dir, index) = build();
        let order = |r: Ranking| {
            urls(&index.search(&q("wimbledon deuce", None, r, 100)).unwrap())
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let pure = |t, c, a| Ranking::Combined {
            text: t,
            confidence: c,
            authority: a,
        };
        assert_eq!(order(pure(1.0, 0.0, 0.0)), order(Ranking::Text));
        assert_eq!(order(pure(0.0, 2.0, 0.0)), order(Ranking::Confidence));
        assert_eq!(order(pure(0.0, 0.0, 0.5)), order(Ranking::Authority));
        assert_ne!(order(Ranking::Text), order(Ranking::Confidence));

        // The combined score is the documented weighted sum of normalised parts.
        let hits = index
            .search(&q("wimbledon deuce", None, pure(0.5, 0.3, 0.2), 100))
            .unwrap();
        let max_t = hits.iter().map(|h| h.text_score).fold(0.0, f64::max);
        let max_a = hits.iter().map(|h| h.authority).fold(0.0, f64::max);
        let min_c = hits
            .iter()
            .map(|h| h.confidence)
            .fold(f64::INFINITY, f64::min);
        let max_c = hits.iter().map(|h| h.confidence).fold(0.0, f64::max);
        for h in &hits {
            let want = 0.5 * h.text_score / max_t
                + 0.3 * (h.confidence - min_c) / (max_c - min_c)
                + 0.2 * h.authority / max_a;
            assert!((h.score - want).abs() < 1e-12, "{} vs {want}", h.score);
        }
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));

        // Shifting weight from text to confidence lifts the most confident
        // match and never lowers it.
        let most_confident = &index
            .search(&q("wimbledon deuce", None, Ranking::Confidence, 1))
            .unwrap()[0]
            .url;
        let rank_of = |r: Ranking| order(r).iter().position(|u| u == most_confident).unwrap();
        let ranks: Vec<usize> = [1.0, 0.8, 0.5, 0.2, 0.0]
            .into_iter()
            .map(|t| rank_of(pure(t, 1.0 - t, 0.0)))
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");
        assert!(ranks[0] > 0 && ranks[4] == 0, "{ranks:?}");
    }
    #[test]
    fn ranking_parses_from_cli_strings() {
        assert_eq!("text".parse::<Ranking>().unwrap(), Ranking::Text);
        assert_eq!(
            " Confidence ".parse::<Ranking>().unwrap(),
            Ranking::Confidence
        );
        assert_eq!("authority".parse::<Ranking>().unwrap(), Ranking::Authority);
        assert_eq!(
            "combined".parse::<Ranking>().unwrap(),
            Ranking::Combined {
                text: 0.5,
                confidence: 0.3,
                authority: 0.2
            }
        );
        assert_eq!(
            "combined:0.6, 0.2,0.2".parse::<Ranking>().unwrap(),
            Ranking::Combined {
                text: 0.6,
                confidence: 0.2,
                authority: 0.2
            }
        );
        let r = "combined:1,0,3".parse::<Ranking>().unwrap();
        assert_eq!(r.to_string().parse::<Ranking>().unwrap(), r);
        for bad in [
            "",
            "bm25",
            "combined:",
            "combined:1,2",
            "combined:1,2,3,4",
            "combined:-1,1,1",
            "combined:0,0,0",
            "combined:nan,1,1",
            "combined:a,b,c",
        ] {
            assert!(
                matches!(bad.parse::<Ranking>(), Err(SearchError::BadRanking(_))),
                "{bad}"
            );
        }
    }
}
