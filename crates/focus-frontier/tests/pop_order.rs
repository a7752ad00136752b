//! Property tests of each discipline's pop order and of dispatch: no id is
//! handed out twice, raises never lower, busy/cooling/bad hosts are never
//! handed out while another host is ready, topic caps hold.

use std::collections::{HashMap, HashSet};

use focus_core::{Canonicalizer, PageId};
use focus_frontier::{Candidate, Discipline, Frontier, PushResult, TopicCaps};
use proptest::prelude::*;

fn cand(host: u8, path: u16, depth: u32, priority: f64) -> Candidate {
    let url = Canonicalizer::default()
        .canonicalize(&format!("http://h{host}.example/p{path}"))
        .unwrap();
    Candidate::new(url, depth, None, priority)
}

/// Pushes, then pops everything with every host done immediately.
fn drain(f: &mut Frontier) -> Vec<Candidate> {
    let mut out = Vec::new();
    while let Some(c) = f.pop_ready(0) {
        f.host_done(&c.host, 0);
        out.push(c);
    }
    out
}

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

#[test]
fn a_cooling_host_does_not_block_a_ready_one() {
    let mut f = Frontier::new(Discipline::BestFirst);
    f.push(cand(1, 1, 0, 0.9));
    f.push(cand(1, 2, 0, 0.8));
    f.push(cand(2, 1, 0, 0.1));
    let first = f.pop_ready(0).unwrap();
    assert_eq!(first.priority, 0.9);
    f.host_done(&first.host, 1000);
    // Host 1 cools until t=1000: host 2's worse URL goes first.
    assert_eq!(f.pop_ready(10).unwrap().priority, 0.1);
    assert!(f.pop_ready(20).is_none());
    assert_eq!(f.next_ready_at(), Some(1000));
    assert_eq!(f.pop_ready(1000).unwrap().priority, 0.8);
}

#[test]
fn a_restored_cool_down_holds_a_host_without_a_fetch_in_flight() {
    // What a resumed crawl does for a host that was cooling when it stopped.
    let mut f = Frontier::new(Discipline::BestFirst);
    f.push(cand(1, 1, 0, 0.9));
    f.push(cand(2, 1, 0, 0.1));
    f.cool_until(&cand(1, 1, 0, 0.0).host, 500);
    assert_eq!(f.pop_ready(0).unwrap().priority, 0.1);
    assert!(f.pop_ready(499).is_none());
    assert_eq!(f.pop_ready(500).unwrap().priority, 0.9);
}

#[test]
fn a_floor_holds_poor_urls_back_while_a_promising_host_cools() {
    let mut f = Frontier::new(Discipline::Lexicographic);
    f.push(cand(1, 1, 0, 0.9));
    f.push(cand(1, 2, 0, 0.8));
    f.push(cand(2, 1, 0, 0.1));
    let first = f.pop_ready_at_least(0, 0.5).unwrap();
    assert_eq!(first.priority, 0.9);
    f.host_done(&first.host, 1000);
    // Host 2's URL is ready but below the floor: nothing is handed out and
    // nothing is lost; the promising host is ready at t=1000.
    assert!(f.pop_ready_at_least(10, 0.5).is_none());
    assert_eq!(f.len(), 2);
    assert_eq!(f.next_cooling_at_least(0.5), Some(1000));
    assert_eq!(f.pop_ready_at_least(1000, 0.5).unwrap().priority, 0.8);
    // Nothing promising is left anywhere: no host to wait for, and the
    // poor URL still comes out without a floor.
    f.host_done(&cand(1, 0, 0, 0.0).host, 2000);
    assert_eq!(f.next_cooling_at_least(0.5), None);
    assert_eq!(f.pop_ready(1000).unwrap().priority, 0.1);
}

#[test]
fn a_host_at_its_in_flight_limit_tells_whether_it_holds_promising_urls() {
    let mut f = Frontier::new(Discipline::BestFirst);
    f.push(cand(1, 1, 0, 0.9));
    f.push(cand(1, 2, 0, 0.6));
    f.push(cand(2, 1, 0, 0.1));
    let busy = f.pop_ready_at_least(0, 0.5).unwrap();
    // Host 1 is at its limit of one URL in flight: its next URL is not
    // handed out, but it still holds one above 0.5 and none above 0.7.
    assert!(f.pop_ready_at_least(0, 0.5).is_none());
    assert!(f.holds_at_least(&busy.host, 0.5));
    assert!(!f.holds_at_least(&busy.host, 0.7));
    assert!(!f.holds_at_least(&cand(2, 1, 0, 0.0).host, 0.5));
    assert!(
        !f.holds_at_least(&cand(3, 1, 0, 0.0).host, 0.0),
        "an unknown host holds nothing"
    );
    // Emptied, or tagged bad, a host holds nothing.
    f.host_done(&busy.host, 0);
    assert_eq!(f.pop_ready(0).unwrap().priority, 0.6);
    assert!(!f.holds_at_least(&busy.host, f64::NEG_INFINITY));
    f.mark_bad(&cand(2, 1, 0, 0.0).host);
    assert!(!f.holds_at_least(&cand(2, 1, 0, 0.0).host, f64::NEG_INFINITY));
}

