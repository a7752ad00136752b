//! [`Corpus`]: a recorded, labelled web replayed on loopback — the real
//! pages, links and labels of a corpus served exactly like the synthetic
//! web (same server, robots handling, backlink and search services, same
//! evaluation-only ground truth), so every crawler, test and benchmark runs
//! on either.
//!
//! Two importers fill it: the Wikispeedia folder (`corpus/wikispeedia.rs`:
//! articles rendered as HTML pages on one host, the subject categories as
//! the topic tree) and a generic labelled folder (`corpus/labelled.rs`:
//! `.html` files under `DIR/<host>/...` with a `labels.tsv`). A corpus is
//! read at run time from its folder; nothing of its text is compiled in.
//! Keyword search and backlinks are in `corpus/search.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use focus_core::{Taxonomy, TopicId};

use crate::response::Response;
use crate::rng::hash3;
use crate::site::{render_service, Site};
use crate::urls::split_url;
use crate::web::PageRef;
use crate::WebsimError;

mod labelled;
mod mirror_files;
mod report;
mod search;
mod wikispeedia;

pub use wikispeedia::WIKISPEEDIA_HOST;

/// Host name of a corpus's backlink and search services.
pub const CORPUS_SEARCH_HOST: &str = "search.websim";

/// Where a page's body comes from.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    /// A Wikispeedia article: its plain-text file, rendered on request.
    Article(PathBuf),
    /// A stored HTML (or other) file, served as it is.
    File(PathBuf),
}

/// One page of a corpus.
#[derive(Debug, Clone)]
pub(crate) struct CorpusPage {
    /// Index into [`Corpus::hosts`].
    pub(crate) host: u32,
    /// The path as served, with its query when it was saved with one
    /// (percent-encoded where needed, starts with `/`).
    pub(crate) path: String,
    /// Other paths it answers at (a `wget --adjust-extension` file without
    /// the `.html` wget added); the page's own path wins a clash.
    pub(crate) aliases: Vec<String>,
    /// The page's title (search and anchor placement).
    pub(crate) title: String,
    /// Ground-truth topics (evaluation only); empty when unlabelled.
    pub(crate) labels: Vec<TopicId>,
    /// Where the body comes from.
    pub(crate) body: Body,
}

/// A recorded corpus served as a web. `Send + Sync`; share it in an
/// [`std::sync::Arc`] and serve it with [`crate::serve`].
#[derive(Debug)]
pub struct Corpus {
    pub(crate) name: String,
    pub(crate) taxonomy: Taxonomy,
    /// The corpus's own category names (`subject.Science.Biology.Birds`).
    pub(crate) aliases: HashMap<String, TopicId>,
    pub(crate) hosts: Vec<String>,
    pub(crate) pages: Vec<CorpusPage>,
    /// (host, [`page_key`] of its path and query) → page.
    pub(crate) by_key: HashMap<(u32, String), u32>,
    /// Host name → its index in `hosts` (the first, were a name listed
    /// twice).
    pub(crate) host_ids: HashMap<String, u32>,
    /// Out-links per page (page ids, deduplicated, no self-links).
    pub(crate) out_links: Vec<Vec<u32>>,
    /// In-link counts per page (popularity: seeds and ranking).
    pub(crate) in_degree: Vec<u32>,
    /// Pages per topic, subtopics included, each page once.
    pub(crate) topic_pages: Vec<u64>,
    /// Extra responses by (host, path): robots.txt and site pages that are
    /// not labelled pages (home, about, ...).
    pub(crate) extra: HashMap<(u32, String), (String, String)>,
    /// Source lines (labels, links) that named no page: skipped, counted.
    pub(crate) skipped: usize,
    pub(crate) search_index: OnceLock<search::SearchIndex>,
    pub(crate) backlink_index: OnceLock<Vec<Vec<u32>>>,
}

