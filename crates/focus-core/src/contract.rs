//! The crawl's output contract as types: one [`PageLine`] per fetch
//! attempt in `pages.jsonl`, and [`StopReason`] in `summary.json`. The
//! crawl writes them, the store exports them, and every reader (the
//! reproductions, the evaluations, a user's script in Rust) parses them
//! back with serde instead of spelling field names again.

use serde::{Deserialize, Deserializer, Serialize};

/// One line of `pages.jsonl`: one fetch attempt. Fields are declared in
/// the order they are written (alphabetical, as the first writers did).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageLine {
    /// Body bytes received.
    #[serde(default)]
    pub bytes: u64,
    /// Best class as a topic path, when classified.
    #[serde(default)]
    pub class: Option<String>,
    /// Links from the seeds.
    #[serde(default)]
    pub depth: u32,
    /// Why the fetch failed, when it did (a fetch error's label, e.g.
    /// `timeout`, `robots_disallowed`, `http_404`).
    #[serde(default)]
    pub error: Option<String>,
    /// When the fetch finished (ms since the Unix epoch).
    #[serde(default)]
    pub fetched_at_ms: u64,
    /// The URL of the page it was found on (`None` for seeds).
    #[serde(default)]
    pub parent: Option<String>,
    /// Relevance R(d) in [0, 1] (0 when not classified).
    #[serde(default)]
    pub relevance: f64,
    /// Ground truth, when the crawl ran on a web that has it (the websim
    /// or a replayed corpus): whether the page is relevant. Evaluation
    /// only: written next to the crawl's decisions, never read by them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevant_true: Option<bool>,
    /// HTTP status, or 0 when no response was received (`null` reads as 0).
    #[serde(default, deserialize_with = "null_as_zero")]
    pub status: u16,
    /// The canonical URL requested.
    pub url: String,
}

fn null_as_zero<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
    Ok(Option::<u16>::deserialize(d)?.unwrap_or(0))
}

impl PageLine {
    /// Parses one line of `pages.jsonl`.
    pub fn parse(line: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(line)
    }
}

/// Why a crawl stopped (`summary.json`'s `stopped_because`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum StopReason {
    /// It made `--max-pages` fetch attempts.
    #[default]
    #[serde(rename = "max pages")]
    MaxPages,
    /// Ctrl-C (or the stop flag): it finished the batch and stopped.
    #[serde(rename = "interrupted")]
    Interrupted,
    /// `--time-limit` passed.
    #[serde(rename = "time limit")]
    TimeLimit,
    /// No URL was left to fetch.
    #[serde(rename = "frontier empty")]
    FrontierEmpty,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::MaxPages => "max pages",
            StopReason::Interrupted => "interrupted",
            StopReason::TimeLimit => "time limit",
            StopReason::FrontierEmpty => "frontier empty",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_in_the_written_order() {
        let line = PageLine {
            bytes: 10,
            class: Some("a/b".into()),
            depth: 1,
            error: None,
            fetched_at_ms: 5,
            parent: None,
            relevance: 0.5,
            relevant_true: Some(true),
            status: 200,
            url: "http://a.test/".into(),
        };
        let text = serde_json::to_string(&line).unwrap();
        assert_eq!(
            text,
            r#"{"bytes":10,"class":"a/b","depth":1,"error":null,"fetched_at_ms":5,"parent":null,"relevance":0.5,"relevant_true":true,"status":200,"url":"http://a.test/"}"#
        );
        assert_eq!(PageLine::parse(&text).unwrap(), line);
    }

    #[test]
    fn sparse_lines_of_other_writers_parse() {
        let l = PageLine::parse(r#"{"url":"http://a.test/x","status":null,"relevance":0.25,"final_url":"http://a.test/y"}"#).unwrap();
        assert_eq!((l.status, l.depth, l.relevant_true), (0, 0, None));
        assert_eq!(l.relevance, 0.25);
    }

    #[test]
    fn stop_reasons_keep_their_words() {
        assert_eq!(
            serde_json::to_string(&StopReason::FrontierEmpty).unwrap(),
            "\"frontier empty\""
        );
        assert_eq!(StopReason::TimeLimit.to_string(), "time limit");
    }
}
