//! Calibration statistics of a web (the figures of the websim issue), each
//! next to its target range, computed from generated pages without HTTP:
//! link counts and locality on a page sample, distances and breadth-first
//! harvest on the forward graph, and the accuracy of a minimal multinomial
//! naive Bayes trained on [`Web::sample`] pages.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;

use focus_core::TopicId;

use crate::config::TopicRole;
use crate::links::LinkTarget;
use crate::rng::hash3;
use crate::web::Web;

/// One calibration figure and its range.
#[derive(Debug, Clone)]
pub struct Figure {
    /// What is measured.
    pub name: String,
    /// The measured value.
    pub value: f64,
    /// Lower end of the range (inclusive).
    pub lo: f64,
    /// Upper end of the range (inclusive).
    pub hi: f64,
    /// Extra detail (which topic, counts).
    pub note: String,
}

impl Figure {
    /// Whether the value lies in the range.
    pub fn ok(&self) -> bool {
        self.value >= self.lo && self.value <= self.hi
    }
}

/// All figures of one web.
#[derive(Debug, Clone, Default)]
pub struct Calibration {
    /// The figures, in the order.
    pub figures: Vec<Figure>,
}

impl Calibration {
    /// True when every figure is in range.
    pub fn all_ok(&self) -> bool {
        self.figures.iter().all(Figure::ok)
    }

    /// The figure named `name`.
    pub fn get(&self, name: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.name == name)
    }

    /// A table: figure, value, range, verdict, note.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for f in &self.figures {
            let hi = if f.hi.is_finite() {
                format!("{:.3}", f.hi)
            } else {
                "inf".into()
            };
            let _ = writeln!(
                s,
                "{:<44} {:>10.3}   [{:.3}, {hi}]   {}   {}",
                f.name,
                f.value,
                f.lo,
                if f.ok() { "ok" } else { "OUT OF RANGE" },
                f.note
            );
        }
        s
    }
}

/// How much work the statistics do.
#[derive(Debug, Clone)]
pub struct StatsOptions {
    /// Pages sampled for link and length figures.
    pub sample_pages: usize,
    /// Pages whose HTML is rendered for length figures.
    pub length_pages: usize,
    /// Leaf topics used for distance and breadth-first figures.
    pub bfs_topics: usize,
    /// Seeds per topic.
    pub seeds: usize,
    /// Crawl size of the breadth-first harvest figure.
    pub bfs_crawl: usize,
    /// Training pages per leaf for the classifier figure (0 disables it).
    pub train_per_leaf: usize,
    /// Held-out pages per leaf.
    pub test_per_leaf: usize,
}

impl Default for StatsOptions {
    fn default() -> Self {
        Self {
            sample_pages: 20_000,
            length_pages: 2_000,
            bfs_topics: 6,
            seeds: 10,
            bfs_crawl: 10_000,
            train_per_leaf: 40,
            test_per_leaf: 15,
        }
    }
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v[i.min(v.len() - 1)]
}

fn fig(name: &str, value: f64, lo: f64, hi: f64, note: String) -> Figure {
    Figure {
        name: name.into(),
        value,
        lo,
        hi,
        note,
    }
}

/// Lower-case words of the visible text of an HTML page (tags removed).
pub fn visible_words(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_tag = false;
    let mut word = String::new();
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            '>' => in_tag = false,
            _ if in_tag => {}
            c if c.is_alphanumeric() => word.extend(c.to_lowercase()),
            _ => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Forward graph of regular pages (CSR), fault targets dropped.
struct Graph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// True topic of every page.
    topic: Vec<TopicId>,
}

impl Graph {
    fn build(web: &Web) -> Self {
        let n = web.page_count() as usize;
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * 10);
        let mut topic = Vec::with_capacity(n);
        offsets.push(0);
        for pid in 0..web.page_count() {
            topic.push(web.truth_of(pid).unwrap_or(TopicId::ROOT));
            for l in web.out_links(pid) {
                if let LinkTarget::Page(p) = l.target {
                    targets.push(p);
                }
            }
            offsets.push(targets.len() as u32);
        }
        Self {
            offsets,
            targets,
            topic,
        }
    }

    fn out(&self, p: u32) -> &[u32] {
        let a = self.offsets[p as usize] as usize;
        let b = self.offsets[p as usize + 1] as usize;
        &self.targets[a..b]
    }

    /// BFS distances (u8::MAX = unreached) and the visiting order.
    fn bfs(&self, seeds: &[u32], max_depth: u8) -> (Vec<u8>, Vec<u32>) {
        let mut dist = vec![u8::MAX; self.offsets.len() - 1];
        let mut order = Vec::new();
        let mut q = VecDeque::new();
        for &s in seeds {
            if dist[s as usize] == u8::MAX {
                dist[s as usize] = 0;
                q.push_back(s);
            }
        }
        while let Some(p) = q.pop_front() {
            order.push(p);
            let d = dist[p as usize];
            if d >= max_depth {
                continue;
            }
            for &t in self.out(p) {
                if dist[t as usize] == u8::MAX {
                    dist[t as usize] = d + 1;
                    q.push_back(t);
                }
            }
        }
        (dist, order)
    }
}