/// Percent-decodes a path for lookups (so any spelling of an escape finds
/// the page).
pub(crate) fn decode_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("/");
    percent_decode(path)
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// The look-up key of a path with its query: both percent-decoded, the
/// query kept after a `?` when there is one (a page saved with a query,
/// `page.php?id=3`, is that query's page), the fragment dropped.
pub(crate) fn page_key(path_and_query: &str) -> String {
    let pq = path_and_query.split('#').next().unwrap_or("/");
    match pq.split_once('?') {
        Some((path, query)) if !query.is_empty() => {
            format!("{}?{}", percent_decode(path), percent_decode(query))
        }
        Some((path, _)) => percent_decode(path),
        None => percent_decode(pq),
    }
}

impl Corpus {
    /// Reads the corpus in `dir`: the Wikispeedia folder (`articles.tsv`,
    /// `categories.tsv`, `links.tsv`, `plaintext/`) or a labelled folder
    /// (`labels.tsv` and `DIR/<host>/...` files); see `docs/websim.md`.
    pub fn load(dir: &Path) -> Result<Corpus, WebsimError> {
        if dir.join("articles.tsv").is_file() && dir.join("plaintext").is_dir() {
            wikispeedia::load(dir)
        } else if dir.join("labels.tsv").is_file() {
            labelled::load(dir)
        } else {
            Err(WebsimError::Corpus {
                path: dir.display().to_string(),
                message: "not a corpus folder: expected the Wikispeedia files (articles.tsv, \
                          categories.tsv, links.tsv, plaintext/) or a labels.tsv"
                    .into(),
            })
        }
    }

    /// Where a shared corpus sits beside a checkout of this project:
    /// `$FOCUS_<NAME>` (upper case) if set, else
    /// `<crate dir>/../../../shared/corpora/<name>` for a crate two levels
    /// below the workspace root (`crates/*`, `bins/*`). `Err` says why it is
    /// not there, for a test to print as it skips.
    pub fn beside_checkout(crate_dir: &str, name: &str) -> Result<PathBuf, String> {
        let var = format!("FOCUS_{}", name.to_ascii_uppercase());
        let dir = std::env::var_os(&var).map_or_else(
            || {
                Path::new(crate_dir)
                    .join("../../../shared/corpora")
                    .join(name)
            },
            PathBuf::from,
        );
        if dir.is_dir() {
            Ok(dir)
        } else {
            Err(format!(
                "no {name} corpus at {} (set {var} to its folder)",
                dir.display()
            ))
        }
    }

    /// The index of `host` (lower case, no port) in the corpus's hosts.
    fn host_id(&self, host: &str) -> Option<u32> {
        self.host_ids.get(host).copied()
    }

    /// The corpus's name (`wikispeedia`, or the labelled folder's name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The page id of a page URL (any spelling of its path's escapes),
    /// also when the URL is a cross-host link as `wget --convert-links`
    /// rewrote it (`/www.other.org/x.html` on the citing page's host).
    pub fn page_id(&self, url: &str) -> Option<u32> {
        let (host, pq) = split_url(url)?;
        let h = self.host_id(&host)?;
        self.find(h, pq)
            .or_else(|| self.converted_link(h, pq).map(|(_, _, pid)| pid))
    }

