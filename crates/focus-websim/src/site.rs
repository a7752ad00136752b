//! [`Site`]: what the loopback server serves and the evaluation judges —
//! the synthetic [`Web`] or a replayed [`Corpus`](crate::Corpus). Every
//! crawler, test and benchmark runs on either through this one interface:
//! requests are answered by [`Site::render`], the backlink and search
//! services by [`Site::backlinks`] and [`Site::search`] (served on
//! [`Site::search_host`] by [`render_service`]), and the ground truth stays
//! on the evaluation side ([`Site::truth_topics`], [`Site::truth_count`],
//! [`Site::dump_truth`]).

use std::path::Path;

use focus_core::{Taxonomy, TopicId};

use crate::response::Response;
use crate::web::{PageRef, Web};
use crate::WebsimError;

/// A web the server can answer for and the evaluation can judge.
///
/// Page ids run from 0 to [`Site::page_count`] − 1. Ground-truth methods
/// (`truth_*`, `dump_truth`) are **evaluation only: no crawler may read
/// them.**
pub trait Site: Send + Sync + std::fmt::Debug {
    /// Answer `GET path_and_query` on `host` (port ignored,
    /// case-insensitive), the search host's services included.
    fn render(&self, host: &str, path_and_query: &str) -> Response;

    /// The topic tree every page's truth is a node of.
    fn taxonomy(&self) -> &Taxonomy;

    /// Number of regular pages.
    fn page_count(&self) -> u32;

    /// Number of regular hosts.
    fn host_count(&self) -> usize;

    /// The absolute URL of page `pid`.
    fn page_url(&self, pid: u32) -> Option<String>;

    /// The HTML of page `pid` as its host serves it, decoded to text.
    fn page_html(&self, pid: u32) -> Option<String>;

    /// The bytes of page `pid` as its host serves them (a stored page in
    /// its own charset).
    fn page_bytes(&self, pid: u32) -> Option<Vec<u8>> {
        self.page_html(pid).map(String::into_bytes)
    }

    /// The host name of the backlink and search services.
    fn search_host(&self) -> &str;

    /// Up to `max` URLs of pages linking to `url`.
    fn backlinks(&self, url: &str, max: usize) -> Vec<String>;

    /// Up to `max` URLs of pages matching the keyword `query`, best first.
    fn search(&self, query: &str, max: usize) -> Vec<String>;

    /// Seed URLs of `topic`: `n` distinct pages of it (deterministic; never
    /// among [`Site::sample`]'s pages).
    fn seed_urls(&self, topic: TopicId, n: usize) -> Vec<String>;

    /// Labelled example pages of `topic` (its subtopics included), disjoint
    /// from the seed URLs.
    fn sample(&self, topic: TopicId, n: usize) -> Vec<PageRef>;

    /// What a person who knows `topic` would type into the search service
    /// to find it (the query of collection synthesis, standing in for
    /// Bergmark's Google queries): by default the words of the topic's
    /// own name (`Science/Chemistry/Chemical_elements` → `chemical
    /// elements`); a corpus leaves out the words most of its pages hold.
    fn topic_query(&self, topic: TopicId) -> String {
        let path = self.taxonomy().path(topic);
        let last = path.rsplit('/').next().unwrap_or(path);
        last.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A topic by name: its path in [`Site::taxonomy`], or a spelling the
    /// site's source uses for it (a corpus's own category names).
    fn find_topic(&self, name: &str) -> Option<TopicId> {
        self.taxonomy().find(name)
    }

    /// **Ground truth, evaluation only.** The topics of the page at `url`
    /// (one for the synthetic web, one or more for a labelled corpus);
    /// empty for anything that is not a labelled page.
    fn truth_topics(&self, url: &str) -> Vec<TopicId>;

    /// **Ground truth, evaluation only.** Pages whose truth is `topic` or
    /// one of its subtopics (each page counted once).
    fn truth_count(&self, topic: TopicId) -> u64;

    /// **Ground truth, evaluation only.** Write `url<TAB>topic path` for
    /// every labelled page (one line per label).
    fn dump_truth(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;

    /// **Ground truth, evaluation only.** Whether the page at `url` is
    /// relevant to any of the `good` topics (`None` when the URL is not a
    /// labelled page).
    fn truth_relevant(&self, url: &str, good: &[TopicId]) -> Option<bool> {
        let topics = self.truth_topics(url);
        if topics.is_empty() {
            return None;
        }
        let tax = self.taxonomy();
        Some(
            topics
                .iter()
                .any(|&t| good.iter().any(|&g| tax.is_ancestor_or_self(g, t))),
        )
    }

    /// Write `per_topic` example pages of every leaf topic under `dir` in
    /// the example-set folder format (`DIR/<topic path>/page-NNNNNNN.html`);
    /// returns the number of files written.
    fn write_examples(&self, dir: &Path, per_topic: usize) -> Result<usize, WebsimError> {
        let mut written = 0;
        let tax = self.taxonomy();
        for leaf in tax.leaves() {
            let folder = dir.join(tax.path(leaf));
            std::fs::create_dir_all(&folder).map_err(io(&folder))?;
            for page in self.sample(leaf, per_topic) {
                // The page's bytes: an example keeps the charset it was
                // served in, as a page a user saves does.
                let Some(html) = self.page_bytes(page.id) else {
                    continue;
                };
                let file = folder.join(format!("page-{:07}.html", page.id));
                std::fs::write(&file, html).map_err(io(&file))?;
                written += 1;
            }
        }
        Ok(written)
    }
}

/// The I/O error of `path`, for `map_err`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> WebsimError {
    let path = path.display().to_string();
    move |cause| WebsimError::Io { path, cause }
}

/// One query parameter, percent-decoded (`+` is a space).
pub(crate) fn param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| {
            let v = v.replace('+', " ");
            percent_encoding::percent_decode_str(&v)
                .decode_utf8_lossy()
                .into_owned()
        })
    })
}