/// Compute every calibration figure of `web`.
pub fn calibrate(web: &Web, opts: &StatsOptions) -> Calibration {
    let mut figures = Vec::new();
    let n = web.page_count();
    let tax = web.taxonomy();
    let leaves = tax.leaves();
    // Sizes.
    let mut sizes: Vec<f64> = web.host_sizes().iter().map(|s| f64::from(*s)).collect();
    let med = quantile(&mut sizes, 0.5);
    let max = sizes.last().copied().unwrap_or(0.0);
    figures.push(fig(
        "pages",
        f64::from(n),
        200_000.0,
        f64::INFINITY,
        String::new(),
    ));
    figures.push(fig(
        "hosts",
        sizes.len() as f64,
        1_000.0,
        f64::INFINITY,
        String::new(),
    ));
    figures.push(fig(
        "host size max / median",
        max / med.max(1.0),
        100.0,
        f64::INFINITY,
        format!("median {med}, max {max}"),
    ));
    let (top_leaf, top_share) = leaves
        .iter()
        .map(|l| (*l, web.truth_share(*l)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((TopicId::ROOT, 0.0));
    figures.push(fig(
        "largest leaf share",
        top_share,
        0.0,
        0.05,
        tax.path(top_leaf).to_string(),
    ));
    figures.push(fig(
        "taxonomy depth",
        tax.ids().map(|t| tax.depth(t)).max().unwrap_or(0) as f64,
        3.0,
        f64::INFINITY,
        String::new(),
    ));
    figures.push(fig(
        "taxonomy leaves",
        leaves.len() as f64,
        30.0,
        f64::INFINITY,
        String::new(),
    ));

    // Link figures on a page sample.
    let sample: Vec<u32> = (0..opts.sample_pages as u64)
        .map(|i| (hash3(web.seed(), 0x57a7, i, 0) % u64::from(n)) as u32)
        .collect();
    let mut same_host = 0u64;
    let mut all_links = 0u64;
    let mut degrees = Vec::with_capacity(sample.len());
    let mut from_topic: HashMap<TopicId, (u64, u64)> = HashMap::new();
    let (mut pair_same, mut pairs) = (0u64, 0u64);
    let mut target_topics: HashMap<TopicId, u64> = HashMap::new();
    let mut target_total = 0u64;
    for &pid in &sample {
        let links = web.out_links(pid);
        let src_host = web.hosts.locate(pid).map(|x| x.0);
        let src_topic = web.truth_of(pid).unwrap_or(TopicId::ROOT);
        degrees.push(links.len() as f64);
        let mut ext = Vec::new();
        for l in &links {
            all_links += 1;
            if let LinkTarget::Page(p) = l.target {
                let th = web.hosts.locate(p).map(|x| x.0);
                let tt = web.truth_of(p).unwrap_or(TopicId::ROOT);
                let e = from_topic.entry(src_topic).or_default();
                e.1 += 1;
                if tt == src_topic {
                    e.0 += 1;
                }
                if th == src_host {
                    same_host += 1;
                } else {
                    ext.push(tt);
                    *target_topics.entry(tt).or_default() += 1;
                    target_total += 1;
                }
            }
        }
        for i in 0..ext.len() {
            for j in 0..ext.len() {
                if i != j {
                    pairs += 1;
                    if ext[i] == ext[j] {
                        pair_same += 1;
                    }
                }
            }
        }
    }
    figures.push(fig(
        "same-host share of links",
        same_host as f64 / all_links.max(1) as f64,
        0.60,
        0.90,
        String::new(),
    ));
    let mut d = degrees.clone();
    figures.push(fig(
        "links per page, median",
        quantile(&mut d, 0.5),
        5.0,
        12.0,
        String::new(),
    ));
    figures.push(fig(
        "links per page, p90",
        quantile(&mut d, 0.9),
        20.0,
        35.0,
        String::new(),
    ));

    // Radius-1: same-topic link rate of a topic's pages over its base rate.
    let mut lifts: Vec<(TopicId, f64)> = Vec::new();
    for (t, (same, total)) in &from_topic {
        if *total >= 200 && *t != TopicId::ROOT {
            let base = web.truth_share(*t).max(1e-9);
            lifts.push((*t, (*same as f64 / *total as f64) / base));
        }
    }
    lifts.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    if let (Some(lo), Some(hi)) = (lifts.first(), lifts.last()) {
        figures.push(fig(
            "radius-1 lift, lowest topic",
            lo.1,
            0.0,
            0.999,
            tax.path(lo.0).to_string(),
        ));
        figures.push(fig(
            "radius-1 lift, highest topic",
            hi.1,
            5.0,
            f64::INFINITY,
            tax.path(hi.0).to_string(),
        ));
    }
    // Radius-2 (co-citation) over cross-host links.
    let base2: f64 = target_topics
        .values()
        .map(|c| (*c as f64 / target_total.max(1) as f64).powi(2))
        .sum();
    let p2 = pair_same as f64 / pairs.max(1) as f64;
    figures.push(fig(
        "co-citation lift (cross-host links)",
        p2 / base2.max(1e-12),
        2.0,
        5.0,
        format!("{pairs} link pairs"),
    ));

    // Page lengths.
    let mut lengths: Vec<f64> = sample
        .iter()
        .take(opts.length_pages)
        .filter_map(|p| web.page_html(*p))
        .map(|h| visible_words(&h).len() as f64)
        .collect();
    let lmed = quantile(&mut lengths, 0.5);
    let lp90 = quantile(&mut lengths, 0.9);
    let lp10 = quantile(&mut lengths, 0.1);
    figures.push(fig(
        "page length (words), median",
        lmed,
        150.0,
        300.0,
        String::new(),
    ));
    figures.push(fig(
        "page length, p90 / median",
        lp90 / lmed.max(1.0),
        3.0,
        f64::INFINITY,
        format!("p90 {lp90}"),
    ));
    figures.push(fig(
        "page length, p90 / p10",
        lp90 / lp10.max(1.0),
        10.0,
        f64::INFINITY,
        format!("p10 {lp10}"),
    ));

    // Distances and breadth-first harvest.
    if opts.bfs_topics > 0 {
        let g = Graph::build(web);
        let picks = bfs_topics(web, opts.bfs_topics);
        let mut worst_frac: (f64, String) = (1.0, String::new());
        let mut ratios: Vec<(f64, String)> = Vec::new();
        let mut context_note = String::new();
        for t in picks {
            let seeds: Vec<u32> = web
                .seed_urls(t, opts.seeds)
                .iter()
                .filter_map(|u| web.page_id(u))
                .collect();
            let (dist, order) = g.bfs(&seeds, 40);
            let mut hist = [0u64; 8];
            for pid in 0..n {
                if g.topic[pid as usize] == t && !seeds.contains(&pid) {
                    hist[usize::from(dist[pid as usize]).min(7)] += 1;
                }
            }
            let total: u64 = hist.iter().sum();
            let frac = hist[2..=5].iter().sum::<u64>() as f64 / total.max(1) as f64;
            if frac < worst_frac.0 {
                worst_frac = (
                    frac,
                    format!("{} (distance 1..6+: {:?})", tax.path(t), &hist[1..]),
                );
            }
            let lo = opts.bfs_crawl / 2;
            let window: Vec<u32> = order
                .iter()
                .copied()
                .skip(lo)
                .take(opts.bfs_crawl - lo)
                .collect();
            let hits = window.iter().filter(|p| g.topic[**p as usize] == t).count();
            let rate = hits as f64 / window.len().max(1) as f64;
            let ratio = rate / web.truth_share(t).max(1e-9);
            if web
                .topics
                .info(t)
                .is_some_and(|i| i.role == TopicRole::Context)
            {
                // Context documents cluster behind their institutions: shown,
                // not held to the range.
                context_note = format!("context topic {}: {ratio:.2}", tax.path(t));
            } else {
                ratios.push((ratio, tax.path(t).to_string()));
            }
        }
        figures.push(fig(
            "topic pages 2-5 links from seeds, min",
            worst_frac.0,
            0.5,
            1.0,
            worst_frac.1,
        ));
        ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
        let all: Vec<String> = ratios.iter().map(|r| format!("{:.2}", r.0)).collect();
        let all = all.join(" ");
        if let (Some(lo), Some(hi)) = (ratios.first(), ratios.last()) {
            figures.push(fig(
                "BFS harvest / share, lowest topic",
                lo.0,
                0.25,
                4.0,
                format!("{} (all: {all})", lo.1),
            ));
            figures.push(fig(
                "BFS harvest / share, highest topic",
                hi.0,
                0.25,
                4.0,
                format!("{}; {context_note}", hi.1),
            ));
        }
    }
    if opts.train_per_leaf > 0 {
        let acc = crate::stats_nb::accuracy(web, opts.train_per_leaf, opts.test_per_leaf);
        figures.push(fig(
            "naive Bayes leaf accuracy",
            acc,
            0.6,
            0.9,
            format!(
                "{} train / {} test per leaf",
                opts.train_per_leaf, opts.test_per_leaf
            ),
        ));
    }
    Calibration { figures }
}

/// Leaves for the distance figures: one of each special role, then normal
/// leaves in taxonomy order.
fn bfs_topics(web: &Web, k: usize) -> Vec<TopicId> {
    let mut out = Vec::new();
    for role in [
        TopicRole::Competitive,
        TopicRole::Context,
        TopicRole::Cooperative,
    ] {
        if let Some(l) = web
            .topics
            .leaves
            .iter()
            .find(|l| web.topics.info(**l).is_some_and(|i| i.role == role))
        {
            out.push(*l);
        }
    }
    for l in &web.topics.leaves {
        if out.len() >= k {
            break;
        }
        if web
            .topics
            .info(*l)
            .is_some_and(|i| i.role == TopicRole::Normal)
            && !out.contains(l)
        {
            out.push(*l);
        }
    }
    out.truncate(k);
    out
}