    /// A link between hosts as `wget --convert-links` rewrote it. wget
    /// makes a link from a page of one host to a saved page of another
    /// relative to the mirror's folders (`../www.other.org/x.html`), and
    /// it resolves, against the citing page's URL, to
    /// `/www.other.org/x.html` on the citing page's own host. When host
    /// `h` has no page at `path_and_query` and its first segment names
    /// another host of the corpus that has a page at the rest, that is
    /// the page the link meant: its host, the rest (path and query, as
    /// given) and its id.
    pub(crate) fn converted_link<'a>(
        &self,
        h: u32,
        path_and_query: &'a str,
    ) -> Option<(u32, &'a str, u32)> {
        let after = path_and_query.strip_prefix('/')?;
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let segment = percent_decode(&after[..end]).to_ascii_lowercase();
        let other = self.host_id(&segment)?;
        if other == h {
            return None;
        }
        let rest = &after[end..];
        let rest = if rest.starts_with('/') { rest } else { "/" };
        Some((other, rest, self.find(other, rest)?))
    }

    /// The page host `h` serves at `path_and_query`: the page saved with
    /// that query, else the page at the path (as a static server answers a
    /// file's URL whatever its query).
    pub(crate) fn find(&self, h: u32, path_and_query: &str) -> Option<u32> {
        self.by_key
            .get(&(h, page_key(path_and_query)))
            .or_else(|| self.by_key.get(&(h, decode_path(path_and_query))))
            .copied()
    }

    /// How many pages link to page `pid` (its popularity).
    pub fn in_degree(&self, pid: u32) -> u32 {
        self.in_degree.get(pid as usize).copied().unwrap_or(0)
    }

    /// The page ids page `pid` links to.
    pub fn out_links(&self, pid: u32) -> &[u32] {
        self.out_links.get(pid as usize).map_or(&[], Vec::as_slice)
    }

    /// **Ground truth, evaluation only.** The labels of page `pid`.
    pub fn labels(&self, pid: u32) -> &[TopicId] {
        self.pages
            .get(pid as usize)
            .map_or(&[], |p| p.labels.as_slice())
    }

    /// Whether page `pid` is labelled `topic` or a topic below it.
    pub fn is_under(&self, pid: u32, topic: TopicId) -> bool {
        self.labels(pid)
            .iter()
            .any(|&l| self.taxonomy.is_ancestor_or_self(topic, l))
    }

    /// Lines of the source (labels, links) that named no page of the
    /// corpus: skipped and counted here.
    pub fn skipped_lines(&self) -> usize {
        self.skipped
    }

    /// Number of links between pages of the corpus.
    pub fn link_count(&self) -> usize {
        self.out_links.iter().map(Vec::len).sum()
    }

    /// How many hosts its pages sit on.
    pub fn host_count(&self) -> usize {
        self.hosts.len()
    }

    /// Finishes a corpus built by an importer: lookup tables (pages and
    /// hosts), in-degrees and per-topic counts.
    pub(crate) fn index(mut self) -> Self {
        // Aliases first, so a page's own path wins over another's alias.
        let aliases = self.pages.iter().enumerate().flat_map(|(i, p)| {
            p.aliases
                .iter()
                .map(move |pq| ((p.host, page_key(pq)), i as u32))
        });
        let own = self
            .pages
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.host, page_key(&p.path)), i as u32));
        self.by_key = aliases.chain(own).collect();
        self.host_ids = HashMap::with_capacity(self.hosts.len());
        for (i, name) in self.hosts.iter().enumerate() {
            self.host_ids.entry(name.clone()).or_insert(i as u32);
        }
        for links in &mut self.out_links {
            links.sort_unstable();
            links.dedup();
        }
        let mut in_degree = vec![0u32; self.pages.len()];
        for (src, links) in self.out_links.iter_mut().enumerate() {
            links.retain(|&t| t as usize != src);
            for &t in links.iter() {
                in_degree[t as usize] += 1;
            }
        }
        self.in_degree = in_degree;
        let mut counts = vec![0u64; self.taxonomy.len()];
        for p in &self.pages {
            let mut under: Vec<TopicId> = p
                .labels
                .iter()
                .flat_map(|&l| std::iter::once(l).chain(self.taxonomy.ancestors(l)))
                .collect();
            under.sort_unstable();
            under.dedup();
            for t in under {
                counts[t.0 as usize] += 1;
            }
        }
        self.topic_pages = counts;
        self
    }

    fn url_of(&self, page: &CorpusPage) -> String {
        format!("http://{}{}", self.hosts[page.host as usize], page.path)
    }

    /// The keyword index, built on first use (by a search or a topic's
    /// query).
    fn search_index(&self) -> &search::SearchIndex {
        self.search_index
            .get_or_init(|| search::SearchIndex::build(self))
    }

    /// Pages labelled `topic` or below it, most linked-to first (ties by
    /// id): the corpus's "popular" pages of a topic.
    fn ranked(&self, topic: TopicId) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..self.pages.len() as u32)
            .filter(|&p| self.is_under(p, topic))
            .collect();
        ids.sort_by(|a, b| self.in_degree(*b).cmp(&self.in_degree(*a)).then(a.cmp(b)));
        ids
    }

    /// The visible text of page `pid` (for the keyword index): an
    /// article's text without its label line, a file's text without tags.
    pub(crate) fn page_text(&self, pid: u32) -> String {
        match &self.pages[pid as usize].body {
            Body::Article(file) => std::fs::read_to_string(file)
                .map(|t| wikispeedia::article_text(&t))
                .unwrap_or_default(),
            Body::File(file) => std::fs::read(file)
                .map(|b| search::strip_tags(&String::from_utf8_lossy(&b)))
                .unwrap_or_default(),
        }
    }

    /// The page's content type and bytes: a stored file as it is (its
    /// charset is the page's own business, as on the real web).
    fn body(&self, pid: u32) -> Result<(&'static str, Vec<u8>), std::io::Error> {
        let page = &self.pages[pid as usize];
        match &page.body {
            Body::Article(file) => Ok((
                "text/html; charset=utf-8",
                wikispeedia::article_html(self, pid, file)?.into_bytes(),
            )),
            Body::File(file) => {
                let bytes = std::fs::read(file)?;
                Ok((mirror_files::content_type(file, &bytes), bytes))
            }
        }
    }

    /// [`Corpus::body`] of a page that may not exist; `None` also when its
    /// file cannot be read.
    fn body_of(&self, pid: u32) -> Option<(&'static str, Vec<u8>)> {
        self.pages.get(pid as usize)?;
        self.body(pid).ok()
    }
}

