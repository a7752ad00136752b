//! The crawl's output contract as types: one [`PageLine`] per fetch
//! attempt in `pages.jsonl` (with its [`Duplicate`] mark, when its
//! content repeats an earlier page's), and [`Summary`] with its
//! [`StopReason`] in `summary.json`. The
//! crawl writes them, the store exports them, and every reader (the
//! reproductions, the evaluations, a user's script in Rust) parses them
//! back with serde instead of spelling field names again.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

/// The `error` label of a URL robots.txt forbids: recorded in `pages.jsonl`
/// as an attempt, but no request was sent.
pub const ROBOTS_DISALLOWED: &str = "robots_disallowed";

/// One line of `texts.jsonl` (a crawl that keeps text,
/// `CrawlConfig::keep_text`): the title and main text of a fetched page
/// that is not a duplicate, for a local search index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextLine {
    /// The page's URL, as in `pages.jsonl` (a redirect's target is in
    /// its `final_url` there).
    pub url: String,
    /// Its title.
    pub title: String,
    /// Its main text (navigation and footer left out).
    pub text: String,
    /// The non-empty anchor texts of its out-links, in page order (what
    /// BINGO!'s neighbours feature space reads; absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    /// The anchor texts of the links to it that the crawl had seen when it
    /// judged the page (BINGO!'s predecessor anchors; kept only by a crawl
    /// that reads them, absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cited: Vec<String>,
}

/// One line of `pages.jsonl`: one fetch attempt. Fields are declared in
/// the order they are written (alphabetical, as the first writers did).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageLine {
    /// Which attempt at this URL the line records (1 for the first; a URL
    /// that failed transiently is tried again after fresh URLs).
    #[serde(default = "first_attempt")]
    pub attempt: u32,
    /// Body bytes received.
    #[serde(default)]
    pub bytes: u64,
    /// Best class as a topic path, when classified.
    #[serde(default)]
    pub class: Option<String>,
    /// Links from the seeds.
    #[serde(default)]
    pub depth: u32,
    /// Set when the page's text repeats a page fetched earlier in the
    /// crawl (exactly or within the near-duplicate threshold): the crawl
    /// did not expand it, learn from it or count it as harvest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<Duplicate>,
    /// Why the fetch failed, when it did (a fetch error's label, e.g.
    /// `timeout_total`, `robots_disallowed`, `status_404`).
    #[serde(default)]
    pub error: Option<String>,
    /// When the fetch finished (ms since the Unix epoch).
    #[serde(default)]
    pub fetched_at_ms: u64,
    /// Where the fetch ended when it was redirected (the page's links are
    /// this URL's, and the crawl never fetches it again); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
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
    /// Set when the attempt failed transiently and the URL went back to the
    /// frontier for another attempt (a later line records it); absent on a
    /// URL's last line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// HTTP status, or 0 when no response was received (`null` reads as 0).
    #[serde(default, deserialize_with = "null_as_zero")]
    pub status: u16,
    /// The canonical URL requested.
    pub url: String,
}

fn first_attempt() -> u32 {
    1
}

fn null_as_zero<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
    Ok(Option::<u16>::deserialize(d)?.unwrap_or(0))
}

impl PageLine {
    /// Parses one line of `pages.jsonl`.
    pub fn parse(line: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(line)
    }

    /// Whether the attempt received a page: a 2xx answer with no fetch
    /// error (not an error status, a refusal by robots.txt, a timeout or a
    /// skipped type).
    pub fn received_page(&self) -> bool {
        (200..300).contains(&self.status) && self.error.is_none()
    }

    /// What the fetch harvested, for harvest rates: its relevance, or 0 for
    /// a duplicate (its content had been harvested already).
    pub fn harvested_relevance(&self) -> f64 {
        if self.duplicate.is_some() {
            0.0
        } else {
            self.relevance
        }
    }
}

/// How a page was found to repeat another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicateKind {
    /// The canonical URL was seen.
    Url,
    /// The same path was fetched from the same IP address.
    IpPath,
    /// The exact same text was seen.
    Content,
    /// Text within the SimHash threshold of earlier text.
    NearContent,
}

/// A fetched page's content repeats an earlier page's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duplicate {
    /// How it repeats it.
    pub kind: DuplicateKind,
    /// The URL of the earlier page.
    pub of: String,
}

