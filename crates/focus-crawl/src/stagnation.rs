//! Stagnation diagnosis (Chakrabarti et al., VLDB 1999, §3.7): a census of
//! crawled pages by best class and a moving average of relevance. When the
//! average stays low, the monitor reports which classes dominate the recent
//! neighbourhood and suggests marking their common ancestor with the good
//! topic good — the paper's mutual funds → investment fix.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use focus_core::{Mark, Taxonomy, TopicId};

/// When a crawl counts as stagnating.
#[derive(Debug, Clone, PartialEq)]
pub struct StagnationConfig {
    /// Pages in the moving average (and in the recent-neighbourhood census).
    pub window: usize,
    /// The crawl stagnates while the moving average is below this.
    pub threshold: f64,
    /// No diagnosis before this many pages (the start is always noisy).
    pub min_pages: u64,
    /// How many dominant classes a diagnosis lists.
    pub top_classes: usize,
}

impl Default for StagnationConfig {
    fn default() -> Self {
        Self {
            window: 500,
            threshold: 0.25,
            min_pages: 1000,
            top_classes: 3,
        }
    }
}

/// Watches relevance and best classes page by page.
#[derive(Debug, Clone)]
pub struct StagnationMonitor {
    cfg: StagnationConfig,
    recent: VecDeque<(f64, Option<TopicId>)>,
    recent_sum: f64,
    census: BTreeMap<Option<TopicId>, u64>,
    pages: u64,
}

/// What the monitor concluded.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// Pages seen when the diagnosis was made.
    pub pages: u64,
    /// The moving average of relevance over the window.
    pub moving_average: f64,
    /// The most frequent best classes in the recent window that are not good
    /// (or below a good topic), with their share of the window.
    pub dominant: Vec<(TopicId, f64)>,
    /// A topic whose marking as good would take in the dominant
    /// neighbourhood: the deepest non-root common ancestor of a good topic
    /// and the dominant classes. `None` when they only meet at the root.
    pub suggestion: Option<TopicId>,
}

impl Diagnosis {
    /// A human-readable report naming topics by path.
    pub fn report(&self, taxonomy: &Taxonomy) -> String {
        let mut s = format!(
            "stagnation: relevance moving average {:.3} after {} pages; the recent neighbourhood is dominated by",
            self.moving_average, self.pages
        );
        for (t, share) in &self.dominant {
            let _ = write!(s, " {} ({:.0} %),", taxonomy.path(*t), share * 100.0);
        }
        if self.dominant.is_empty() {
            s.push_str(" pages of no class");
        } else {
            s.pop();
        }
        match self.suggestion {
            Some(t) => {
                let _ = write!(
                    s,
                    ". Consider marking `{}` good (their common ancestor with the good topic).",
                    taxonomy.path(t)
                );
            }
            None => s.push_str(". They share no ancestor with the good topics below the root."),
        }
        s
    }
}

impl StagnationMonitor {
    /// A monitor with the given thresholds.
    pub fn new(cfg: StagnationConfig) -> Self {
        Self {
            cfg,
            recent: VecDeque::new(),
            recent_sum: 0.0,
            census: BTreeMap::new(),
            pages: 0,
        }
    }

    /// Records one classified page.
    pub fn push(&mut self, relevance: f64, best: Option<TopicId>) {
        self.pages += 1;
        *self.census.entry(best).or_insert(0) += 1;
        self.recent.push_back((relevance, best));
        self.recent_sum += relevance;
        if self.recent.len() > self.cfg.window {
            if let Some((r, _)) = self.recent.pop_front() {
                self.recent_sum -= r;
            }
        }
    }

    /// Pages recorded so far.
    pub fn pages(&self) -> u64 {
        self.pages
    }

    /// The moving average of relevance over the window (0 before any page).
    pub fn moving_average(&self) -> f64 {
        if self.recent.is_empty() {
            0.0
        } else {
            self.recent_sum / self.recent.len() as f64
        }
    }

    /// The census: crawled pages per best class (`None` = unclassified),
    /// largest first.
    pub fn census(&self) -> Vec<(Option<TopicId>, u64)> {
        let mut c: Vec<_> = self.census.iter().map(|(&t, &n)| (t, n)).collect();
        c.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        c
    }

    /// True when enough pages have been seen and the average is low.
    pub fn is_stagnating(&self) -> bool {
        self.pages >= self.cfg.min_pages
            && self.recent.len() >= self.cfg.window
            && self.moving_average() < self.cfg.threshold
    }