/// Seed candidates reserved per topic (never sampled as examples).
const SEED_RESERVE: usize = 5;

impl Site for Corpus {
    fn render(&self, host: &str, path_and_query: &str) -> Response {
        let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        if host == CORPUS_SEARCH_HOST {
            return render_service(self, path, query);
        }
        let Some(h) = self.host_id(&host) else {
            return Response::html(
                421,
                "<html><body><h1>Misdirected Request</h1><p>No such host.</p></body></html>\n",
            );
        };
        let key = (h, decode_path(path));
        if let Some((ctype, body)) = self.extra.get(&key) {
            return Response::new(200, ctype, body.clone());
        }
        if key.1 == "/robots.txt" {
            return Response::not_found();
        }
        let Some(pid) = self.find(h, path_and_query) else {
            // A cross-host link of a `wget --convert-links` mirror goes to
            // the URL it was before wget rewrote it, so the page keeps its
            // own host and URL.
            return match self.converted_link(h, path_and_query) {
                Some((other, rest, _)) => {
                    Response::redirect(301, &format!("http://{}{rest}", self.hosts[other as usize]))
                }
                None => Response::not_found(),
            };
        };
        match self.body(pid) {
            Ok((ctype, body)) => Response::new(200, ctype, body),
            Err(_) => Response::html(
                500,
                "<html><body><h1>Internal Server Error</h1></body></html>\n",
            ),
        }
    }

    fn taxonomy(&self) -> &Taxonomy {
        &self.taxonomy
    }

    fn page_count(&self) -> u32 {
        self.pages.len() as u32
    }

    fn host_count(&self) -> usize {
        self.hosts.len()
    }

    fn page_url(&self, pid: u32) -> Option<String> {
        self.pages.get(pid as usize).map(|p| self.url_of(p))
    }

