//! Which URLs dispatch holds back: a cooling host does not block a ready
//! one, a floor holds poor URLs while a promising host cools or is at its
//! in-flight limit, and orders that ignore priority have no floor.

mod common;

use common::cand;
use focus_frontier::{Discipline, Frontier};

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
