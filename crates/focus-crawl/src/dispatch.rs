//! Which queued URLs go out in the next batch, on the crawl's logical
//! clock, and which frontier discipline a policy's order needs.

use focus_core::Dispatch;
use focus_frontier::{Candidate, Discipline, Frontier};

use crate::policy::Order;

/// The frontier's clock advances this much per batch. A logical clock keeps
/// the crawl's order independent of wall-clock timing (same seed, same
/// crawl); politeness is still enforced in real time by the fetcher, which
/// waits only if batches run faster than this tick.
pub(crate) const TICK_MS: u64 = 50;

/// The frontier discipline of a policy's order.
pub(crate) fn discipline(order: Order, seed: u64) -> Discipline {
    match order {
        Order::Lexicographic => Discipline::Lexicographic,
        Order::NumtriesPriority => Discipline::NumtriesPriority,
        Order::NumtriesFifo => Discipline::NumtriesFifo,
        Order::BreadthFirst => Discipline::BreadthFirst,
        Order::Random => Discipline::Random { seed },
        Order::BestFirst => Discipline::BestFirst,
        Order::DepthFirst => Discipline::DepthFirst,
    }
}

/// What the frontier gives the next batch.
pub(crate) enum Next {
    /// URLs to fetch now.
    Batch(Vec<Candidate>),
    /// Nothing to fetch before this logical time (hosts are cooling).
    WaitUntil(u64),
    /// Nothing is queued.
    Exhausted,
}

/// The priority below which URLs wait under `rule`, given the recent
/// harvest (moving average of relevance).
pub(crate) fn floor(rule: Dispatch, harvest: f64) -> f64 {
    match rule {
        Dispatch::Promising => harvest,
        Dispatch::Fill => f64::NEG_INFINITY,
    }
}

/// Up to `room` URLs ready at `now`: those at least as promising as
/// `floor` first. If a promising URL waits out a politeness interval, no
/// fetch is spent on worse ones: the batch goes out with what there is, or
/// the crawl waits for that host. Otherwise the batch fills in order, and
/// when nothing is ready the crawl waits for the first cooling host.
pub(crate) fn next_batch(frontier: &mut Frontier, now: u64, room: usize, floor: f64) -> Next {
    let mut batch: Vec<Candidate> = std::iter::from_fn(|| frontier.pop_ready_at_least(now, floor))
        .take(room)
        .collect();
    if batch.len() < room {
        match frontier.next_cooling_at_least(floor) {
            Some(at) if at > now => {
                if batch.is_empty() {
                    return Next::WaitUntil(at);
                }
            }
            _ => batch
                .extend(std::iter::from_fn(|| frontier.pop_ready(now)).take(room - batch.len())),
        }
    }
    if !batch.is_empty() {
        return Next::Batch(batch);
    }
    // Every queued host may be cooling down (politeness, robots.txt
    // crawl-delay): move the clock to the first one rather than stop.
    match frontier.next_ready_at() {
        Some(at) if at > now => Next::WaitUntil(at),
        _ => Next::Exhausted,
    }
}
