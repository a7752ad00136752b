//! Hosts: their names, heavy-tailed sizes, plans (which topics they carry)
//! and internal hierarchy (home -> sections -> leaves; for institutions
//! home -> departments -> persons -> documents), and the true topic of
//! every page as a pure function of the seed and the page id.

use std::collections::HashMap;

use focus_core::TopicId;
use rand::Rng;

use crate::config::{TopicRole, WebConfig};
use crate::rng::{hash3, normal, purpose, rng_for, unit};
use crate::topics::Topics;
use crate::vocab::WordFactory;
use crate::WebsimError;

/// Which topics a host carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// A topical site (normal, cooperative or hub leaf).
    Topical(TopicId),
    /// A company site (host topic) carrying some pages of a competitive topic.
    Competitive { topic: TopicId, host: TopicId },
    /// An institution: home, departments, persons, documents.
    Institution {
        doc: TopicId,
        home: TopicId,
        dept: TopicId,
        person: TopicId,
    },
    /// A universal off-topic site.
    Universal(TopicId),
}

/// One host of the web.
#[derive(Debug, Clone)]
pub(crate) struct Host {
    pub(crate) name: String,
    pub(crate) first: u32,
    pub(crate) len: u32,
    pub(crate) sections: u32,
    pub(crate) plan: Plan,
    pub(crate) popularity: f64,
}

/// Position of a page inside its host's hierarchy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Node {
    Home,
    /// Section `k` in `1..=sections`.
    Section(u32),
    /// Leaf with local index `local` (> sections).
    Leaf(u32),
}

/// Section tree branching factor.
pub(crate) const BRANCH: u32 = 10;
/// Institution group: one person page followed by its documents.
pub(crate) const GROUP: u32 = 4;

/// Number of section pages of a host with `n` pages.
pub(crate) fn section_count(n: u32) -> u32 {
    if n < 4 {
        0
    } else {
        ((n - 1) / 20).max(1)
    }
}

impl Host {
    pub(crate) fn node(&self, local: u32) -> Node {
        if local == 0 {
            Node::Home
        } else if local <= self.sections {
            Node::Section(local)
        } else {
            Node::Leaf(local)
        }
    }

    pub(crate) fn is_institution(&self) -> bool {
        matches!(self.plan, Plan::Institution { .. })
    }

    /// Index of a leaf among the host's leaves.
    pub(crate) fn leaf_index(&self, local: u32) -> u32 {
        local - self.sections - 1
    }

    /// For institutions: is this leaf a person page (else a document)?
    pub(crate) fn is_person(&self, local: u32) -> bool {
        self.is_institution() && self.leaf_index(local).is_multiple_of(GROUP)
    }

    /// The page a leaf hangs under (section, home or, for documents, the person).
    pub(crate) fn parent_of(&self, local: u32) -> u32 {
        match self.node(local) {
            Node::Home => 0,
            Node::Section(k) => (k - 1) / BRANCH,
            Node::Leaf(_) => {
                let j = self.leaf_index(local);
                if self.is_institution() {
                    if !j.is_multiple_of(GROUP) {
                        return local - j % GROUP;
                    }
                    let g = j / GROUP;
                    return if self.sections == 0 {
                        0
                    } else {
                        1 + g % self.sections
                    };
                }
                if self.sections == 0 {
                    0
                } else {
                    1 + j % self.sections
                }
            }
        }
    }

    /// Child sections of the home (k = 0) or of section k.
    pub(crate) fn child_sections(&self, k: u32) -> impl Iterator<Item = u32> + '_ {
        let lo = BRANCH * k + 1;
        let hi = (BRANCH * k + BRANCH).min(self.sections);
        lo..=hi
    }

    /// Leaves listed on section `k` (or on the home page when there are no
    /// sections, k = 0): persons for institutions.
    pub(crate) fn listed_leaves(&self, k: u32) -> Vec<u32> {
        let s = self.sections;
        let leaves = self.len - s - 1;
        let step = if self.is_institution() { GROUP } else { 1 };
        let stride = s.max(1);
        let start = if s == 0 { 0 } else { k - 1 };
        let mut out = Vec::new();
        let mut g = start;
        while g * step < leaves && out.len() < 60 {
            out.push(s + 1 + g * step);
            g += stride;
        }
        out
    }

    /// Documents of a person page (institutions).
    pub(crate) fn documents_of(&self, person: u32) -> impl Iterator<Item = u32> + '_ {
        let end = (person + GROUP).min(self.len);
        (person + 1)..end
    }
}

/// All hosts, in page order, with lookups.
#[allow(clippy::struct_field_names)]
#[derive(Debug)]
pub(crate) struct Hosts {
    pub(crate) hosts: Vec<Host>,
    pub(crate) by_name: HashMap<String, u32>,
    /// Per leaf topic id: hosts carrying it, with cumulative popularity.
    pub(crate) carriers: Vec<Vec<(u32, f64)>>,
    /// Leaves a topical host's pages may drift to.
    pub(crate) drift: Vec<TopicId>,
    pub(crate) pages: u32,
}

