//! Priorities after queueing: hub citations raised, queued URLs raised or
//! lowered, bad hosts drained, fetched pages never queued again, ties
//! broken by server load, BINGO!'s topic queues.

mod common;

use common::{cand, drain};
use focus_core::PageId;
use focus_frontier::{Discipline, Frontier, PushResult, TopicCaps};

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
