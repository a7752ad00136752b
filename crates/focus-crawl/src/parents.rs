//! Where a page's parents (the pages linking to it) come from, and the
//! crawl's use of them: Diligenti et al.'s back-crawl (2000, §3.1) and
//! their "context focused crawler with backlinks" (§3.3, Fig. 6), which
//! asks for the parents of every page as it is judged on-topic and queues
//! them with the priority of the page's own outlinks.
//!
//! A [`ParentSource`] is a search engine's backlink service
//! ([`BacklinkService`], over HTTP) or a file of links
//! ([`BacklinkFile`], for a web without a service). A [`ParentExpansion`]
//! rations the crawl's requests with a budget; the pipeline asks in pop
//! order, so the same seed spends the budget on the same pages.
//!
//! Must not touch the frontier or the store (the apply step queues the
//! parents it is handed).

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use focus_core::{CanonicalUrl, Canonicalizer};
use focus_fetch::{Body, Fetcher};
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};

/// Why a page's parents could not be had.
#[derive(Debug, thiserror::Error)]
pub enum ParentsError {
    /// The backlink service did not answer with a list.
    #[error("backlink service: {0}")]
    Service(String),
    /// The file of links could not be read.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// A line of the file of links is not `SOURCE TARGET`.
    #[error("{path}:{line}: {why}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// A future answering [`ParentSource::parents`].
pub type ParentsFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Vec<CanonicalUrl>, ParentsError>> + Send + 'a>>;

/// Knows which pages link to a page.
pub trait ParentSource: Send + Sync {
    /// The pages linking to `url` (at most the source's own limit), in
    /// the source's order.
    fn parents<'a>(&'a self, url: &'a CanonicalUrl) -> ParentsFuture<'a>;
}

/// A search engine's backlink service: `GET /backlinks?url=URL&max=N` on
/// its host, answered with one URL per line (the websim's and a replayed
/// corpus's service; see `focus_websim::render_service`).
pub struct BacklinkService {
    fetcher: Fetcher,
    host: String,
    max: usize,
    canon: Canonicalizer,
}

impl BacklinkService {
    /// The service on `host` (`name` or `name:port`), asked through
    /// `fetcher` for at most `max` parents per page.
    pub fn new(fetcher: Fetcher, host: &str, max: usize) -> Self {
        Self {
            fetcher,
            host: host.to_owned(),
            max,
            canon: Canonicalizer::default(),
        }
    }

    /// The request for `url`'s parents.
    pub fn query(&self, url: &str) -> String {
        format!(
            "http://{}/backlinks?url={}&max={}",
            self.host,
            utf8_percent_encode(url, NON_ALPHANUMERIC),
            self.max
        )
    }
}

impl ParentSource for BacklinkService {
    fn parents<'a>(&'a self, url: &'a CanonicalUrl) -> ParentsFuture<'a> {
        Box::pin(async move {
            let query = self
                .canon
                .canonicalize(&self.query(url.as_str()))
                .map_err(|e| ParentsError::Service(e.to_string()))?;
            let page = self
                .fetcher
                .fetch(&query)
                .await
                .map_err(|e| ParentsError::Service(e.label()))?;
            match page.body {
                // A line that is not a URL is skipped: the rest still count.
                Body::Text(list) => Ok(list
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .filter_map(|l| self.canon.canonicalize(l).ok())
                    .collect()),
                Body::Bytes(_) => Err(ParentsError::Service("a binary answer".into())),
            }
        })
    }
}

/// A file of links, one `SOURCE TARGET` pair per line (whitespace between;
/// `#` starts a comment): the parents of a page are the sources of the
/// lines naming it as target, in file order. For a web without a backlink
/// service (a link database, a previous crawl's `links`, a search
/// engine's export).
#[derive(Debug, Clone, Default)]
pub struct BacklinkFile {
    parents: HashMap<CanonicalUrl, Vec<CanonicalUrl>>,
}

impl BacklinkFile {
    /// Reads `path`. A URL that does not parse is an error naming its
    /// line: a link file is written on purpose and a bad line is a bug.
    pub fn read(path: &Path) -> Result<Self, ParentsError> {
        let text = std::fs::read_to_string(path).map_err(|cause| ParentsError::Io {
            path: path.to_owned(),
            cause,
        })?;
        Self::parse(&text).map_err(|(line, why)| ParentsError::Line {
            path: path.to_owned(),
            line,
            why,
        })
    }

    /// Parses the text of a link file; an error is (line, why).
    pub fn parse(text: &str) -> Result<Self, (usize, String)> {
        let canon = Canonicalizer::default();
        let mut parents: HashMap<CanonicalUrl, Vec<CanonicalUrl>> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(source), Some(target), None) = (words.next(), words.next(), words.next())
            else {
                return Err((i + 1, "expected SOURCE TARGET".into()));
            };
            let url = |u: &str| {
                canon
                    .canonicalize(u)
                    .map_err(|e| (i + 1, format!("{u}: {e}")))
            };
            let (source, target) = (url(source)?, url(target)?);
            let list = parents.entry(target).or_default();
            if !list.contains(&source) {
                list.push(source);
            }
        }
        Ok(Self { parents })
    }

    /// Pages with at least one parent.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Whether no page has a parent.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }
}

