//! [`Web`]: the generated web and its request-level API — URLs, ground
//! truth (evaluation only), seeds, samples, and [`Web::render`], which
//! answers one HTTP request without any network.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use focus_core::{Taxonomy, TopicId};

use crate::config::{FaultKind, FaultSpec, PageFault, TopicRole, WebConfig};
use crate::hosts::Hosts;
use crate::html::Dress;
use crate::index::Index;
use crate::response::{Action, Response};
use crate::rng::{hash3, purpose, unit};
use crate::topics::Topics;
use crate::urls::{page_path, parse_path, split_url};
use crate::WebsimError;

/// A page with its URL (and, for evaluation, its true topic).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRef {
    /// Page id.
    pub id: u32,
    /// Absolute URL (`http://host/path`).
    pub url: String,
    /// True leaf topic (ground truth: evaluation only).
    pub topic: TopicId,
}

/// How many of a topic's best-placed pages (on its most popular hosts)
/// seeds are drawn from: [`Web::sample`] never takes them as examples, so
/// on a small web a topic may have few pages left to sample, or none.
pub const SEED_POOL: usize = 200;

/// A generated synthetic web. `Send + Sync`; share it in an [`Arc`].
#[derive(Debug)]
pub struct Web {
    pub(crate) config: WebConfig,
    pub(crate) seed: u64,
    pub(crate) topics: Topics,
    pub(crate) hosts: Hosts,
    pub(crate) faults: Vec<FaultSpec>,
    pub(crate) fault_by_host: HashMap<String, u16>,
    /// Original host mirrored by each fault host.
    pub(crate) mirror_of: Vec<u32>,
    pub(crate) universal: Vec<TopicId>,
    /// Pages per topic id, subtopics included.
    pub(crate) topic_pages: Vec<u64>,
    pub(crate) index: OnceLock<Index>,
    pub(crate) oversized: OnceLock<Bytes>,
}

impl Web {
    /// Build the web of `config` with `seed` (deterministic).
    pub fn new(config: WebConfig, seed: u64) -> Result<Web, WebsimError> {
        config.validate()?;
        let topics = Topics::build(&config, seed)?;
        let hosts = Hosts::build(&config, &topics, seed)?;
        let mut fault_by_host = HashMap::new();
        for (i, f) in config.faults.iter().enumerate() {
            if fault_by_host
                .insert(f.host.to_ascii_lowercase(), i as u16)
                .is_some()
            {
                return Err(WebsimError::Invalid(format!(
                    "fault host `{}` listed twice",
                    f.host
                )));
            }
        }
        let big: Vec<u32> = (0..hosts.hosts.len() as u32)
            .filter(|h| {
                hosts.hosts[*h as usize].len >= 20
                    && !matches!(
                        hosts.hosts[*h as usize].plan,
                        crate::hosts::Plan::Universal(_)
                    )
            })
            .collect();
        let mirror_of = (0..config.faults.len())
            .map(|i| {
                if big.is_empty() {
                    0
                } else {
                    big[(hash3(seed, purpose::FAULT, i as u64, 0) % big.len() as u64) as usize]
                }
            })
            .collect();
        let universal = topics
            .leaves
            .iter()
            .copied()
            .filter(|l| {
                topics
                    .info(*l)
                    .is_some_and(|i| i.role == TopicRole::Universal)
            })
            .collect();
        let mut topic_pages = vec![0u64; topics.taxonomy.len()];
        for (h, host) in hosts.hosts.iter().enumerate() {
            for l in 0..host.len {
                let t = hosts.page_topic(&topics, seed, h as u32, l);
                topic_pages[t.0 as usize] += 1;
            }
        }
        for leaf in &topics.leaves {
            let n = topic_pages[leaf.0 as usize];
            for a in topics.taxonomy.ancestors(*leaf).collect::<Vec<_>>() {
                if a != *leaf {
                    topic_pages[a.0 as usize] += n;
                }
            }
        }
        Ok(Web {
            faults: config.faults.clone(),
            config,
            seed,
            topics,
            hosts,
            fault_by_host,
            mirror_of,
            universal,
            topic_pages,
            index: OnceLock::new(),
            oversized: OnceLock::new(),
        })
    }

