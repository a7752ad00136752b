//! Property tests of each discipline's pop order and of dispatch: no id is
//! handed out twice, raises never lower, busy/cooling/bad hosts are never
//! handed out while another host is ready, topic caps hold.

mod common;

use std::collections::{HashMap, HashSet};

use common::{cand, drain};
use focus_core::PageId;
use focus_frontier::{Candidate, Discipline, Frontier, PushResult, TopicCaps};
use proptest::prelude::*;

fn items() -> impl Strategy<Value = Vec<(u8, u16, u32, f64)>> {
    prop::collection::vec((0u8..5, 0u16..60, 0u32..6, 0.0f64..1.0), 1..120)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn best_first_pops_in_priority_order_and_never_twice(items in items()) {
        let mut f = Frontier::new(Discipline::BestFirst);
        for (h, p, d, r) in &items {
            f.push(cand(*h, *p, *d, *r));
        }
        let out = drain(&mut f);
        let ids: HashSet<PageId> = out.iter().map(|c| c.id).collect();
        prop_assert_eq!(ids.len(), out.len());
        prop_assert!(out.windows(2).all(|w| w[0].priority >= w[1].priority));
        prop_assert!(f.is_exhausted());
    }

    #[test]
    fn breadth_first_pops_in_nondecreasing_depth(items in items()) {
        let mut f = Frontier::new(Discipline::BreadthFirst);
        for (h, p, d, r) in &items {
            f.push(cand(*h, *p, *d, *r));
        }
        let out = drain(&mut f);
        prop_assert!(out.windows(2).all(|w| w[0].depth <= w[1].depth));
    }

    #[test]
    fn lexicographic_respects_numtries_then_relevance(items in items(), retries in prop::collection::vec(any::<bool>(), 120)) {
        let mut f = Frontier::new(Discipline::Lexicographic);
        for (h, p, d, r) in &items {
            f.push(cand(*h, *p, *d, *r));
        }
        // Pop everything once; put some back as retries (numtries = 1).
        let first = drain(&mut f);
        for (c, again) in first.into_iter().zip(retries) {
            if again {
                let id = c.id;
                f.retry(c);
                prop_assert_eq!(f.numtries_of(id), Some(1));
            }
        }
        for (h, p, d, r) in &items {
            f.push(cand(*h, *p + 1000, *d, *r));
        }
        // A retried URL raised by a new link keeps its count.
        for (h, p, d, r) in &items {
            let c = cand(*h, *p, *d, *r + 1.0);
            let (id, before) = (c.id, f.numtries_of(c.id));
            f.push(c);
            prop_assert_eq!(f.numtries_of(id), before);
        }
        let out = drain(&mut f);
        prop_assert!(out.windows(2).all(|w| (w[0].numtries, -w[0].priority) <= (w[1].numtries, -w[1].priority)));
    }

    #[test]
    fn layered_pops_from_the_lowest_non_empty_layer(items in items(), layers in prop::collection::vec(0u32..5, 120)) {
        let mut f = Frontier::new(Discipline::Layered { layers: 4 });
        for ((h, p, d, r), l) in items.iter().zip(layers) {
            let mut c = cand(*h, *p, *d, *r);
            c.layer = (l < 4).then_some(l);
            f.push(c);
        }
        let out = drain(&mut f);
        let layer = |c: &Candidate| c.layer.unwrap_or(3);
        prop_assert!(out.windows(2).all(|w| (layer(&w[0]), -w[0].priority) <= (layer(&w[1]), -w[1].priority)));
    }

    #[test]
    fn random_order_is_a_seeded_permutation(items in items(), seed in any::<u64>()) {
        let run = |seed| {
            let mut f = Frontier::new(Discipline::Random { seed });
            for (h, p, d, r) in &items {
                f.push(cand(*h, *p, *d, *r));
            }
            drain(&mut f).into_iter().map(|c| c.id).collect::<Vec<_>>()
        };
        let a = run(seed);
        prop_assert_eq!(&a, &run(seed));
        let distinct: HashSet<_> = items.iter().map(|(h, p, _, _)| (h, p)).collect();
        prop_assert_eq!(a.len(), distinct.len());
    }

    #[test]
    fn raises_never_lower_a_queued_priority(items in items()) {
        let mut f = Frontier::new(Discipline::Lexicographic);
        for (h, p, d, r) in &items {
            let c = cand(*h, *p, *d, *r);
            let before = f.priority_of(c.id);
            let result = f.push(c.clone());
            let after = f.priority_of(c.id);
            if let (Some(b), Some(a)) = (before, after) {
                prop_assert!(a >= b);
                prop_assert_eq!(a, b.max(*r));
                prop_assert_eq!(result == PushResult::Raised, *r > b);
            }
        }
    }

    #[test]
    fn topic_caps_are_never_exceeded(items in items(), inc in 0usize..6, out in 1usize..4) {
        let caps = TopicCaps { incoming: inc, outgoing: out };
        let mut f = Frontier::new(Discipline::BestFirst).with_topic_caps(caps);
        let mut popped = Vec::new();
        for (i, (h, p, d, r)) in items.iter().enumerate() {
            let mut c = cand(*h, *p, *d, *r);
            c.layer = Some(u32::from(*h % 2));
            f.push(c);
            if i % 3 == 0 {
                if let Some(c) = f.pop_ready(0) {
                    f.host_done(&c.host, 0);
                    popped.push(c);
                }
            }
            for t in 0..2 {
                let (o, n) = f.topic_sizes(t);
                prop_assert!(o <= out && n <= inc);
                // Nothing waits in incoming while outgoing has room.
                prop_assert!(n == 0 || o == out);
            }
            prop_assert_eq!(f.snapshot().unwrap().len(), f.len());
        }
        popped.extend(drain(&mut f));
        let ids: HashSet<PageId> = popped.iter().map(|c| c.id).collect();
        prop_assert_eq!(ids.len(), popped.len());
    }

    #[test]
    fn spilling_changes_nothing_but_memory(items in items(), bound in 0usize..20) {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Frontier::new(Discipline::Lexicographic);
        let mut b = Frontier::new(Discipline::Lexicographic).with_spill(dir.path(), bound).unwrap();
        for (h, p, d, r) in &items {
            prop_assert_eq!(a.push(cand(*h, *p, *d, *r)), b.push(cand(*h, *p, *d, *r)));
        }
        let mut sa = a.snapshot().unwrap();
        let mut sb = b.snapshot().unwrap();
        sa.sort_by_key(|c| c.id);
        sb.sort_by_key(|c| c.id);
        prop_assert_eq!(sa, sb);
        prop_assert_eq!(drain(&mut a), drain(&mut b));
        prop_assert_eq!(b.stats().spill_errors, 0);
        prop_assert_eq!(b.stats().spill_bytes, 0);
    }

    /// Interleaved pushes (new URLs and raises), pops and cool-downs,
    /// checked against a plain model: every pop is the best queued URL
    /// among hosts that are below their in-flight limit (host 0 has a
    /// limit of its own, `own`) and not cooling, and nothing is popped
    /// while every such host is empty.
    #[test]
    fn interleaved_dispatch_matches_a_model(
        ops in prop::collection::vec((0u8..4, 0u8..5, 0u16..30, 0.0f64..1.0, 0u64..40), 1..200),
        own in 1usize..4,
    ) {
        let mut f = Frontier::new(Discipline::BestFirst);
        f.set_host_limit(&cand(0, 0, 0, 0.0).host, own as u32);
        let limit = |host: u8| if host == 0 { own } else { 1 };
        // id -> (host, priority) of queued URLs; fetched ids; URLs of each
        // host in flight; when each host may be contacted again.
        let mut queued: HashMap<PageId, (u8, f64)> = HashMap::new();
        let mut fetched: HashSet<PageId> = HashSet::new();
        let mut in_flight: HashMap<u8, usize> = HashMap::new();
        let mut ready_at: HashMap<u8, u64> = HashMap::new();
        let mut now = 0u64;
        for (op, h, path, prio, dt) in ops {
            match op {
                0 | 1 => {
                    let c = cand(h, path, 0, prio);
                    let r = f.push(c.clone());
                    if fetched.contains(&c.id) {
                        prop_assert_eq!(r, PushResult::AlreadySeen);
                    } else if let Some(q) = queued.get_mut(&c.id) {
                        prop_assert_eq!(r == PushResult::Raised, prio > q.1);
                        q.1 = q.1.max(prio);
                    } else {
                        prop_assert_eq!(r, PushResult::Queued);
                        queued.insert(c.id, (h, prio));
                    }
                }
                2 => {
                    let eligible = |host: u8| {
                        in_flight.get(&host).copied().unwrap_or(0) < limit(host)
                            && ready_at.get(&host).is_none_or(|t| *t <= now)
                    };
                    let best = queued
                        .values()
                        .filter(|(host, _)| eligible(*host))
                        .map(|(_, p)| *p)
                        .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))));
                    match (f.pop_ready(now), best) {
                        (Some(c), Some(b)) => {
                            prop_assert_eq!(c.priority, b);
                            let (host, _) = queued.remove(&c.id).unwrap();
                            prop_assert!(eligible(host));
                            fetched.insert(c.id);
                            *in_flight.entry(host).or_insert(0) += 1;
                        }
                        (None, None) => {}
                        (got, want) => prop_assert!(false, "popped {:?}, model wanted {:?}", got.map(|c| c.priority), want),
                    }
                }
                _ => {
                    if let Some(n) = in_flight.get_mut(&h).filter(|n| **n > 0) {
                        *n -= 1;
                        f.host_done(&cand(h, 0, 0, 0.0).host, now + dt);
                        let at = ready_at.entry(h).or_insert(0);
                        *at = (*at).max(now + dt);
                    }
                    now += dt / 4;
                }
            }
        }
        prop_assert_eq!(f.len(), queued.len());
    }

    /// The cold tier changes nothing but memory: pushes, raises, hub
    /// raises, pops, retries and a bad host give the same answers as an
    /// in-memory frontier, whatever the bound and run length.
    #[test]
    fn the_cold_tier_changes_nothing_but_memory(
        ops in prop::collection::vec((0u8..10, 0u8..5, 0u16..40, 0.0f64..1.0), 1..400),
        bound in 0usize..30,
        run in 1usize..6,
        discipline in prop_oneof![
            Just(Discipline::Lexicographic),
            Just(Discipline::NumtriesPriority),
            Just(Discipline::BestFirst),
            Just(Discipline::BreadthFirst),
            Just(Discipline::Layered { layers: 3 }),
        ],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Frontier::new(discipline);
        let mut b = Frontier::new(discipline)
            .with_spill(dir.path(), bound)
            .unwrap()
            .with_cold_run_len(run);
        let mut out = Vec::new();
        for (op, h, path, prio) in ops {
            let mut c = cand(h, path, u32::from(path % 4), prio);
            c.layer = Some(u32::from(path % 3));
            let id = c.id;
            match op {
                0..=5 => prop_assert_eq!(a.push(c.clone()), b.push(c)),
                6 | 7 => {
                    let (x, y) = (a.pop_ready(0), b.pop_ready(0));
                    prop_assert_eq!(&x, &y);
                    if let Some(x) = x {
                        a.host_done(&x.host, 0);
                        b.host_done(&x.host, 0);
                        out.push(x);
                    }
                }
                8 => {
                    let ids = [id, cand(h, path / 2, 0, 0.0).id];
                    prop_assert_eq!(a.raise_to_max(&ids), b.raise_to_max(&ids));
                }
                _ => {
                    if h == 4 && path < 4 {
                        let (mut x, mut y) = (a.mark_bad(&c.host), b.mark_bad(&c.host));
                        x.sort_by_key(|c| c.id);
                        y.sort_by_key(|c| c.id);
                        prop_assert_eq!(x, y);
                    } else if let Some(old) = out.pop() {
                        prop_assert_eq!(a.retry(old.clone()), b.retry(old));
                    }
                }
            }
            prop_assert_eq!(a.len(), b.len());
            prop_assert_eq!(a.priority_of(id), b.priority_of(id));
        }
        let mut sa = a.snapshot().unwrap();
        let mut sb = b.snapshot().unwrap();
        sa.sort_by_key(|c| c.id);
        sb.sort_by_key(|c| c.id);
        prop_assert_eq!(sa, sb);
        prop_assert_eq!(drain(&mut a), drain(&mut b));
        prop_assert_eq!(b.stats().spill_errors, 0);
        prop_assert_eq!(b.stats().spill_bytes, 0);
        prop_assert!(b.is_exhausted());
    }

    #[test]
    fn busy_cooling_and_bad_hosts_wait_while_others_are_ready(items in items(), now in 0u64..100) {
        let mut f = Frontier::new(Discipline::BestFirst);
        for (h, p, d, r) in &items {
            f.push(cand(*h, *p, *d, *r));
        }
        let bad = cand(4, 0, 0, 0.0).host;
        f.mark_bad(&bad);
        let mut busy = HashSet::new();
        let mut t = now;
        while let Some(c) = f.pop_ready(t) {
            prop_assert!(c.host != bad);
            prop_assert!(busy.insert(c.host.clone()), "host handed out while busy");
            // Every second host cools down for 50 ms after its fetch.
            if busy.len() % 2 == 0 {
                let h = c.host.clone();
                busy.remove(&h);
                f.host_done(&h, t + 50);
            }
            t += 1;
        }
        // Whatever is left waits on a busy or cooling host, never a ready one.
        if let Some(at) = f.next_ready_at() {
            prop_assert!(at > t - 1 || !busy.is_empty());
        }
    }
}

