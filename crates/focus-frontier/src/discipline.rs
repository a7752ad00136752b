//! Frontier disciplines: each maps a candidate to an ordering key. Smaller
//! keys are fetched first. Keys are integers so that ordering is total and
//! exact (priorities are mapped through their IEEE bit patterns).

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64_with_seed;

use crate::candidate::Candidate;

/// The order in which the frontier hands out URLs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Discipline {
    /// (numtries ↑, priority ↓, serverload ↑): the VLDB 1999 paper.
    Lexicographic,
    /// (numtries ↑, priority ↓), ties by arrival: the WWW 1999 paper's
    /// soft-focus order, without the VLDB paper's `serverload` key.
    NumtriesPriority,
    /// (numtries ↑), then first come first served: the 1999 hard-focus crawl.
    NumtriesFifo,
    /// Nondecreasing depth, first come first served.
    BreadthFirst,
    /// Seeded pseudo-random order (the 1999 "unfocused" crawl).
    Random {
        /// Seed of the order.
        seed: u64,
    },
    /// Priority ↓ (Diligenti's "standard focused" baseline).
    BestFirst,
    /// Last come, first served: BINGO!'s depth-first learning phase.
    DepthFirst,
    /// Layer ↑ then priority ↓: the context-graph crawler's N+2 queues
    /// (candidates without a layer go to the last, "other" queue).
    Layered {
        /// Number of queues (N+2).
        layers: u32,
    },
}

/// An ordering key; `seq` (arrival order) breaks every tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key {
    pub(crate) a: u64,
    pub(crate) b: u64,
    pub(crate) seq: u64,
}

/// The fields of a queued URL that an order may look at.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sortable {
    pub(crate) id: u64,
    pub(crate) numtries: u32,
    pub(crate) depth: u32,
    pub(crate) priority: f64,
    pub(crate) layer: Option<u32>,
}

/// Maps a priority in [0, 1] to a key component where higher priority
/// sorts first.
fn desc(priority: f64) -> u64 {
    let p = if priority.is_nan() {
        0.0
    } else {
        priority.max(0.0)
    };
    u64::MAX - p.to_bits()
}

/// The priority a key component made by [`desc`] stands for.
fn undesc(component: u64) -> f64 {
    f64::from_bits(u64::MAX - component)
}

impl Discipline {
    /// The key of a candidate within its host queue.
    pub(crate) fn key(&self, c: &Candidate, seq: u64) -> Key {
        self.key_of(
            Sortable {
                id: c.id.0,
                numtries: c.numtries,
                depth: c.depth,
                priority: c.priority,
                layer: c.layer,
            },
            seq,
        )
    }

    /// The key of the fields an order may look at.
    pub(crate) fn key_of(&self, c: Sortable, seq: u64) -> Key {
        let (a, b) = match *self {
            Discipline::Lexicographic | Discipline::NumtriesPriority => {
                (u64::from(c.numtries), desc(c.priority))
            }
            Discipline::NumtriesFifo => (u64::from(c.numtries), 0),
            Discipline::BreadthFirst => (u64::from(c.depth), 0),
            Discipline::Random { seed } => (xxh3_64_with_seed(&c.id.to_le_bytes(), seed), 0),
            Discipline::BestFirst => (desc(c.priority), 0),
            Discipline::DepthFirst => (u64::MAX - seq, 0),
            Discipline::Layered { layers } => {
                let last = layers.saturating_sub(1);
                (
                    u64::from(c.layer.unwrap_or(last).min(last)),
                    desc(c.priority),
                )
            }
        };
        Key { a, b, seq }
    }

    /// The key a host competes with among ready hosts: its best entry's
    /// key, with the host's server load inserted where the discipline
    /// wants it (only the lexicographic order uses it).
    pub(crate) fn host_key(&self, best: Key, serverload: u64) -> (u64, u64, u64, u64) {
        match self {
            Discipline::Lexicographic => (best.a, best.b, serverload, best.seq),
            _ => (best.a, best.b, 0, best.seq),
        }
    }

    /// Which part of a key carries the priority, for the orders that use
    /// one (the one list of them).
    fn priority_part(&self) -> Option<KeyPart> {
        match self {
            Discipline::Lexicographic
            | Discipline::NumtriesPriority
            | Discipline::Layered { .. } => Some(KeyPart::B),
            Discipline::BestFirst => Some(KeyPart::A),
            _ => None,
        }
    }