    /// A diagnosis if the crawl is stagnating, else `None`.
    pub fn diagnose(&self, taxonomy: &Taxonomy) -> Option<Diagnosis> {
        if !self.is_stagnating() {
            return None;
        }
        let mut counts: BTreeMap<TopicId, u64> = BTreeMap::new();
        for (_, best) in &self.recent {
            if let Some(t) = best {
                if matches!(taxonomy.mark(*t), Mark::Null | Mark::Path) {
                    *counts.entry(*t).or_insert(0) += 1;
                }
            }
        }
        let mut ranked: Vec<(TopicId, u64)> = counts.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(self.cfg.top_classes);
        let window = self.recent.len() as f64;
        let dominant: Vec<(TopicId, f64)> = ranked
            .iter()
            .map(|&(t, n)| (t, n as f64 / window))
            .collect();
        Some(Diagnosis {
            pages: self.pages,
            moving_average: self.moving_average(),
            suggestion: suggest(taxonomy, &ranked),
            dominant,
        })
    }
}

/// The deepest non-root ancestor shared by a good topic and the dominant
/// classes, preferring the one that covers the most dominant pages.
fn suggest(taxonomy: &Taxonomy, ranked: &[(TopicId, u64)]) -> Option<TopicId> {
    let mut best: Option<(u64, usize, TopicId)> = None;
    for good in taxonomy.good_topics() {
        // Try each dominant class with the good topic; the covering ancestor
        // then takes in every dominant class below it.
        for &(class, _) in ranked {
            let anc = taxonomy.common_ancestor(&[good, class]);
            if anc == TopicId::ROOT {
                continue;
            }
            let covered: u64 = ranked
                .iter()
                .filter(|(c, _)| taxonomy.is_ancestor_or_self(anc, *c))
                .map(|(_, n)| n)
                .sum();
            let key = (covered, taxonomy.depth(anc), anc);
            if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
    }
    best.map(|(_, _, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::TaxonomyBuilder;

    fn finance() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("business/investment/mutual_funds")
            .unwrap()
            .topic("business/investment/stocks")
            .unwrap()
            .topic("business/investment/general")
            .unwrap()
            .topic("recreation/cycling")
            .unwrap()
            .good("business/investment/mutual_funds")
            .unwrap()
            .build()
    }

    fn cfg() -> StagnationConfig {
        StagnationConfig {
            window: 10,
            threshold: 0.3,
            min_pages: 10,
            top_classes: 2,
        }
    }

    #[test]
    fn mutual_funds_case_suggests_investment() {
        let t = finance();
        let stocks = t.find("business/investment/stocks").unwrap();
        let general = t.find("business/investment/general").unwrap();
        let cycling = t.find("recreation/cycling").unwrap();
        let mut m = StagnationMonitor::new(cfg());
        for i in 0..10 {
            let class = match i % 5 {
                0 | 1 => stocks,
                2 | 3 => general,
                _ => cycling,
            };
            m.push(0.1, Some(class));
        }
        let d = m.diagnose(&t).unwrap();
        assert!((d.moving_average - 0.1).abs() < 1e-12);
        assert_eq!(d.dominant.len(), 2);
        assert!((d.dominant[0].1 - 0.4).abs() < 1e-12);
        assert_eq!(d.suggestion, t.find("business/investment"));
        let report = d.report(&t);
        assert!(report.contains("`business/investment`"), "{report}");
    }

    #[test]
    fn healthy_or_young_crawls_are_not_diagnosed() {
        let t = finance();
        let mf = t.find("business/investment/mutual_funds").unwrap();
        let mut m = StagnationMonitor::new(cfg());
        for _ in 0..5 {
            m.push(0.0, None);
        }
        assert!(m.diagnose(&t).is_none(), "too few pages");
        for _ in 0..20 {
            m.push(0.9, Some(mf));
        }
        assert!(!m.is_stagnating());
        assert_eq!(m.census()[0], (Some(mf), 20));
    }

    #[test]
    fn unrelated_neighbourhood_gets_no_suggestion() {
        let t = finance();
        let cycling = t.find("recreation/cycling").unwrap();
        let mut m = StagnationMonitor::new(cfg());
        for _ in 0..12 {
            m.push(0.05, Some(cycling));
        }
        let d = m.diagnose(&t).unwrap();
        assert_eq!(d.suggestion, None);
        assert!(d.report(&t).contains("no ancestor"));
    }

    #[test]
    fn a_neighbourhood_of_unclassified_pages_is_named_as_such() {
        let t = finance();
        let d = Diagnosis {
            pages: 500,
            moving_average: 0.1,
            dominant: Vec::new(),
            suggestion: None,
        };
        assert!(d
            .report(&t)
            .contains("dominated by pages of no class. They share"));
    }
}
