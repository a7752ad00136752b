//! The backlink and keyword search services of the search host, standing in
//! for the search engines Diligenti et al. and BINGO! queried. Both indexes
//! are built lazily on the first query (one pass over the generated links
//! and titles) and answer bounded lists of URLs as text or JSON.

use std::collections::HashMap;

use crate::links::LinkTarget;
use crate::site::MAX_ANSWERS;
use crate::web::Web;

/// Backlinks (CSR over targets) and a title-word inverted index.
#[derive(Debug)]
pub(crate) struct Index {
    offsets: Vec<u32>,
    sources: Vec<u32>,
    words: HashMap<String, u32>,
    postings: HashMap<u32, Vec<u32>>,
}

impl Index {
    fn build(web: &Web) -> Self {
        let n = web.hosts.pages as usize;
        let mut edges: Vec<u64> = Vec::with_capacity(n * 10);
        let mut postings: HashMap<u32, Vec<u32>> = HashMap::new();
        for pid in 0..web.hosts.pages {
            let mut targets: Vec<u32> = web
                .out_links(pid)
                .into_iter()
                .filter_map(|l| match l.target {
                    LinkTarget::Page(p) if p != pid => Some(p),
                    _ => None,
                })
                .collect();
            targets.sort_unstable();
            targets.dedup();
            edges.extend(
                targets
                    .into_iter()
                    .map(|t| (u64::from(t) << 32) | u64::from(pid)),
            );
            if let Some(t) = web.truth_of(pid) {
                for w in web.title_words(pid, t) {
                    postings.entry(w).or_default().push(pid);
                }
            }
        }
        edges.sort_unstable();
        let mut offsets = vec![0u32; n + 1];
        for e in &edges {
            offsets[(e >> 32) as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let sources = edges.iter().map(|e| *e as u32).collect();
        let words = postings
            .keys()
            .map(|w| (web.topics.word(*w).to_string(), *w))
            .collect();
        Self {
            offsets,
            sources,
            words,
            postings,
        }
    }

    fn backlinks(&self, pid: u32) -> &[u32] {
        let i = pid as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(a), Some(b)) => self.sources.get(*a as usize..*b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

impl Web {
    pub(crate) fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::build(self))
    }

    /// Up to `max` URLs of pages linking to `url` (regular pages only).
    pub fn backlinks(&self, url: &str, max: usize) -> Vec<String> {
        let Some(pid) = self.page_id(url) else {
            return Vec::new();
        };
        let src = self.index().backlinks(pid);
        // Popular sources first, as a search engine would rank them.
        let mut src: Vec<u32> = src.to_vec();
        src.sort_by(|a, b| {
            let pa = self
                .hosts
                .locate(*a)
                .map_or(0.0, |x| self.hosts.hosts[x.0 as usize].popularity);
            let pb = self
                .hosts
                .locate(*b)
                .map_or(0.0, |x| self.hosts.hosts[x.0 as usize].popularity);
            pb.total_cmp(&pa).then(a.cmp(b))
        });
        src.into_iter()
            .take(max.min(MAX_ANSWERS))
            .filter_map(|p| self.page_url(p))
            .collect()
    }

    /// Up to `max` URLs of pages whose titles match the most query words.
    pub fn search(&self, query: &str, max: usize) -> Vec<String> {
        let idx = self.index();
        let mut score: HashMap<u32, u32> = HashMap::new();
        for term in query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
        {
            let term = term.to_lowercase();
            if let Some(list) = idx.words.get(&term).and_then(|w| idx.postings.get(w)) {
                for p in list {
                    *score.entry(*p).or_default() += 1;
                }
            }
        }
        let mut hits: Vec<(u32, u32)> = score.into_iter().collect();
        let pop = |p: u32| {
            self.hosts
                .locate(p)
                .map_or(0.0, |x| self.hosts.hosts[x.0 as usize].popularity)
        };
        hits.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(pop(b.0).total_cmp(&pop(a.0)))
                .then(a.0.cmp(&b.0))
        });
        hits.into_iter()
            .take(max.min(MAX_ANSWERS))
            .filter_map(|(p, _)| self.page_url(p))
            .collect()
    }
}