/// Words of a synthetic topic's query ([`Site::topic_query`]).
const QUERY_WORDS: usize = 3;

/// Largest answer a service gives.
pub(crate) const MAX_ANSWERS: usize = 1000;

/// The search host's answer to `path?query`: `/backlinks?url=URL&max=N`,
/// `/search?q=WORDS&max=N` (`&format=json` for a JSON array, else one URL
/// per line), an allow-all robots.txt and a usage page.
pub fn render_service(site: &(impl Site + ?Sized), path: &str, query: &str) -> Response {
    let max = param(query, "max")
        .and_then(|m| m.parse().ok())
        .unwrap_or(100usize)
        .min(MAX_ANSWERS);
    let json = param(query, "format").is_some_and(|f| f == "json");
    let list = match path {
        "/backlinks" => match param(query, "url") {
            Some(u) => site.backlinks(&u, max),
            None => return Response::new(400, "text/plain; charset=utf-8", "missing url=\n"),
        },
        "/search" => match param(query, "q") {
            Some(q) => site.search(&q, max),
            None => return Response::new(400, "text/plain; charset=utf-8", "missing q=\n"),
        },
        "/robots.txt" => {
            return Response::new(
                200,
                "text/plain; charset=utf-8",
                "User-agent: *\nDisallow:\n",
            )
        }
        "/" => return Response::new(
            200,
            "text/plain; charset=utf-8",
            "GET /backlinks?url=URL&max=N[&format=json]\nGET /search?q=WORDS&max=N[&format=json]\n",
        ),
        _ => return Response::not_found(),
    };
    if json {
        Response::new(
            200,
            "application/json",
            serde_json::to_string(&list).unwrap_or_default(),
        )
    } else {
        let mut s = list.join("\n");
        if !s.is_empty() {
            s.push('\n');
        }
        Response::new(200, "text/plain; charset=utf-8", s)
    }
}

impl Site for Web {
    fn render(&self, host: &str, path_and_query: &str) -> Response {
        Web::render(self, host, path_and_query)
    }
    fn taxonomy(&self) -> &Taxonomy {
        Web::taxonomy(self)
    }
    fn page_count(&self) -> u32 {
        Web::page_count(self)
    }
    fn host_count(&self) -> usize {
        Web::host_count(self)
    }
    fn page_url(&self, pid: u32) -> Option<String> {
        Web::page_url(self, pid)
    }
    fn page_html(&self, pid: u32) -> Option<String> {
        Web::page_html(self, pid)
    }
    fn search_host(&self) -> &str {
        Web::search_host(self)
    }
    fn backlinks(&self, url: &str, max: usize) -> Vec<String> {
        Web::backlinks(self, url, max)
    }
    fn search(&self, query: &str, max: usize) -> Vec<String> {
        Web::search(self, query, max)
    }
    /// The synthetic topics' names are not in their pages' text: the
    /// query is the head of the topic's own vocabulary instead, the words
    /// its pages use most.
    fn topic_query(&self, topic: TopicId) -> String {
        Web::topic_words(self, topic, QUERY_WORDS).join(" ")
    }
    fn seed_urls(&self, topic: TopicId, n: usize) -> Vec<String> {
        Web::seed_urls(self, topic, n)
    }
    fn sample(&self, topic: TopicId, n: usize) -> Vec<PageRef> {
        Web::sample(self, topic, n)
    }
    fn truth_topics(&self, url: &str) -> Vec<TopicId> {
        Web::truth(self, url).into_iter().collect()
    }
    fn truth_count(&self, topic: TopicId) -> u64 {
        (Web::truth_share(self, topic) * f64::from(Web::page_count(self))).round() as u64
    }
    fn dump_truth(&self, mut out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Web::dump_truth(self, &mut out)
    }
}