/// `summary.json` of the output contract.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Crawler personality (`soft`, `hard`, `bfs`, ...).
    pub crawler: String,
    /// Fetch attempts recorded.
    pub pages_fetched: u64,
    /// Fetched pages whose text repeated an earlier page's (marked in
    /// `pages.jsonl`, not expanded, not counted as harvest).
    #[serde(default)]
    pub duplicate_pages: u64,
    /// Fetch attempts that returned no page: an HTTP error status, a name
    /// that does not resolve, a refused, reset or timed-out connection, a
    /// body too large or of the wrong type (robots.txt refusals, which
    /// send no request, not included).
    #[serde(default)]
    pub failed_fetches: u64,
    /// Fetch attempts by outcome: `ok` for a page, otherwise the error's
    /// label (as in `pages.jsonl`); they add up to `pages_fetched`.
    #[serde(default)]
    pub attempts_by_outcome: BTreeMap<String, u64>,
    /// Of the attempts, those that failed transiently and put their URL
    /// back in the frontier.
    #[serde(default)]
    pub retried_attempts: u64,
    /// URLs the crawl gave up on, by the cause of their last attempt: a
    /// lasting answer (`status_404`, `redirect_loop`, `too_large`,
    /// `robots_disallowed`, ...) at once, a transient one after
    /// `--max-tries` attempts.
    #[serde(default)]
    pub abandoned_by_cause: BTreeMap<String, u64>,
    /// Roots of hosts fetched because a page of the host answered "gone"
    /// (404, 410) before the host had served the crawl a page (path
    /// ascent, `focus_crawl::ascent`; the default soft crawl and BINGO!'s
    /// link model only). They are counted in `pages_fetched` too.
    #[serde(default)]
    pub root_ascents: u64,
    /// Of them, the roots that answered with a page.
    #[serde(default)]
    pub root_ascents_answered: u64,
    /// Mean estimated relevance.
    pub harvest_rate_estimated: f64,
    /// Fetch attempts per second of wall time.
    pub pages_per_s: f64,
    /// Wall time in seconds.
    pub elapsed_s: f64,
    /// Ground truth: fraction of relevant pages (websim only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harvest_rate_true: Option<f64>,
    /// Ground truth over the last 1,000 pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harvest_rate_true_last_1000: Option<f64>,
    /// Ground truth: relevant pages found / relevant pages in the web.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recall_true: Option<f64>,
    /// Ground truth: pages of the good topics in the web. A crawl longer
    /// than about half of it uses its topic up, and its late harvest then
    /// says how much is left rather than how well it stays on topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevant_pages_true: Option<u64>,
    /// Why the crawl stopped.
    #[serde(default)]
    pub stopped_because: StopReason,
    /// URLs still queued.
    pub frontier_left: u64,
    /// The stagnation diagnosis, if one was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stagnation: Option<String>,
    /// Mean estimated relevance of pages reached by same-site links from
    /// relevant pages (weighted by the parent's relevance), if any were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_yield_same_site: Option<f64>,
    /// The same for cross-site links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_yield_cross_site: Option<f64>,
    /// Ground truth: fraction of fetched pages with known truth where the
    /// crawl's own judgement (R >= 0.5) equals the truth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_relevant_agreement: Option<f64>,
    /// Ground truth: of the pages judged relevant (R >= 0.5), the fraction
    /// truly relevant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_relevant_precision: Option<f64>,
    /// Ground truth: of the truly relevant pages fetched, the fraction
    /// judged relevant (R >= 0.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_relevant_recall: Option<f64>,
    /// Backlink requests made for pages judged on-topic (a crawl with
    /// backlink expansion; 0 otherwise). They are not fetch attempts.
    #[serde(default)]
    pub backlink_requests: u64,
    /// Parents those requests returned (each queued unless already seen).
    #[serde(default)]
    pub backlink_parents: u64,
    /// Times the default dispatch (`promising`) held back URLs of hosts
    /// that were ready to wait for a host with more promising ones
    /// (cooling, or at its in-flight limit): a batch sent short, or the
    /// crawl's clock moved on. Each costs
    /// wall time, not fetches; 0 with `--dispatch fill`, hard focus and
    /// the baselines.
    #[serde(default)]
    pub held_for_promising: u64,
    /// Fetch attempts the default crawl made one at a time while it looked
    /// for a foothold: after its seeds, until it judged a page relevant
    /// or had made 100 attempts (`dispatch::searching` in focus-crawl). 0
    /// when a seed was judged relevant, with `--dispatch fill`, and for
    /// the crawls without the link model.
    #[serde(default)]
    pub searched_one_at_a_time: u64,
    /// Links left out instead of queued because the robots.txt the crawl
    /// already holds for their origin disallows them (one per link met, so
    /// a URL linked from three pages counts three times). They cost no
    /// attempt; a URL queued before its origin's robots.txt was fetched is
    /// refused when its turn comes, as an attempt with the outcome
    /// `robots_disallowed`.
    #[serde(default)]
    pub robots_refused_links: u64,
    /// Seconds spent judging fetched pages (parse, featurise, classify,
    /// fingerprint), summed over the threads that judged them, in this run
    /// of the process (a resumed crawl counts from 0). On an otherwise idle
    /// machine it is the CPU time of that stage.
    #[serde(default)]
    pub judge_busy_s: f64,
    /// Seconds spent applying judged pages in crawl order (duplicate check,
    /// link scoring, frontier, store, `pages.jsonl`), in this run of the
    /// process: the crawl's one sequential stage.
    #[serde(default)]
    pub apply_busy_s: f64,
    /// Bytes the crawl's store (`store/`) takes on disk when the crawl
    /// ends, once the store is closed (and compacted, with
    /// `--compact-store`): what a crawl of this length needs besides its
    /// other outputs. 0 when the flushed store could not be closed (the
    /// crawl notes it).
    #[serde(default)]
    pub store_bytes: u64,
    /// With `--compact-store`, the store's bytes before it was compacted
    /// (absent when it was not: not asked for, or the compaction failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_bytes_before_compaction: Option<u64>,
}