    /// The priority of the URL a host competes with, read back from its
    /// rank ([`Discipline::host_key`]); `None` for orders that ignore
    /// priority.
    pub(crate) fn priority_in_rank(&self, rank: (u64, u64, u64, u64)) -> Option<f64> {
        self.priority_part().map(|part| {
            undesc(match part {
                KeyPart::A => rank.0,
                KeyPart::B => rank.1,
            })
        })
    }

    /// True when a host of this rank may be dispatched under `floor`: its
    /// best URL's priority is not below it, or the order ignores priority.
    pub(crate) fn clears_floor(&self, rank: (u64, u64, u64, u64), floor: f64) -> bool {
        !self.priority_in_rank(rank).is_some_and(|p| p < floor)
    }

    /// True when raising a queued URL's priority can change its order.
    pub(crate) fn uses_priority(&self) -> bool {
        self.priority_part().is_some()
    }
}

/// A part of an ordering key ([`Key::a`] or [`Key::b`]).
#[derive(Debug, Clone, Copy)]
enum KeyPart {
    A,
    B,
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::Canonicalizer;

    fn cand(p: f64, numtries: u32, depth: u32) -> Candidate {
        let url = Canonicalizer::default()
            .canonicalize("http://a.example/x")
            .unwrap();
        let mut c = Candidate::new(url, depth, None, p);
        c.numtries = numtries;
        c
    }

    #[test]
    fn lexicographic_puts_numtries_before_relevance() {
        let d = Discipline::Lexicographic;
        assert!(d.key(&cand(0.1, 0, 0), 5) < d.key(&cand(0.9, 1, 0), 1));
        assert!(d.key(&cand(0.9, 0, 0), 5) < d.key(&cand(0.1, 0, 0), 1));
        assert!(d.key(&cand(0.5, 0, 0), 1) < d.key(&cand(0.5, 0, 0), 2));
    }

    #[test]
    fn depth_first_serves_the_newest_url_first_whatever_its_priority() {
        let d = Discipline::DepthFirst;
        assert!(d.key(&cand(0.1, 0, 5), 9) < d.key(&cand(0.9, 0, 1), 8));
        assert!(d.key(&cand(0.9, 0, 1), 8) < d.key(&cand(0.9, 0, 1), 2));
        assert_eq!(
            d.priority_in_rank(d.host_key(d.key(&cand(0.5, 0, 0), 1), 0)),
            None
        );
    }

    #[test]
    fn a_rank_gives_back_the_priority_it_was_made_from() {
        for d in [
            Discipline::Lexicographic,
            Discipline::NumtriesPriority,
            Discipline::BestFirst,
            Discipline::Layered { layers: 3 },
        ] {
            for p in [0.0, 1e-300, 0.25, 0.999_999_9, 1.0] {
                let rank = d.host_key(d.key(&cand(p, 0, 0), 7), 3);
                assert_eq!(d.priority_in_rank(rank), Some(p), "{d:?} {p}");
            }
        }
        let fifo = Discipline::NumtriesFifo;
        assert_eq!(
            fifo.priority_in_rank(fifo.host_key(fifo.key(&cand(0.5, 0, 0), 1), 0)),
            None
        );
    }

    #[test]
    fn only_the_vldb_order_ranks_hosts_by_server_load() {
        let k = |d: Discipline| d.key(&cand(0.5, 0, 0), 4);
        let vldb = Discipline::Lexicographic;
        assert!(vldb.host_key(k(vldb), 1) < vldb.host_key(k(vldb), 9));
        let www = Discipline::NumtriesPriority;
        assert_eq!(www.host_key(k(www), 1), www.host_key(k(www), 9));
        assert_eq!(k(www), k(vldb));
    }

    #[test]
    fn breadth_first_orders_by_depth_then_arrival() {
        let d = Discipline::BreadthFirst;
        assert!(d.key(&cand(0.0, 0, 1), 9) < d.key(&cand(1.0, 0, 2), 1));
    }

    #[test]
    fn layered_sends_unlayered_to_the_last_queue() {
        let d = Discipline::Layered { layers: 4 };
        let mut c0 = cand(0.1, 0, 0);
        c0.layer = Some(0);
        let mut c9 = cand(0.9, 0, 0);
        c9.layer = Some(9);
        let none = cand(0.9, 0, 0);
        assert!(d.key(&c0, 2) < d.key(&c9, 1));
        assert_eq!(d.key(&c9, 1).a, d.key(&none, 1).a);
    }
}