#[test]
fn orders_that_ignore_priority_have_no_floor() {
    for d in [
        Discipline::BreadthFirst,
        Discipline::NumtriesFifo,
        Discipline::Random { seed: 3 },
    ] {
        let mut f = Frontier::new(d);
        f.push(cand(1, 1, 0, 0.0));
        f.push(cand(1, 2, 0, 0.0));
        let c = f.pop_ready_at_least(0, 0.9).unwrap();
        f.host_done(&c.host, 500);
        assert_eq!(f.next_cooling_at_least(0.9), Some(500), "{d:?}");
    }
}

#[test]
fn hub_citations_are_raised_to_the_maximum_and_bad_hosts_drained() {
    let mut f = Frontier::new(Discipline::Lexicographic);
    let low = cand(1, 1, 0, 0.1);
    f.push(cand(2, 1, 0, 0.5));
    f.push(low.clone());
    assert_eq!(f.raise_to_max(&[low.id, PageId(42)]), 1);
    assert_eq!(f.raise_to_max(&[low.id]), 0, "already at the maximum");
    assert_eq!(f.pop_ready(0).unwrap().id, low.id);
    let drained = f.mark_bad(&cand(2, 0, 0, 0.0).host);
    assert_eq!(drained.len(), 1);
    assert_eq!(f.push(cand(2, 9, 0, 1.0)), PushResult::Dropped);
    assert!(f.is_empty());
    assert_eq!(f.stats().dropped_bad_host, 2);
}

#[test]
fn a_hub_citation_is_raised_to_a_priority_but_never_lowered() {
    let mut f = Frontier::new(Discipline::Lexicographic);
    let (high, mid) = (cand(2, 1, 0, 0.5), cand(1, 1, 0, 0.3));
    f.push(high.clone());
    f.push(mid.clone());
    assert!(!f.raise(mid.id, 0.2), "a raise never lowers");
    assert!(!f.raise(PageId(42), 0.9), "not queued");
    assert_eq!(f.priority_of(mid.id), Some(0.3));
    assert!(f.raise(mid.id, 0.6));
    assert_eq!(f.priority_of(mid.id), Some(0.6));
    assert_eq!(f.stats().raised, 1);
    assert_eq!(f.pop_ready(0).unwrap().id, mid.id, "0.6 is above 0.5");
    assert_eq!(f.pop_ready(0).unwrap().id, high.id);
}

#[test]
fn a_queued_url_can_be_lowered_as_well_as_raised() {
    for spill in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let mut f = Frontier::new(Discipline::Lexicographic);
        if spill {
            // One URL in memory: the others wait in the cold tier.
            f = f.with_spill(dir.path(), 1).unwrap();
        }
        let (a, b, c) = (cand(1, 1, 0, 0.9), cand(1, 2, 0, 0.5), cand(2, 3, 0, 0.4));
        for x in [&a, &b, &c] {
            f.push(x.clone());
        }
        assert!(f.set_priority(a.id, 0.1), "lowered");
        assert!(f.set_priority(c.id, 0.7), "raised");
        assert!(!f.set_priority(c.id, 0.7), "unchanged");
        assert!(!f.set_priority(PageId(42), 0.3), "not queued");
        let order: Vec<PageId> = drain(&mut f).iter().map(|x| x.id).collect();
        assert_eq!(order, [c.id, b.id, a.id], "spill {spill}");
        assert!(!f.set_priority(a.id, 0.9), "handed out");
    }
    let mut bfs = Frontier::new(Discipline::BreadthFirst);
    let a = cand(1, 1, 0, 0.9);
    bfs.push(a.clone());
    assert!(!bfs.set_priority(a.id, 0.1), "an order without priorities");
}

