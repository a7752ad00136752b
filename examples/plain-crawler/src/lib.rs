//! A crawler that is not ours: a plain tokio + hyper fetch loop, written
//! the way any Rust crawler author would, that uses three focus libraries to
//! decide what to fetch next — `focus-classify` (how relevant is this
//! page?), `focus-frontier` (which URL next?) and `focus-distill` (which
//! unvisited pages do the best hubs point to?). It uses neither the focus
//! engine (`focus-crawl`) nor its composition (`focus-app`): it shows the
//! libraries serving someone else's loop. No politeness, retries or robots
//! handling: a demonstration, not a crawler to point at the web.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::net::SocketAddr;

use bytes::Bytes;
use focus_classify::{Classifier, Featurizer};
use focus_core::{CanonicalUrl, Canonicalizer, PageId};
use focus_distill::{GraphBuilder, Hits, HitsConfig};
use focus_frontier::{Candidate, Discipline, Frontier};
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// What to crawl and how.
#[derive(Debug, Clone)]
pub struct Config {
    /// Every request goes to this address, with the URL's host in `Host`.
    pub connect: SocketAddr,
    /// Stop after this many fetches.
    pub max_pages: usize,
    /// Distil every this many pages (0: never).
    pub distill_every: usize,
    /// The frontier's order: best-first for a focused crawl,
    /// breadth-first for a baseline.
    pub order: Discipline,
}

/// One fetched URL and the classifier's relevance of it.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL.
    pub url: String,
    /// Relevance in [0, 1] (0 when the fetch failed).
    pub relevance: f64,
}

/// GETs `url` from `connect`; the body of a 200 HTML answer, else `None`.
async fn get(
    client: &Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>,
    connect: SocketAddr,
    url: &CanonicalUrl,
) -> Option<String> {
    let req = hyper::Request::get(format!("http://{connect}{}", url.path_and_query()))
        .header(hyper::header::HOST, url.host())
        .body(Empty::new())
        .ok()?;
    let resp = client.request(req).await.ok()?;
    let html = resp
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if resp.status() != hyper::StatusCode::OK || !html {
        return None;
    }
    let body = resp.into_body().collect().await.ok()?.to_bytes();
    Some(String::from_utf8_lossy(&body).into_owned())
}

/// Crawls from `seeds`, giving every outlink its page's relevance as
/// priority and raising the unvisited citations of the top hubs every
/// `distill_every` pages.
pub async fn crawl(
    cfg: &Config,
    classifier: &dyn Classifier,
    seeds: &[CanonicalUrl],
) -> Vec<Fetched> {
    let client = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
    let (canon, featurizer) = (Canonicalizer::default(), Featurizer::default());
    let mut frontier = Frontier::new(cfg.order);
    for s in seeds {
        frontier.push(Candidate::new(s.clone(), 0, None, 1.0));
    }
    // The link graph seen so far: (page, host id, relevance) and edges.
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    let mut fetched = Vec::new();
    while fetched.len() < cfg.max_pages {
        let Some(c) = frontier.pop_ready(0) else {
            break;
        };
        let page = get(&client, cfg.connect, &c.url).await;
        frontier.host_done(&c.host, 0);
        let (relevance, links) = match page {
            Some(html) => {
                let doc = focus_html::analyze(&html, &c.url, &canon);
                (
                    classifier.classify(&featurizer.document(&doc)).relevance,
                    doc.links,
                )
            }
            None => (0.0, Vec::new()),
        };
        nodes.push((c.id, c.host.id(), relevance));
        for l in links {
            edges.push((c.id, l.url.page_id(), l.url.host_key().id()));
            frontier.push(Candidate::new(l.url, c.depth + 1, Some(c.id), relevance));
        }
        fetched.push(Fetched {
            url: c.url.to_string(),
            relevance,
        });
        if cfg.distill_every > 0 && fetched.len() % cfg.distill_every == 0 {
            let raised = hub_citations(&nodes, &edges);
            frontier.raise_to_max(&raised);
        }
    }
    fetched
}

/// The unvisited pages cited by hubs above the 90th percentile, by the 1999
/// relevance-weighted HITS over the graph seen so far.
fn hub_citations(nodes: &[(PageId, u64, f64)], edges: &[(PageId, PageId, u64)]) -> Vec<PageId> {
    let mut b = GraphBuilder::new();
    let mut known: std::collections::HashSet<PageId> = nodes.iter().map(|n| n.0).collect();
    for &(id, host, r) in nodes {
        b.add_node(id, host, r, true);
    }
    for &(from, to, host) in edges {
        if known.insert(to) {
            b.add_node(to, host, 0.0, false);
        }
        b.add_edge(from, to);
    }
    let (Ok(graph), Ok(hits)) = (b.build(), Hits::new(HitsConfig::relevance_1999())) else {
        return Vec::new();
    };
    let scores = hits.run(&graph);
    scores
        .missed_neighbours(&graph, 90.0)
        .map(|m| m.into_iter().map(|(id, _)| id).collect())
        .unwrap_or_default()
}