/// Why a crawl stopped (`summary.json`'s `stopped_because`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum StopReason {
    /// It made `--max-pages` fetch attempts.
    #[default]
    #[serde(rename = "max pages")]
    MaxPages,
    /// Ctrl-C, SIGTERM (or the stop flag): it finished the batch and stopped.
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
            attempt: 1,
            bytes: 10,
            class: Some("a/b".into()),
            depth: 1,
            duplicate: None,
            error: None,
            fetched_at_ms: 5,
            final_url: None,
            parent: None,
            relevance: 0.5,
            relevant_true: Some(true),
            retry: false,
            status: 200,
            url: "http://a.test/".into(),
        };
        let text = serde_json::to_string(&line).unwrap();
        assert_eq!(
            text,
            r#"{"attempt":1,"bytes":10,"class":"a/b","depth":1,"error":null,"fetched_at_ms":5,"parent":null,"relevance":0.5,"relevant_true":true,"status":200,"url":"http://a.test/"}"#
        );
        assert_eq!(PageLine::parse(&text).unwrap(), line);
        // Lines written before attempts were numbered are first attempts.
        let old = text.replace(r#""attempt":1,"#, "");
        assert_eq!(PageLine::parse(&old).unwrap(), line);
    }

    #[test]
    fn a_retried_and_a_redirected_attempt_say_so() {
        let line = PageLine {
            attempt: 2,
            error: Some("status_503".into()),
            final_url: Some("http://a.test/new".into()),
            retry: true,
            status: 503,
            ..PageLine::parse(r#"{"url":"http://a.test/old"}"#).unwrap()
        };
        let text = serde_json::to_string(&line).unwrap();
        assert!(
            text.contains(r#""final_url":"http://a.test/new""#),
            "{text}"
        );
        assert!(text.contains(r#""retry":true"#), "{text}");
        assert_eq!(PageLine::parse(&text).unwrap(), line);
    }

    #[test]
    fn a_duplicate_is_marked_with_what_it_repeats() {
        let line = PageLine {
            attempt: 1,
            bytes: 1,
            class: None,
            depth: 0,
            duplicate: Some(Duplicate {
                kind: DuplicateKind::NearContent,
                of: "http://a.test/".into(),
            }),
            error: None,
            fetched_at_ms: 0,
            final_url: None,
            parent: None,
            relevance: 0.0,
            relevant_true: None,
            retry: false,
            status: 200,
            url: "http://mirror.test/".into(),
        };
        let text = serde_json::to_string(&line).unwrap();
        assert!(
            text.contains(r#""duplicate":{"kind":"near_content","of":"http://a.test/"},"error""#),
            "{text}"
        );
        assert_eq!(PageLine::parse(&text).unwrap(), line);
        assert_eq!(line.harvested_relevance(), 0.0);
    }

    #[test]
    fn a_summary_round_trips_and_old_summaries_parse() {
        let s = Summary {
            crawler: "soft".into(),
            pages_fetched: 3,
            duplicate_pages: 1,
            recall_true: Some(0.5),
            stopped_because: StopReason::FrontierEmpty,
            ..Summary::default()
        };
        let text = serde_json::to_string(&s).unwrap();
        assert!(
            text.contains(r#""stopped_because":"frontier empty""#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Summary>(&text).unwrap(), s);
        let old: Summary = serde_json::from_str(r#"{"crawler":"bfs","pages_fetched":2,"harvest_rate_estimated":0.5,"pages_per_s":1.0,"elapsed_s":2.0,"stopped_because":"max pages","frontier_left":0}"#).unwrap();
        assert_eq!((old.duplicate_pages, old.recall_true), (0, None));
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