impl ParentSource for BacklinkFile {
    fn parents<'a>(&'a self, url: &'a CanonicalUrl) -> ParentsFuture<'a> {
        let found = self.parents.get(url).cloned().unwrap_or_default();
        Box::pin(std::future::ready(Ok(found)))
    }
}

/// The crawl's backlink expansion: the parents of every page judged
/// on-topic (its best class under a good topic) join the frontier with the
/// priority of the page's outlinks, for at most `budget` requests.
pub struct ParentExpansion {
    source: Arc<dyn ParentSource>,
    budget: u64,
    asked: AtomicU64,
}

impl ParentExpansion {
    /// Expansion through `source`, at most `budget` requests in a crawl
    /// (a resumed crawl goes on counting).
    pub fn new(source: Arc<dyn ParentSource>, budget: u64) -> Self {
        Self {
            source,
            budget,
            asked: AtomicU64::new(0),
        }
    }

    /// Requests made so far.
    pub fn asked(&self) -> u64 {
        self.asked.load(Ordering::Relaxed)
    }

    /// Sets the requests already made (a resumed crawl's count).
    pub(crate) fn restore(&self, asked: u64) {
        self.asked.store(asked, Ordering::Relaxed);
    }

    /// Takes one request from the budget, if any is left.
    pub(crate) fn take(&self) -> bool {
        self.asked
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < self.budget).then_some(n + 1)
            })
            .is_ok()
    }

    /// The source asked.
    pub(crate) fn source(&self) -> Arc<dyn ParentSource> {
        self.source.clone()
    }
}

impl std::fmt::Debug for ParentExpansion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParentExpansion")
            .field("budget", &self.budget)
            .field("asked", &self.asked())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(u: &str) -> CanonicalUrl {
        Canonicalizer::default().canonicalize(u).unwrap()
    }

    fn parents_of(f: &BacklinkFile, u: &str) -> Vec<String> {
        let u = url(u);
        let got = futures_lite(f.parents(&u));
        got.unwrap().iter().map(ToString::to_string).collect()
    }

    /// Runs a ready future (a file's answers never wait).
    fn futures_lite(f: ParentsFuture<'_>) -> Result<Vec<CanonicalUrl>, ParentsError> {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn a_link_file_gives_each_pages_sources_in_file_order_once() {
        let f = BacklinkFile::parse(
            "# links\nhttp://a.test/hub http://t.test/x\n\
             http://b.test/ http://t.test/x   # a comment\n\
             http://a.test/hub http://t.test/x\n\n\
             http://t.test/x http://a.test/hub\n",
        )
        .unwrap();
        assert_eq!(
            parents_of(&f, "http://t.test/x"),
            ["http://a.test/hub", "http://b.test/"]
        );
        assert_eq!(parents_of(&f, "http://a.test/hub"), ["http://t.test/x"]);
        assert!(parents_of(&f, "http://b.test/").is_empty());
        assert_eq!(f.len(), 2);
    }

    #[test]
    fn a_bad_line_is_named() {
        assert_eq!(
            BacklinkFile::parse("http://a.test/ http://b.test/\nhttp://a.test/\n")
                .unwrap_err()
                .0,
            2
        );
        assert_eq!(
            BacklinkFile::parse("http://a.test/ http://b.test/ http://c.test/")
                .unwrap_err()
                .0,
            1
        );
        assert!(BacklinkFile::parse("notaurl http://b.test/").is_err());
        let missing = BacklinkFile::read(Path::new("/nonexistent/links.txt")).unwrap_err();
        assert!(missing.to_string().contains("links.txt"), "{missing}");
        // The cause follows the path in the message, and is not repeated
        // as its source.
        assert!(missing.to_string().contains("links.txt: "), "{missing}");
        assert!(std::error::Error::source(&missing).is_none());
    }

    #[test]
    fn the_budget_rations_requests_and_a_resumed_count_goes_on() {
        let e = ParentExpansion::new(Arc::new(BacklinkFile::default()), 2);
        assert!(e.take() && e.take());
        assert!(!e.take(), "the budget is spent");
        assert_eq!(e.asked(), 2);
        let resumed = ParentExpansion::new(Arc::new(BacklinkFile::default()), 3);
        resumed.restore(2);
        assert!(resumed.take());
        assert!(!resumed.take());
    }

    #[test]
    fn a_service_query_escapes_the_url() {
        let fetcher = Fetcher::new(focus_fetch::FetchConfig::loopback(Vec::new())).unwrap();
        let s = BacklinkService::new(fetcher, "search.test", 50);
        assert_eq!(
            s.query("http://a.test/x?y=1&z"),
            "http://search.test/backlinks?url=http%3A%2F%2Fa%2Etest%2Fx%3Fy%3D1%26z&max=50"
        );
    }
}
