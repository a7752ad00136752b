//! Out-links of a page as a pure function of the seed and the page id:
//! same-host navigation (home, sections, listed leaves, siblings; for
//! institutions department -> person -> documents), and cross-host links with
//! topical locality (a per-page focus topic), co-citation, popular homes
//! (authorities), hub pages, universal sites and links into fault hosts.

use focus_core::TopicId;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::config::TopicRole;
use crate::hosts::{Node, Plan};
use crate::rng::{purpose, rng_for};
use crate::web::Web;

/// Where a link points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkTarget {
    /// A regular page, by id.
    Page(u32),
    /// A fault host (index into the configured faults) with a parameter
    /// (usually the page id it redirects to or mirrors).
    Fault {
        /// Index of the fault host in `WebConfig::faults`.
        fault: u16,
        /// Parameter of the fault URL.
        n: u32,
    },
    /// A dead link (`LinkConfig::dead_cross_host`): it was a link to page
    /// `was`, whose host no longer has it (404) or no longer exists.
    Dead {
        /// The page the link pointed at.
        was: u32,
        /// The whole host is gone (its name does not resolve).
        host_gone: bool,
    },
}

/// One out-link of a generated page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The target.
    pub target: LinkTarget,
    /// Same-host navigation or boilerplate (rendered in menus and footers).
    pub nav: bool,
}

impl Web {
    /// The out-links of page `pid` as generated (empty for unknown ids).
    pub fn out_links(&self, pid: u32) -> Vec<Link> {
        let Some((h, local)) = self.hosts.locate(pid) else {
            return Vec::new();
        };
        let host = &self.hosts.hosts[h as usize];
        let first = host.first;
        let mut rng = rng_for(self.seed, purpose::LINKS, u64::from(pid));
        let mut out: Vec<Link> = Vec::with_capacity(16);
        let nav = |out: &mut Vec<Link>, local: u32| {
            out.push(Link {
                target: LinkTarget::Page(first + local),
                nav: true,
            });
        };
        let content = |out: &mut Vec<Link>, local: u32| {
            out.push(Link {
                target: LinkTarget::Page(first + local),
                nav: false,
            });
        };
        let topic = self.hosts.page_topic(&self.topics, self.seed, h, local);
        let role = self
            .topics
            .info(topic)
            .map_or(TopicRole::Normal, |i| i.role);
        let competitive_host = matches!(host.plan, Plan::Competitive { .. });
        let leaves_total = host.len - host.sections - 1;
        let mut externals;
        match host.node(local) {
            Node::Home => {
                for s in host.child_sections(0) {
                    nav(&mut out, s);
                }
                if host.sections == 0 {
                    for l in host.listed_leaves(0) {
                        content(&mut out, l);
                    }
                } else if leaves_total > 0 {
                    for _ in 0..3 {
                        let l = host.sections + 1 + rng.random_range(0..leaves_total);
                        if !host.is_institution() || host.is_person(l) {
                            content(&mut out, l);
                        }
                    }
                }
                externals = 2 + Self::geometric(&mut rng, 1.5);
            }
            Node::Section(k) => {
                nav(&mut out, 0);
                let parent = host.parent_of(local);
                if parent != 0 {
                    nav(&mut out, parent);
                }
                for s in host.child_sections(k) {
                    nav(&mut out, s);
                }
                for l in host.listed_leaves(k) {
                    content(&mut out, l);
                }
                externals = Self::geometric(&mut rng, 0.6);
            }
            Node::Leaf(l) => {
                nav(&mut out, 0);
                let parent = host.parent_of(l);
                if parent != 0 {
                    nav(&mut out, parent);
                }
                if host.is_institution() {
                    if host.is_person(l) {
                        for d in host.documents_of(l) {
                            content(&mut out, d);
                        }
                        // Collaborators: person pages of other institutions.
                        for _ in 0..rng.random_range(3..9u32) {
                            if let Some(p) = self.pick_uniform_page_of(topic, &mut rng, h) {
                                out.push(Link {
                                    target: LinkTarget::Page(p),
                                    nav: false,
                                });
                            }
                        }
                    }
                } else if rng.random::<f64>() < 0.14
                    && leaves_total > 8
                    && !(competitive_host && role == TopicRole::Competitive)
                {
                    // A list page: many leaves of the same host side by side.
                    for _ in 0..rng.random_range(14..30u32) {
                        let s = host.sections + 1 + rng.random_range(0..leaves_total);
                        if s != l {
                            content(&mut out, s);
                        }
                    }
                } else if !competitive_host {
                    let list = host.listed_leaves(parent);
                    if list.len() > 1 {
                        for _ in 0..3 {
                            let s = list[rng.random_range(0..list.len())];
                            if s != l {
                                content(&mut out, s);
                            }
                        }
                    }
                }
                externals = if rng.random::<f64>() < 0.04 {
                    rng.random_range(10..30u32)
                } else {
                    Self::geometric(&mut rng, self.config.links.external_mean)
                };
                if role == TopicRole::Context {
                    externals = externals.min(3);
                }
                if role == TopicRole::Competitive {
                    externals = externals.max(1);
                }
            }
        }
        // Hub (directory) pages list many pages of their subtree.
        let hub_of = self.topics.info(topic).and_then(|i| i.hub_of);
        if let (Some(sub), TopicRole::Hub) = (hub_of, role) {
            let n = rng.random_range(
                self.config.links.hub_min
                    ..self.config.links.hub_max.max(self.config.links.hub_min + 1),
            );
            let targets: Vec<TopicId> = self
                .topics
                .taxonomy
                .descendants(sub)
                .filter(|d| self.topics.taxonomy.is_leaf(*d) && *d != topic)
                .collect();
            for _ in 0..n {
                if targets.is_empty() {
                    break;
                }
                let p = if rng.random::<f64>() < 0.75 {
                    self.pick_page_of(targets[rng.random_range(0..targets.len())], &mut rng, h)
                } else {
                    Some(rng.random_range(0..self.hosts.pages))
                };
                if let Some(p) = p.filter(|p| self.hosts.locate(*p).is_some_and(|x| x.0 != h)) {
                    out.push(Link {
                        target: LinkTarget::Page(p),
                        nav: false,
                    });
                }
            }
        }
        self.external_links(&mut out, &mut rng, h, topic, role, externals);
        // Footer: home pages credit a universal site.
        if local == 0 {
            if let Some(p) = self.pick_universal(&mut rng, true) {
                out.push(Link {
                    target: LinkTarget::Page(p),
                    nav: true,
                });
            }
        }
        self.kill_links(pid, h, &mut out);
        out
    }

