//! The best a link-following crawler could do on this web: a crawl that
//! knows the ground truth of every URL it has discovered. It starts from
//! the same seeds as `focus-soft` (`Web::seed_urls(topic, 3)`), fetches a
//! discovered on-topic page whenever there is one, and otherwise the
//! discovered off-topic page whose out-links reveal the most undiscovered
//! on-topic pages (a one-step look-ahead, also from ground truth). No real
//! crawler can judge a URL before fetching it, so its harvest at any point
//! bounds what the focused crawlers can reach from those seeds by links
//! alone. A page is on topic when its topic is `topic` or under it (a
//! crawl's good topic may be an inner node, as `focus-soft`'s default
//! `recreation/outdoors` is). With `dead` (a percentage, as
//! `--websim-dead-links` gives it) that share of cross-host links is dead;
//! the oracle knows which and never follows one, so the fall of its harvest
//! against the same web without dead links is what the dead links take
//! from any crawler by reach alone, before the fetches a real crawler
//! spends discovering them. Ground truth: for analysis, never for crawlers.
//!
//! `cargo run --release -p focus-websim --example oracle -- [topic] [pages] [seeds] [web seed] [web pages] [dead]`
//! (`0` web pages: the default web's size)

use std::collections::{BinaryHeap, HashSet, VecDeque};

use focus_websim::{LinkTarget, Web, WebConfig, WebsimError};

struct Oracle<'w> {
    web: &'w Web,
    topic: focus_core::TopicId,
    discovered: HashSet<u32>,
    on_topic: VecDeque<u32>,
    /// (undiscovered on-topic out-links when last counted, discovery order
    /// reversed so earlier pages win ties, page).
    off_topic: BinaryHeap<(usize, std::cmp::Reverse<u64>, u32)>,
    order: u64,
}

impl Oracle<'_> {
    fn relevant(&self, pid: u32) -> bool {
        self.web
            .truth_of(pid)
            .is_some_and(|t| self.web.taxonomy().is_ancestor_or_self(self.topic, t))
    }

    fn targets(&self, pid: u32) -> impl Iterator<Item = u32> + '_ {
        self.web
            .out_links(pid)
            .into_iter()
            .filter_map(|l| match l.target {
                LinkTarget::Page(q) => Some(q),
                LinkTarget::Fault { .. } | LinkTarget::Dead { .. } => None,
            })
    }

    fn promise(&self, pid: u32) -> usize {
        self.targets(pid)
            .filter(|q| !self.discovered.contains(q) && self.relevant(*q))
            .count()
    }

    fn discover(&mut self, pid: u32) {
        if !self.discovered.insert(pid) {
            return;
        }
        if self.relevant(pid) {
            self.on_topic.push_back(pid);
        } else {
            self.order += 1;
            let p = self.promise(pid);
            self.off_topic.push((p, std::cmp::Reverse(self.order), pid));
        }
    }

    /// The next page to fetch, or `None` when nothing is left.
    fn next(&mut self) -> Option<u32> {
        if let Some(p) = self.on_topic.pop_front() {
            return Some(p);
        }
        while let Some((p, ord, pid)) = self.off_topic.pop() {
            let now = self.promise(pid);
            if now >= p || self.off_topic.peek().is_none_or(|top| now >= top.0) {
                return Some(pid);
            }
            self.off_topic.push((now, ord, pid));
        }
        None
    }
}

fn main() -> Result<(), WebsimError> {
    let mut args = std::env::args().skip(1);
    let topic_path = args
        .next()
        .unwrap_or_else(|| "recreation/outdoors/cycling".to_owned());
    let pages: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let seeds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let web_seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut config = WebConfig::default();
    if let Some(n) = args.next().and_then(|s| s.parse::<u32>().ok()) {
        if n > 0 {
            config = config.with_pages(n);
        }
    }
    let dead: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    if dead > 0 {
        config = config.with_dead_links(dead);
    }
    let web = Web::new(config, web_seed)?;
    let Some(topic) = web.taxonomy().find(&topic_path) else {
        eprintln!("no topic {topic_path}");
        std::process::exit(2);
    };
    let mut o = Oracle {
        web: &web,
        topic,
        discovered: HashSet::new(),
        on_topic: VecDeque::new(),
        off_topic: BinaryHeap::new(),
        order: 0,
    };
    let total = (0..web.page_count()).filter(|p| o.relevant(*p)).count();
    for url in web.seed_urls(topic, seeds) {
        if let Some(pid) = web.page_id(&url) {
            o.discover(pid);
        }
    }
    let mut hits = Vec::with_capacity(pages);
    while hits.len() < pages {
        let Some(pid) = o.next() else { break };
        hits.push(o.relevant(pid));
        let targets: Vec<u32> = o.targets(pid).collect();
        for q in targets {
            o.discover(q);
        }
    }
    let found = hits.iter().filter(|h| **h).count();
    println!(
        "{topic_path} (web seed {web_seed}, {} pages, {dead} % of cross-host links dead, \
         {seeds} seeds): {total} on-topic pages; oracle crawl of {} pages",
        web.page_count(),
        hits.len()
    );
    for (i, w) in hits.chunks(1000).enumerate() {
        let r = w.iter().filter(|h| **h).count();
        println!(
            "  pages {:>5}-{:<5} harvest {:.3}",
            i * 1000 + 1,
            i * 1000 + w.len(),
            r as f64 / w.len() as f64
        );
    }
    let last = &hits[hits.len().saturating_sub(1000)..];
    println!(
        "harvest {:.3}, last 1,000 {:.3}, recall {:.3}",
        found as f64 / hits.len().max(1) as f64,
        last.iter().filter(|h| **h).count() as f64 / last.len().max(1) as f64,
        found as f64 / total.max(1) as f64
    );
    Ok(())
}