const TLDS: &[&str] = &[
    "com", "com", "com", "net", "org", "org", "info", "biz", "co.uk", "de",
];

fn host_sizes(config: &WebConfig, count: u32, total: u32, rng: &mut impl Rng) -> Vec<u32> {
    let count = count.max(1) as usize;
    let raw: Vec<f64> = (0..count)
        .map(|_| (config.host_size_sigma * normal(rng)).exp())
        .collect();
    let cap = (f64::from(config.pages) * config.max_host_share).max(1.0);
    let mut scaled = raw.clone();
    for _ in 0..8 {
        let capped: f64 = scaled.iter().filter(|s| **s >= cap).map(|_| cap).sum();
        let free: f64 = raw
            .iter()
            .zip(&scaled)
            .filter(|(_, s)| **s < cap)
            .map(|(r, _)| *r)
            .sum();
        let factor = (f64::from(total) - capped).max(0.0) / free.max(1e-9);
        for (s, r) in scaled.iter_mut().zip(&raw) {
            *s = if *s >= cap {
                cap
            } else {
                (r * factor).min(cap)
            };
        }
    }
    let mut sizes: Vec<u32> = scaled.iter().map(|s| (s.floor() as u32).max(1)).collect();
    let mut sum: i64 = sizes.iter().map(|s| i64::from(*s)).sum();
    let mut i = 0usize;
    while sum != i64::from(total) && i < 100 * count {
        let k = i % count;
        if sum < i64::from(total) && f64::from(sizes[k]) < cap {
            sizes[k] += 1;
            sum += 1;
        } else if sum > i64::from(total) && sizes[k] > 1 {
            sizes[k] -= 1;
            sum -= 1;
        }
        i += 1;
    }
    sizes
}

impl Hosts {
    pub(crate) fn build(
        config: &WebConfig,
        topics: &Topics,
        seed: u64,
    ) -> Result<Self, WebsimError> {
        if config.pages < 100 || config.hosts < 10 || config.hosts > config.pages {
            return Err(WebsimError::Invalid(
                "need pages >= 100 and 10 <= hosts <= pages".into(),
            ));
        }
        let mut rng = rng_for(seed, purpose::HOSTS, 0);
        let universal: Vec<TopicId> = topics
            .leaves
            .iter()
            .copied()
            .filter(|l| {
                topics
                    .info(*l)
                    .is_some_and(|i| i.role == TopicRole::Universal)
            })
            .collect();
        let n_univ = if universal.is_empty() {
            0
        } else {
            config.universal_hosts.min(config.hosts / 4)
        };
        let univ_pages = if n_univ == 0 {
            0
        } else {
            ((f64::from(config.pages) * config.universal_share) as u32).max(n_univ)
        };
        let regular_hosts = config.hosts - n_univ;
        let mut sizes = host_sizes(config, regular_hosts, config.pages - univ_pages, &mut rng);
        let mut plans = Vec::with_capacity(config.hosts as usize);
        // Plan candidates weighted by topic weight.
        let mut cands: Vec<(Plan, f64)> = Vec::new();
        for l in &topics.leaves {
            let Some(info) = topics.info(*l) else {
                continue;
            };
            let plan = match info.role {
                TopicRole::Normal | TopicRole::Cooperative | TopicRole::Hub => Plan::Topical(*l),
                TopicRole::Competitive => Plan::Competitive {
                    topic: *l,
                    host: info.host_topic.unwrap_or(*l),
                },
                TopicRole::Context => Plan::Institution {
                    doc: *l,
                    home: info.home_topic.unwrap_or(*l),
                    dept: info.section_topic.unwrap_or(*l),
                    person: info.person_topic.unwrap_or(*l),
                },
                TopicRole::Universal | TopicRole::Structural => continue,
            };
            if info.weight > 0.0 {
                cands.push((plan, info.weight));
            }
        }
        if cands.is_empty() {
            return Err(WebsimError::Invalid("no topic can own hosts".into()));
        }
        let total_w: f64 = cands.iter().map(|c| c.1).sum();
        for _ in 0..regular_hosts {
            let mut u = rng.random::<f64>() * total_w;
            let mut chosen = cands[0].0;
            for (p, w) in &cands {
                if u < *w {
                    chosen = *p;
                    break;
                }
                u -= w;
            }
            plans.push(chosen);
        }
        for i in 0..n_univ {
            plans.push(Plan::Universal(universal[i as usize % universal.len()]));
            let base = univ_pages / n_univ;
            sizes.push(if i == 0 {
                univ_pages - base * (n_univ - 1)
            } else {
                base
            });
        }
        // Random page order of hosts (host index says nothing about topic).
        let mut order: Vec<usize> = (0..plans.len()).collect();
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        let mut ranks: Vec<usize> = (0..plans.len()).collect();
        for i in (1..ranks.len()).rev() {
            let j = rng.random_range(0..=i);
            ranks.swap(i, j);
        }
        let mut names = WordFactory::new();
        let mut by_name = HashMap::new();
        let mut hosts = Vec::with_capacity(plans.len());
        let mut first = 0u32;
        for (pos, &k) in order.iter().enumerate() {
            let len = sizes[k];
            let word = names.word(&mut rng);
            let tld = TLDS[rng.random_range(0..TLDS.len())];
            let name = if rng.random_range(0..5u32) == 0 {
                format!("{word}-{}.{tld}", rng.random_range(1..1000u32))
            } else {
                format!("www.{word}-{}.{tld}", rng.random_range(1..1000u32))
            };
            let mut popularity =
                1.0 / ((ranks[pos] + 1) as f64).powf(config.links.popularity_exponent);
            if matches!(plans[k], Plan::Universal(_)) {
                popularity *= 1000.0;
            }
            by_name.insert(name.clone(), hosts.len() as u32);
            hosts.push(Host {
                name,
                first,
                len,
                sections: section_count(len),
                plan: plans[k],
                popularity,
            });
            first += len;
        }
        for f in &config.faults {
            if by_name.contains_key(&f.host) || f.host == config.search_host {
                return Err(WebsimError::Invalid(format!(
                    "fault host `{}` collides",
                    f.host
                )));
            }
        }
        let mut carriers: Vec<Vec<(u32, f64)>> = vec![Vec::new(); topics.taxonomy.len()];
        for (i, h) in hosts.iter().enumerate() {
            let carried: Vec<TopicId> = match h.plan {
                Plan::Topical(t) | Plan::Universal(t) => vec![t],
                Plan::Competitive { topic, host } => vec![topic, host],
                Plan::Institution {
                    doc,
                    home,
                    dept,
                    person,
                } => vec![doc, home, dept, person],
            };
            for t in carried {
                let list = &mut carriers[t.0 as usize];
                let acc = list.last().map_or(0.0, |x| x.1) + h.popularity;
                list.push((i as u32, acc));
            }
        }
        let drift = topics
            .leaves
            .iter()
            .copied()
            .filter(|l| {
                topics
                    .info(*l)
                    .is_some_and(|i| matches!(i.role, TopicRole::Normal | TopicRole::Cooperative))
            })
            .collect();
        Ok(Self {
            hosts,
            by_name,
            carriers,
            drift,
            pages: first,
        })
    }