    /// Turns a share of the content links to other hosts into dead links
    /// (`LinkConfig::dead_cross_host`), from a stream of their own so the
    /// web without dead links is unchanged.
    fn kill_links(&self, pid: u32, h: u32, out: &mut [Link]) {
        let dead = self.config.links.dead_cross_host;
        if dead <= 0.0 {
            return;
        }
        let mut rng = rng_for(self.seed, purpose::DEAD, u64::from(pid));
        for l in out.iter_mut().filter(|l| !l.nav) {
            if let LinkTarget::Page(p) = l.target {
                if self.hosts.locate(p).is_some_and(|x| x.0 != h) && rng.random::<f64>() < dead {
                    l.target = LinkTarget::Dead {
                        was: p,
                        host_gone: rng.random::<bool>(),
                    };
                }
            }
        }
    }

    fn geometric(rng: &mut ChaCha8Rng, mean: f64) -> u32 {
        let p = 1.0 / (1.0 + mean.max(0.0));
        let mut k = 0;
        while k < 60 && rng.random::<f64>() > p {
            k += 1;
        }
        k
    }

    fn external_links(
        &self,
        out: &mut Vec<Link>,
        rng: &mut ChaCha8Rng,
        h: u32,
        topic: TopicId,
        role: TopicRole,
        count: u32,
    ) {
        let lc = &self.config.links;
        let p_self = match role {
            TopicRole::Cooperative => lc.self_cooperative,
            TopicRole::Context => lc.self_context,
            TopicRole::Competitive | TopicRole::Structural | TopicRole::Universal => 0.0,
            TopicRole::Normal | TopicRole::Hub => lc.self_normal,
        };
        let host = &self.hosts.hosts[h as usize];
        let p_self = if host.is_institution() && role == TopicRole::Structural {
            0.6
        } else {
            p_self
        };
        // Competitive pages point at their parent topic's pages (directories,
        // neighbouring topics), never at rivals.
        let sibling = if role == TopicRole::Competitive {
            0.6
        } else {
            lc.sibling
        };
        let r: f64 = rng.random();
        let focus = if r < p_self {
            Some(topic)
        } else if r < p_self + sibling {
            let sibs: Vec<TopicId> = self
                .topics
                .info(topic)
                .map(|i| {
                    i.siblings
                        .iter()
                        .copied()
                        .filter(|s| {
                            self.hosts
                                .carriers
                                .get(s.0 as usize)
                                .is_some_and(|c| !c.is_empty())
                                // Competitive pages point at their parent's
                                // directories rather than at other siblings.
                                && (role != TopicRole::Competitive
                                    || self.topics.info(*s).is_some_and(|i| i.role == TopicRole::Hub))
                        })
                        .collect()
                })
                .unwrap_or_default();
            if sibs.is_empty() {
                None
            } else {
                Some(sibs[rng.random_range(0..sibs.len())])
            }
        } else if r < p_self + sibling + 0.25 && !self.hosts.drift.is_empty() {
            Some(self.hosts.drift[rng.random_range(0..self.hosts.drift.len())])
        } else {
            None
        };
        let stick = if role == TopicRole::Competitive {
            0.8
        } else {
            lc.focus_stick
        };
        for _ in 0..count {
            let u: f64 = rng.random();
            let target = if u < lc.universal_rate {
                self.pick_universal(rng, false).map(LinkTarget::Page)
            } else if u < lc.universal_rate + lc.fault_rate && !self.faults.is_empty() {
                Some(LinkTarget::Fault {
                    fault: rng.random_range(0..self.faults.len()) as u16,
                    n: rng.random_range(0..self.hosts.pages),
                })
            } else if let (Some(f), true) = (focus, rng.random::<f64>() < stick) {
                self.pick_page_of(f, rng, h).map(LinkTarget::Page)
            } else {
                Some(LinkTarget::Page(rng.random_range(0..self.hosts.pages)))
            };
            let Some(target) = target else { continue };
            if let LinkTarget::Page(p) = target {
                let Some((th, tl)) = self.hosts.locate(p) else {
                    continue;
                };
                if th == h {
                    continue;
                }
                // Competitive pages never cite their rivals.
                if role == TopicRole::Competitive
                    && self.hosts.page_topic(&self.topics, self.seed, th, tl) == topic
                {
                    continue;
                }
            }
            out.push(Link { target, nav: false });
        }
    }

