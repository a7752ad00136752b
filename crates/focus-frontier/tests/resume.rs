//! A frontier rebuilt from its snapshot, handed-out ids, server load and
//! insertion order pops as the original would have.

mod common;

use common::cand;
use focus_frontier::{Discipline, Frontier, PushResult};

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