    /// The configuration the web was built from.
    pub fn config(&self) -> &WebConfig {
        &self.config
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of regular pages.
    pub fn page_count(&self) -> u32 {
        self.hosts.pages
    }

    /// Number of regular hosts.
    pub fn host_count(&self) -> usize {
        self.hosts.hosts.len()
    }

    /// Pages per regular host, in host order.
    pub fn host_sizes(&self) -> Vec<u32> {
        self.hosts.hosts.iter().map(|h| h.len).collect()
    }

    /// The true topic tree (every page's truth is one of its leaves).
    pub fn taxonomy(&self) -> &Taxonomy {
        &self.topics.taxonomy
    }

    /// The fault hosts (see `docs/websim.md`).
    pub fn faults(&self) -> &[FaultSpec] {
        &self.faults
    }

    /// The first `n` words of `topic`'s own vocabulary, most frequent
    /// first (empty for the root or an unknown topic).
    pub fn topic_words(&self, topic: TopicId, n: usize) -> Vec<String> {
        self.topics
            .vocab
            .get(topic.0 as usize)
            .into_iter()
            .flatten()
            .take(n)
            .map(|&w| self.topics.word(w).to_owned())
            .collect()
    }

    /// The host name of the backlink and search services.
    pub fn search_host(&self) -> &str {
        &self.config.search_host
    }

    /// The absolute URL of page `pid`.
    pub fn page_url(&self, pid: u32) -> Option<String> {
        let (h, l) = self.hosts.locate(pid)?;
        let host = &self.hosts.hosts[h as usize];
        Some(format!(
            "http://{}{}",
            host.name,
            page_path(&self.topics, self.seed, host, l)
        ))
    }

    /// The page id of a regular page URL (query ignored), if it is one.
    pub fn page_id(&self, url: &str) -> Option<u32> {
        let (host, pq) = split_url(url)?;
        let h = *self.hosts.by_name.get(&host)?;
        let path = pq.split('?').next().unwrap_or("/");
        let host = &self.hosts.hosts[h as usize];
        parse_path(&self.topics, self.seed, host, path).map(|l| host.first + l)
    }

    /// The page a URL shows: regular pages, and the mirrored originals on
    /// mirror-type fault hosts (mirror, gzip, slow, malformed, session-id,
    /// robots-forbidden).
    fn page_shown(&self, url: &str) -> Option<u32> {
        if let Some(p) = self.page_id(url) {
            return Some(p);
        }
        let (host, pq) = split_url(url)?;
        let f = *self.fault_by_host.get(&host)?;
        let kind = self.faults[f as usize].kind;
        if !is_mirror(kind) {
            return None;
        }
        let h = self.mirror_of[f as usize];
        let host = &self.hosts.hosts[h as usize];
        let path = pq.split('?').next().unwrap_or("/");
        parse_path(&self.topics, self.seed, host, path).map(|l| host.first + l)
    }

    /// **Ground truth, evaluation only — no crawler may call this.** The true
    /// leaf topic of the page at `url`; `None` for anything that is not a
    /// page (fault responses, traps, services, unknown URLs). Mirrors of a
    /// page (mirror, gzip, session-id, ... hosts) carry the original's topic.
    pub fn truth(&self, url: &str) -> Option<TopicId> {
        self.page_shown(url).and_then(|p| self.truth_of(p))
    }

    /// **Ground truth, evaluation only.** The true topic of page `pid`.
    pub fn truth_of(&self, pid: u32) -> Option<TopicId> {
        let (h, l) = self.hosts.locate(pid)?;
        Some(self.hosts.page_topic(&self.topics, self.seed, h, l))
    }

    /// **Ground truth, evaluation only.** Fraction of the regular pages whose
    /// topic is `topic` or one of its subtopics.
    pub fn truth_share(&self, topic: TopicId) -> f64 {
        if topic == TopicId::ROOT {
            return 1.0;
        }
        let n = self.topic_pages.get(topic.0 as usize).copied().unwrap_or(0);
        n as f64 / f64::from(self.hosts.pages.max(1))
    }

    /// **Ground truth, evaluation only.** Write `url<TAB>topic path` for
    /// every regular page.
    pub fn dump_truth(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        for pid in 0..self.hosts.pages {
            if let (Some(url), Some(t)) = (self.page_url(pid), self.truth_of(pid)) {
                writeln!(out, "{url}\t{}", self.topics.taxonomy.path(t))?;
            }
        }
        Ok(())
    }

    /// The leaves at or under `topic`, and the hosts that carry any of
    /// them, by host id.
    fn leaves_and_carriers(&self, topic: TopicId) -> (Vec<TopicId>, Vec<u32>) {
        let taxonomy = &self.topics.taxonomy;
        let leaves: Vec<TopicId> = taxonomy
            .subtree(topic)
            .filter(|d| taxonomy.is_leaf(*d))
            .collect();
        let mut hosts: Vec<u32> = leaves
            .iter()
            .flat_map(|l| {
                self.hosts
                    .carriers
                    .get(l.0 as usize)
                    .into_iter()
                    .flatten()
                    .map(|c| c.0)
            })
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        (leaves, hosts)
    }

    /// Pages of `topic` (subtopics included), in a deterministic order that
    /// starts with popular hosts. Seeds come from the front, samples from
    /// elsewhere.
    fn topic_pages_ranked(&self, topic: TopicId, salt: u64, want: usize) -> Vec<u32> {
        let (leaves, mut hosts) = self.leaves_and_carriers(topic);
        hosts.sort_by(|a, b| {
            let pa = self.hosts.hosts[*a as usize].popularity;
            let pb = self.hosts.hosts[*b as usize].popularity;
            pb.total_cmp(&pa).then(a.cmp(b))
        });
        let mut out = Vec::new();
        // Round-robin over hosts: at most a few pages per host per round.
        let mut round = 0u32;
        while out.len() < want && round < 64 {
            let before = out.len();
            for &h in &hosts {
                let host = &self.hosts.hosts[h as usize];
                let start = (hash3(self.seed, purpose::SAMPLE, u64::from(h), salt)
                    % u64::from(host.len)) as u32;
                let mut found = 0u32;
                let mut k = 0u32;
                while k < host.len && found <= round {
                    let l = (start + k * 7919) % host.len;
                    let t = self.hosts.page_topic(&self.topics, self.seed, h, l);
                    if leaves.contains(&t) {
                        if found == round {
                            out.push(host.first + l);
                        }
                        found += 1;
                    }
                    k += 1;
                }
                if out.len() >= want {
                    break;
                }
            }
            if out.len() == before {
                break;
            }
            round += 1;
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Seed URLs of `topic`: `n` distinct pages of it on popular hosts
    /// (deterministic; never among [`Web::sample`]'s pages).
    pub fn seed_urls(&self, topic: TopicId, n: usize) -> Vec<String> {
        let mut ids = self.topic_pages_ranked(topic, 1, n);
        ids.sort_by_key(|p| hash3(self.seed, 11, u64::from(*p), 0));
        ids.truncate(n);
        ids.iter().filter_map(|p| self.page_url(*p)).collect()
    }

    /// Labelled example pages of `topic` (its subtopics included), disjoint
    /// from every seed URL (they leave out the topic's [`SEED_POOL`]
    /// pages), as used by [`crate::Site::write_examples`].
    pub fn sample(&self, topic: TopicId, n: usize) -> Vec<PageRef> {
        let seeds: std::collections::HashSet<u32> = self
            .topic_pages_ranked(topic, 1, SEED_POOL)
            .into_iter()
            .collect();
        let mut out = Vec::new();
        let mut tries = 0u64;
        let (leaves, hosts) = self.leaves_and_carriers(topic);
        while out.len() < n && tries < 200 * n as u64 + 1000 && !hosts.is_empty() {
            let h0 = hash3(
                self.seed,
                purpose::SAMPLE,
                u64::from(topic.0),
                tries + 1_000_000,
            );
            tries += 1;
            let h = hosts[(h0 % hosts.len() as u64) as usize];
            let host = &self.hosts.hosts[h as usize];
            let l = ((h0 >> 32) % u64::from(host.len)) as u32;
            let pid = host.first + l;
            let t = self.hosts.page_topic(&self.topics, self.seed, h, l);
            if !leaves.contains(&t)
                || seeds.contains(&pid)
                || out.iter().any(|p: &PageRef| p.id == pid)
            {
                continue;
            }
            if let Some(url) = self.page_url(pid) {
                out.push(PageRef {
                    id: pid,
                    url,
                    topic: t,
                });
            }
        }
        out
    }

    /// The HTML of page `pid` as served by its own host.
    pub fn page_html(&self, pid: u32) -> Option<String> {
        let (h, l) = self.hosts.locate(pid)?;
        Some(self.render_page(h, l, Dress::default()))
    }

    /// Answer `GET path_and_query` on `host` (port ignored, case-insensitive).
    pub fn render(&self, host: &str, path_and_query: &str) -> Response {
        let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
        let (path, query) = match path_and_query.split_once('?') {
            Some((p, q)) => (p, q),
            None => (path_and_query, ""),
        };
        if host == self.config.search_host {
            return crate::site::render_service(self, path, query);
        }
        if let Some(&f) = self.fault_by_host.get(&host) {
            return self.render_fault(f, path, query);
        }
        let Some(&h) = self.hosts.by_name.get(&host) else {
            return Response::html(
                421,
                "<html><body><h1>Misdirected Request</h1><p>No such host.</p></body></html>\n",
            );
        };
        if path == "/robots.txt" {
            return self.robots(h);
        }
        let hst = &self.hosts.hosts[h as usize];
        let Some(l) = parse_path(&self.topics, self.seed, hst, path) else {
            return Response::not_found();
        };
        let html = self.render_page(h, l, Dress::default());
        match self.fault_of(h, l) {
            None => Response::html(200, html),
            Some(fault) => broken_page(fault, html, self.config.stall_ms),
        }
    }

    /// How page `l` of host `h` is broken, if it is
    /// ([`WebConfig::page_faults`]; a home page never is).
    fn fault_of(&self, h: u32, l: u32) -> Option<PageFault> {
        let rate = self.config.page_faults;
        if rate <= 0.0 || l == 0 {
            return None;
        }
        let x = hash3(self.seed, purpose::PAGE_FAULT, u64::from(h), u64::from(l));
        (unit(x) < rate)
            .then(|| PageFault::ALL[(crate::rng::mix64(x) % PageFault::ALL.len() as u64) as usize])
    }

    /// How the page at `url` is broken, if it is (ground truth for tests
    /// and evaluations: a URL that is not a regular page is `None`).
    pub fn page_fault(&self, url: &str) -> Option<PageFault> {
        let (host, path) = split_url(url)?;
        let path = path.split('?').next().unwrap_or(path);
        let &h = self.hosts.by_name.get(&host)?;
        let l = parse_path(&self.topics, self.seed, &self.hosts.hosts[h as usize], path)?;
        self.fault_of(h, l)
    }

    fn robots(&self, h: u32) -> Response {
        let host = &self.hosts.hosts[h as usize];
        let u = unit(hash3(self.seed, 0x0b, u64::from(h), 0));
        let text = if u < 0.05 {
            return Response::not_found();
        } else if u < 0.75 {
            "User-agent: *\nDisallow:\n".to_string()
        } else if u < 0.88 {
            "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /private/\n".to_string()
        } else if u < 0.95 {
            "User-agent: *\nCrawl-delay: 1\nDisallow:\n".to_string()
        } else if host.sections > 0 {
            let sec = page_path(&self.topics, self.seed, host, 1);
            format!("User-agent: *\nDisallow: {sec}\n")
        } else {
            "User-agent: *\nDisallow:\n".to_string()
        };
        Response::new(200, "text/plain; charset=utf-8", text)
    }

    /// Wrap in an [`Arc`] (convenience for [`crate::serve`]).
    pub fn into_arc(self) -> Arc<Web> {
        Arc::new(self)
    }
}

/// The answer of a broken page whose healthy HTML is `html`.
fn broken_page(fault: PageFault, html: String, stall_ms: u64) -> Response {
    match fault {
        PageFault::ServerError => Response::server_error(),
        PageFault::Unavailable => Response::unavailable(1),
        PageFault::Trickle => {
            let sent = html.len().min(512);
            Response {
                action: Action::Stall { sent, ms: stall_ms },
                ..Response::html(200, html)
            }
        }
        PageFault::Reset => Response::reset(),
    }
}

/// Fault kinds whose pages mirror a real host.
pub(crate) fn is_mirror(kind: FaultKind) -> bool {
    matches!(
        kind,
        FaultKind::Slow
            | FaultKind::Stall
            | FaultKind::Malformed
            | FaultKind::Gzip
            | FaultKind::SessionId
            | FaultKind::Mirror
            | FaultKind::RobotsForbidden
    )
}