    /// A page of topic `t` on another host than `avoid` (popular hosts and
    /// their home pages preferred), if one is found quickly.
    pub(crate) fn pick_page_of(&self, t: TopicId, rng: &mut ChaCha8Rng, avoid: u32) -> Option<u32> {
        for _ in 0..3 {
            let h = self.hosts.pick_carrier(t, rng.random())?;
            if h == avoid {
                continue;
            }
            let host = &self.hosts.hosts[h as usize];
            if rng.random::<f64>() < self.config.links.home_bias
                && self.hosts.page_topic(&self.topics, self.seed, h, 0) == t
            {
                return Some(host.first);
            }
            for _ in 0..8 {
                let l = rng.random_range(0..host.len);
                if self.hosts.page_topic(&self.topics, self.seed, h, l) == t {
                    return Some(host.first + l);
                }
            }
        }
        None
    }

    /// A page of topic `t` on a host drawn uniformly (not by popularity).
    fn pick_uniform_page_of(&self, t: TopicId, rng: &mut ChaCha8Rng, avoid: u32) -> Option<u32> {
        let list = self.hosts.carriers.get(t.0 as usize)?;
        for _ in 0..3 {
            let h = list.get(rng.random_range(0..list.len().max(1)))?.0;
            if h == avoid {
                continue;
            }
            let host = &self.hosts.hosts[h as usize];
            for _ in 0..8 {
                let l = rng.random_range(0..host.len);
                if self.hosts.page_topic(&self.topics, self.seed, h, l) == t {
                    return Some(host.first + l);
                }
            }
        }
        None
    }

    fn pick_universal(&self, rng: &mut ChaCha8Rng, home: bool) -> Option<u32> {
        let t = *self
            .universal
            .get(rng.random_range(0..self.universal.len().max(1)))?;
        let h = self.hosts.pick_carrier(t, rng.random())?;
        let host = &self.hosts.hosts[h as usize];
        if home || rng.random::<f64>() < 0.5 {
            Some(host.first)
        } else {
            Some(host.first + rng.random_range(0..host.len))
        }
    }
}