    /// The host holding page `pid` and the page's local index.
    pub(crate) fn locate(&self, pid: u32) -> Option<(u32, u32)> {
        if pid >= self.pages {
            return None;
        }
        let h = self
            .hosts
            .partition_point(|h| h.first <= pid)
            .checked_sub(1)?;
        Some((h as u32, pid - self.hosts[h].first))
    }

    /// The true topic of page `local` of host `h`.
    pub(crate) fn page_topic(&self, topics: &Topics, seed: u64, h: u32, local: u32) -> TopicId {
        let host = &self.hosts[h as usize];
        let node = host.node(local);
        match host.plan {
            Plan::Universal(t) => t,
            Plan::Topical(t) => {
                if node != Node::Leaf(local) {
                    return t;
                }
                let u = unit(hash3(
                    seed,
                    purpose::TOPIC,
                    u64::from(host.first + local),
                    0,
                ));
                if u < 0.80 {
                    t
                } else if u < 0.90 {
                    let sibs = topics.info(t).map_or(&[][..], |i| i.siblings.as_slice());
                    let ok: Vec<TopicId> = sibs
                        .iter()
                        .copied()
                        .filter(|s| self.drift.contains(s))
                        .collect();
                    if ok.is_empty() {
                        t
                    } else {
                        ok[((u - 0.80) / 0.10 * ok.len() as f64) as usize % ok.len()]
                    }
                } else if self.drift.is_empty() {
                    t
                } else {
                    self.drift
                        [((u - 0.90) / 0.10 * self.drift.len() as f64) as usize % self.drift.len()]
                }
            }
            Plan::Competitive { topic, host: ht } => {
                if node != Node::Leaf(local) {
                    return ht;
                }
                let u = unit(hash3(
                    seed,
                    purpose::TOPIC,
                    u64::from(host.first + local),
                    0,
                ));
                if u < 0.55 {
                    topic
                } else {
                    ht
                }
            }
            Plan::Institution {
                doc,
                home,
                dept,
                person,
            } => match node {
                Node::Home => home,
                Node::Section(_) => dept,
                Node::Leaf(l) => {
                    if host.is_person(l) {
                        person
                    } else {
                        doc
                    }
                }
            },
        }
    }

    /// A random host carrying topic `t`, popularity-weighted.
    pub(crate) fn pick_carrier(&self, t: TopicId, u: f64) -> Option<u32> {
        let list = self.carriers.get(t.0 as usize)?;
        let total = list.last()?.1;
        let x = u * total;
        let i = list.partition_point(|c| c.1 <= x).min(list.len() - 1);
        Some(list[i].0)
    }
}