proptest! {
    /// With a floor, the frontier hands out exactly the queued URLs at or
    /// above it, best first as without one, and keeps every other URL.
    #[test]
    fn a_floor_hands_out_the_promising_prefix_and_keeps_the_rest(
        items in items(),
        floor in 0.0f64..1.0,
    ) {
        let mut with = Frontier::new(Discipline::BestFirst);
        let mut queued = HashMap::new();
        for (h, p, d, pr) in items {
            let c = cand(h, p, d, pr);
            if matches!(with.push(c.clone()), PushResult::Queued | PushResult::Raised) {
                let p = queued.entry(c.id).or_insert(c.priority);
                *p = p.max(c.priority);
            }
        }
        let mut out = Vec::new();
        while let Some(c) = with.pop_ready_at_least(0, floor) {
            with.host_done(&c.host, 0);
            out.push(c);
        }
        let expected = queued.values().filter(|&&p| p >= floor).count();
        prop_assert_eq!(out.len(), expected);
        prop_assert!(out.iter().all(|c| c.priority >= floor));
        prop_assert!(out.windows(2).all(|w| w[0].priority >= w[1].priority));
        prop_assert_eq!(with.len(), queued.len() - expected);
        prop_assert_eq!(with.next_cooling_at_least(floor), None);
    }
}