#[test]
fn fetched_pages_are_never_queued_again() {
    let mut f = Frontier::new(Discipline::BreadthFirst);
    let c = cand(1, 1, 0, 0.5);
    f.mark_seen(c.id);
    assert_eq!(f.push(c), PushResult::AlreadySeen);
    let d = cand(1, 2, 0, 0.5);
    assert_eq!(f.push(d.clone()), PushResult::Queued);
    let popped = f.pop_ready(0).unwrap();
    f.host_done(&popped.host, 0);
    assert_eq!(f.push(d), PushResult::AlreadySeen);
}

#[test]
fn serverload_breaks_relevance_ties_across_hosts() {
    let mut f = Frontier::new(Discipline::Lexicographic);
    for p in 0..3 {
        f.push(cand(1, p, 0, 0.5));
    }
    f.push(cand(2, 0, 0, 0.5));
    let a = f.pop_ready(0).unwrap();
    f.host_done(&a.host, 0);
    // Host 1 served one URL already; host 2 has served none.
    let b = f.pop_ready(0).unwrap();
    assert_ne!(a.host, b.host);
}

#[test]
fn bingo_topic_queues_promote_the_best_incoming_url() {
    let caps = TopicCaps {
        incoming: 2,
        outgoing: 1,
    };
    let mut f = Frontier::new(Discipline::BestFirst).with_topic_caps(caps);
    let c = |host, path, p| {
        let mut c = cand(host, path, 0, p);
        c.layer = Some(7);
        c
    };
    assert_eq!(f.push(c(1, 1, 0.2)), PushResult::Queued); // outgoing
    assert_eq!(f.push(c(2, 1, 0.5)), PushResult::Queued); // incoming
    assert_eq!(f.push(c(3, 1, 0.9)), PushResult::Queued); // incoming
    assert_eq!(f.push(c(4, 1, 0.1)), PushResult::Dropped); // worse than all
    assert_eq!(f.push(c(4, 2, 0.7)), PushResult::Queued); // evicts 0.5
    assert_eq!(f.topic_sizes(7), (1, 2));
    assert_eq!(f.stats().dropped_topic_cap, 2);
    let order: Vec<f64> = drain(&mut f).iter().map(|c| c.priority).collect();
    assert_eq!(order, vec![0.2, 0.9, 0.7]);
}

#[test]
fn snapshot_and_handed_out_ids_resume_a_frontier() {
    let dir = tempfile::tempdir().unwrap();
    let mut f = Frontier::new(Discipline::BestFirst)
        .with_spill(dir.path(), 1)
        .unwrap();
    for p in 0..5 {
        f.push(cand(1, p, 0, f64::from(p) / 10.0));
    }
    let first = f.pop_ready(0).unwrap();
    let mut g = Frontier::new(Discipline::BestFirst);
    for id in f.handed_out() {
        g.mark_seen(id);
    }
    for c in f.snapshot().unwrap() {
        assert_eq!(g.push(c), PushResult::Queued);
    }
    assert_eq!(g.push(first), PushResult::AlreadySeen);
    assert_eq!(g.len(), 4);
    assert_eq!(g.pop_ready(0).unwrap().priority, 0.3);
}

#[test]
fn restored_server_load_and_insertion_order_reproduce_the_pop_order() {
    // The original frontier: host 1 served two URLs, then ties are queued.
    let mut original = Frontier::new(Discipline::Lexicographic);
    let queued = [
        cand(1, 10, 0, 0.5),
        cand(2, 10, 0, 0.5),
        cand(3, 10, 0, 0.5),
    ];
    for c in &queued {
        original.push(c.clone());
    }
    for _ in 0..2 {
        original.note_served(&queued[0].host);
    }
    let mut order: Vec<_> = queued
        .iter()
        .map(|c| (original.seq_of(c.id).unwrap(), c.clone()))
        .collect();
    // A resumed frontier gets them back in the store's (arbitrary) order,
    // sorts by the persisted rank and restores the load.
    order.reverse();
    order.sort_by_key(|(seq, _)| *seq);
    let mut resumed = Frontier::new(Discipline::Lexicographic);
    for (_, c) in order {
        resumed.push(c);
    }
    for _ in 0..2 {
        resumed.note_served(&queued[0].host);
    }
    let pops = |f: &mut Frontier| -> Vec<_> {
        std::iter::from_fn(|| f.pop_ready(0).map(|c| c.id)).collect()
    };
    let a = pops(&mut original);
    assert_eq!(a, pops(&mut resumed));
    assert_eq!(a.last(), Some(&queued[0].id), "the loaded host goes last");
    assert_eq!(original.seq_of(queued[0].id), None, "handed out");
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