    fn page_html(&self, pid: u32) -> Option<String> {
        let (ctype, bytes) = self.body_of(pid)?;
        Some(focus_core::charset::decode(&bytes, ctype).0)
    }

    fn page_bytes(&self, pid: u32) -> Option<Vec<u8>> {
        self.body_of(pid).map(|(_, bytes)| bytes)
    }

    fn search_host(&self) -> &str {
        CORPUS_SEARCH_HOST
    }

    fn backlinks(&self, url: &str, max: usize) -> Vec<String> {
        let Some(pid) = self.page_id(url) else {
            return Vec::new();
        };
        let index = self.backlink_index.get_or_init(|| search::backlinks(self));
        index
            .get(pid as usize)
            .into_iter()
            .flatten()
            .take(max)
            .filter_map(|&p| self.page_url(p))
            .collect()
    }

    fn search(&self, query: &str, max: usize) -> Vec<String> {
        self.search_index()
            .query(query, max)
            .into_iter()
            .filter_map(|p| self.page_url(p))
            .collect()
    }

    /// The words of the topic's own name that most pages do not hold;
    /// when none is left (the Wikispeedia category `IT`, whose one word is
    /// "it"), the words of its subtopics' names, as a person would
    /// describe a category whose name no search can use by what it holds.
    fn topic_query(&self, topic: TopicId) -> String {
        let index = self.search_index();
        let tax = self.taxonomy();
        let telling = |w: &String| !index.is_common(w);
        let name: Vec<String> = search::words(tax.name(topic)).collect();
        if name.iter().any(telling) {
            return name
                .into_iter()
                .filter(telling)
                .collect::<Vec<_>>()
                .join(" ");
        }
        let mut words: Vec<String> = Vec::new();
        for &child in tax.children(topic) {
            for w in search::words(tax.name(child)).filter(telling) {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        if words.is_empty() { name } else { words }.join(" ")
    }

    fn seed_urls(&self, topic: TopicId, n: usize) -> Vec<String> {
        self.ranked(topic)
            .into_iter()
            .take(n)
            .filter_map(|p| self.page_url(p))
            .collect()
    }

    fn sample(&self, topic: TopicId, n: usize) -> Vec<PageRef> {
        let ranked = self.ranked(topic);
        let mut rest: Vec<u32> = ranked.iter().skip(SEED_RESERVE).copied().collect();
        rest.sort_by_key(|&p| hash3(0x005a_3b1e, u64::from(topic.0), u64::from(p), 0));
        rest.into_iter()
            .take(n)
            .filter_map(|p| {
                let page = &self.pages[p as usize];
                let label = page
                    .labels
                    .iter()
                    .copied()
                    .find(|&l| self.taxonomy.is_ancestor_or_self(topic, l))?;
                Some(PageRef {
                    id: p,
                    url: self.url_of(page),
                    topic: label,
                })
            })
            .collect()
    }

    fn find_topic(&self, name: &str) -> Option<TopicId> {
        self.taxonomy
            .find(name)
            .or_else(|| self.aliases.get(name).copied())
    }

    fn truth_topics(&self, url: &str) -> Vec<TopicId> {
        self.page_id(url)
            .map(|p| self.labels(p).to_vec())
            .unwrap_or_default()
    }

    fn truth_count(&self, topic: TopicId) -> u64 {
        self.topic_pages.get(topic.0 as usize).copied().unwrap_or(0)
    }

    fn dump_truth(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        for p in &self.pages {
            for &l in &p.labels {
                writeln!(out, "{}\t{}", self.url_of(p), self.taxonomy.path(l))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_path_ignores_query_and_escape_spelling() {
        assert_eq!(decode_path("/wiki/%C3%85land?x=1"), "/wiki/Åland");
        assert_eq!(decode_path("/wiki/%c3%85land"), "/wiki/Åland");
        assert_eq!(decode_path("/a%2Cb#f"), "/a,b");
    }
}
