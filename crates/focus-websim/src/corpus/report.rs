//! `websim --corpus PATH stats`: what a replayed corpus is made of — pages,
//! hosts, links (per page, same-topic share), labels (per page, per topic,
//! depth) — so a crawl on it can be read against the web it ran on.

use std::fmt::Write as _;

use focus_core::TopicId;

use super::Corpus;
use crate::site::Site;

fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

impl Corpus {
    /// The corpus's statistics as a markdown table.
    pub fn stats(&self) -> String {
        let n = self.pages.len();
        let mut out_deg: Vec<u32> = self.out_links.iter().map(|l| l.len() as u32).collect();
        out_deg.sort_unstable();
        let mut in_deg = self.in_degree.clone();
        in_deg.sort_unstable();
        let labelled = self.pages.iter().filter(|p| !p.labels.is_empty()).count();
        let multi = self.pages.iter().filter(|p| p.labels.len() > 1).count();
        // A link is same-topic when its ends share a first-level topic.
        let top = |t: TopicId| {
            std::iter::once(t)
                .chain(self.taxonomy.ancestors(t))
                .find(|&a| self.taxonomy.parent(a) == Some(TopicId::ROOT))
        };
        let (mut same, mut judged) = (0u64, 0u64);
        for (src, links) in self.out_links.iter().enumerate() {
            let a: Vec<_> = self.pages[src]
                .labels
                .iter()
                .filter_map(|&t| top(t))
                .collect();
            if a.is_empty() {
                continue;
            }
            for &t in links {
                let b: Vec<_> = self.pages[t as usize]
                    .labels
                    .iter()
                    .filter_map(|&t| top(t))
                    .collect();
                if b.is_empty() {
                    continue;
                }
                judged += 1;
                same += u64::from(a.iter().any(|x| b.contains(x)));
            }
        }
        let mut topics: Vec<(u64, TopicId)> = self
            .taxonomy
            .ids()
            .filter(|&t| t != TopicId::ROOT)
            .map(|t| (self.truth_count(t), t))
            .collect();
        topics.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let leaves = self.taxonomy.leaves();
        let depth = self
            .taxonomy
            .ids()
            .map(|t| self.taxonomy.depth(t))
            .max()
            .unwrap_or(0);
        let mut s = String::new();
        let _ = writeln!(s, "| corpus `{}` | value |", self.name);
        let _ = writeln!(s, "|---|---|");
        let _ = writeln!(s, "| pages / hosts | {n} / {} |", self.hosts.len());
        let _ = writeln!(s, "| links between pages | {} |", self.link_count());
        let _ = writeln!(
            s,
            "| out-links per page median / p90 / max | {} / {} / {} |",
            quantile(&out_deg, 0.5),
            quantile(&out_deg, 0.9),
            quantile(&out_deg, 1.0)
        );
        let _ = writeln!(
            s,
            "| in-links per page median / p90 / max | {} / {} / {} |",
            quantile(&in_deg, 0.5),
            quantile(&in_deg, 0.9),
            quantile(&in_deg, 1.0)
        );
        let _ = writeln!(
            s,
            "| share of links within a first-level topic | {:.2} |",
            same as f64 / judged.max(1) as f64
        );
        let _ = writeln!(
            s,
            "| labelled pages / with two or more labels | {labelled} / {multi} |"
        );
        let _ = writeln!(
            s,
            "| topics / leaves / depth | {} / {} / {depth} |",
            self.taxonomy.len() - 1,
            leaves.len()
        );
        let largest: Vec<String> = topics
            .iter()
            .filter(|(_, t)| self.taxonomy.is_leaf(*t))
            .take(5)
            .map(|(c, t)| format!("{} {c}", self.taxonomy.path(*t)))
            .collect();
        let _ = writeln!(s, "| largest leaves | {} |", largest.join(", "));
        let _ = writeln!(s, "| source lines skipped | {} |", self.skipped);
        s
    }
}
