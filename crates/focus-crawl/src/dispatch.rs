//! Which queued URLs go out in the next batch, on the crawl's logical
//! clock, and which frontier discipline a policy's order needs.

use focus_core::{Dispatch, HostKey};
use focus_frontier::{Candidate, Discipline, Frontier};

use crate::apprentice::PRIOR_PAGES;
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

/// What the frontier gives the next batch. `held` is set when the batch
/// went out short, or the crawl waits, for a host (cooling, or at its
/// in-flight limit) that holds more promising URLs while other hosts had
/// URLs ready: the price of
/// [`Dispatch::Promising`] in wall time (`summary.json`'s
/// `held_for_promising`).
#[derive(Debug)]
pub(crate) enum Next {
    /// URLs to fetch now. `cooled_at` is set when the batch went out
    /// short for a host cooling until then (or busy, [`BusyHost`]) that
    /// holds a promising URL: a stream decides again at that time, with
    /// the slots the batch left free, rather than at the next answer.
    Batch {
        urls: Vec<Candidate>,
        held: bool,
        cooled_at: Option<u64>,
    },
    /// Nothing to fetch before this logical time (hosts are cooling).
    WaitUntil { at: u64, held: bool },
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

/// Under the promising rule a batch first takes the ready URLs at least
/// this share of the best ready URL's priority (and at least the crawl's
/// recent harvest), and waits on a host it has filled to its in-flight
/// limit only for URLs that near the best. Without it, a crawl whose
/// harvest was still near zero (from generic seeds) found every URL
/// promising: a batch took the two best URLs of the host where the topic
/// was and filled its other thirty slots with the poor URLs of every other
/// host, so on a web of a few hosts its first few hundred fetches went round
/// the hosts almost breadth-first (`docs/crawl.md`, "Promising is relative
/// to the best ready URL"). A host waiting out a politeness interval is
/// still waited for only after the batch has taken every URL at least as
/// promising as the harvest: that wait costs real time. Half is the first
/// value tried, not a fitted one.
pub(crate) const PROMISING_SHARE_OF_BEST: f64 = 0.5;

/// How many URLs the next batch may take, of a crawl whose batch is
/// `batch` with `left` fetch attempts to go, `searching` while it looks
/// for a foothold ([`searching`]): one URL at a time then, the whole batch
/// otherwise.
pub(crate) fn room(batch: usize, left: u64, searching: bool) -> usize {
    let full = usize::try_from(left).unwrap_or(usize::MAX).min(batch);
    if searching {
        full.min(1)
    } else {
        full
    }
}

/// Whether a crawl is still looking for a foothold and so decides after
/// every fetch: it orders by priority under the promising rule, scores
/// links with the apprentice, has fetched its first batch (its seeds, which
/// it fetches whatever it decides) but judged no page relevant, and has
/// made fewer than [`PRIOR_PAGES`] attempts (where the apprentice is half
/// confident). Until then every outlink of a page has the page's priority,
/// and from seeds far from the topic (a web's most linked-to pages) a full
/// batch took a block of such ties across every host before any of them
/// was judged, where one fetch at a time (as the reference crawler and the
/// WWW 2002 apprentice decide) follows the first relevant page as soon as
/// it is found. A crawl whose seeds are on the topic never searches.
pub(crate) fn searching(
    rule: Dispatch,
    uses_link_model: bool,
    judged_relevant: u64,
    fetched: u64,
) -> bool {
    rule == Dispatch::Promising
        && uses_link_model
        && judged_relevant == 0
        && fetched > 0
        && (fetched as f64) < PRIOR_PAGES
}

/// Up to `room` URLs ready at `now`: first those near the best (at least
/// `floor`, the recent harvest, and [`PROMISING_SHARE_OF_BEST`] of the
/// best ready URL's priority). If a URL at least `floor` waits out a
/// politeness interval, the batch takes the ready URLs at least `floor`
/// and goes out with what there is, or the crawl waits for that host; if
/// a URL near the best waits on a host this batch has filled to its
/// in-flight limit, the batch goes out with what there is. Otherwise the
/// batch fills in order, and when nothing is ready the crawl waits for the
/// first cooling host. A host of `busy` (in a stream, one with a fetch out
/// for an earlier slot, that asks for an interval) holding a URL at least
/// `floor` counts as cooling until `now` plus its interval; the batch loop
/// decides with nothing out and passes none.
pub(crate) fn next_batch(
    frontier: &mut Frontier,
    now: u64,
    room: usize,
    floor: f64,
    busy: &[BusyHost],
) -> Next {
    let mut batch: Vec<Candidate> = std::iter::from_fn(|| frontier.pop_ready_at_least(now, floor))
        .take(room.min(1))
        .collect();
    let near_best = match batch.first() {
        Some(best) if floor > f64::NEG_INFINITY => {
            floor.max(PROMISING_SHARE_OF_BEST * best.priority)
        }
        _ => floor,
    };
    let more = |frontier: &mut Frontier, batch: &mut Vec<Candidate>, floor: f64| {
        let left = room.saturating_sub(batch.len());
        batch.extend(std::iter::from_fn(|| frontier.pop_ready_at_least(now, floor)).take(left));
    };
    more(frontier, &mut batch, near_best);
    if batch.len() < room {
        let cooling = frontier.next_cooling_at_least(floor).filter(|&at| at > now);
        let busy_cools_at = busy
            .iter()
            .filter(|b| frontier.holds_at_least(&b.host, floor))
            .map(|b| now.saturating_add(b.interval_ms))
            .min();
        match cooling.into_iter().chain(busy_cools_at).min() {
            // Waiting out a politeness interval costs real time: the batch
            // first takes every ready URL at least as promising as the
            // recent harvest, as it did before promising became relative.
            Some(at) => {
                more(frontier, &mut batch, floor);
                if batch.len() < room {
                    let held = frontier.any_ready(now);
                    if batch.is_empty() {
                        return Next::WaitUntil { at, held };
                    }
                    return Next::Batch {
                        urls: batch,
                        held,
                        cooled_at: Some(at),
                    };
                }
            }
            // A host this batch has filled to its in-flight limit that
            // still holds URLs near the best is waited for the same way:
            // the batch goes out with what there is.
            None if holds_promising(frontier, &batch, near_best) => {
                let held = frontier.any_ready(now);
                return Next::Batch {
                    urls: batch,
                    held,
                    cooled_at: None,
                };
            }
            None => batch
                .extend(std::iter::from_fn(|| frontier.pop_ready(now)).take(room - batch.len())),
        }
    }
    if !batch.is_empty() {
        return Next::Batch {
            urls: batch,
            held: false,
            cooled_at: None,
        };
    }
    // Every queued host may be cooling down (politeness, robots.txt
    // crawl-delay): move the clock to the first one rather than stop.
    match frontier.next_ready_at() {
        Some(at) if at > now => Next::WaitUntil { at, held: false },
        _ => Next::Exhausted,
    }
}

/// A host with a fetch out when the dispatch decides (in a stream, a URL
/// popped for an earlier slot and not yet applied) that asks for a
/// politeness interval: once its answer is applied it cools for
/// `interval_ms`, so until then it is as good as cooling.
#[derive(Debug, Clone)]
pub(crate) struct BusyHost {
    pub(crate) host: HostKey,
    pub(crate) interval_ms: u64,
}

/// Whether a host of `batch` still holds a URL at least as promising as
/// `floor`. Such a host is, in a priority order, at its in-flight limit
/// (else the batch would have taken that URL), so its next URL comes with
/// the next batch. Under the fill rule (no floor) nothing is held.
fn holds_promising(frontier: &mut Frontier, batch: &[Candidate], floor: f64) -> bool {
    floor > f64::NEG_INFINITY
        && batch
            .iter()
            .any(|c| frontier.holds_at_least(&c.host, floor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::{Canonicalizer, HostKey};

    fn cand(url: &str, priority: f64) -> Candidate {
        let url = Canonicalizer::default().canonicalize(url).unwrap();
        Candidate::new(url, 1, None, priority)
    }

    fn host(url: &str) -> HostKey {
        cand(url, 0.0).host
    }

    /// Host a holds two good URLs and has just been fetched: it cools
    /// until 1,000 ms. `others` are queued beside it.
    fn a_cooling(others: &[(&str, f64)]) -> Frontier {
        let mut f = Frontier::new(Discipline::BestFirst).with_max_in_flight_per_host(1);
        for &(u, p) in [("http://a.example/1", 0.9), ("http://a.example/2", 0.8)]
            .iter()
            .chain(others)
        {
            f.push(cand(u, p));
        }
        let first = f.pop_ready(0).unwrap();
        assert_eq!(first.url.as_str(), "http://a.example/1");
        f.host_done(&host("http://a.example/"), 1_000);
        f
    }

    /// Host b's two poor URLs, ready.
    const B_POOR: [(&str, f64); 2] = [("http://b.example/1", 0.2), ("http://b.example/2", 0.1)];

    /// A batch's URLs and whether it was held.
    fn batch(next: Next) -> (Vec<String>, bool) {
        match next {
            Next::Batch { urls, held, .. } => (
                urls.iter().map(|c| c.url.as_str().to_owned()).collect(),
                held,
            ),
            other => panic!("not a batch: {other:?}"),
        }
    }

    /// When a batch's free slots are to be offered URLs again, if before
    /// the next answer.
    fn cooled_at(next: &Next) -> Option<u64> {
        match next {
            Next::Batch { cooled_at, .. } => *cooled_at,
            other => panic!("not a batch: {other:?}"),
        }
    }

    #[test]
    fn the_crawl_waits_for_a_promising_host_rather_than_fetch_poor_urls() {
        let mut f = a_cooling(&B_POOR);
        let next = next_batch(&mut f, 50, 4, 0.5, &[]);
        assert!(
            matches!(
                next,
                Next::WaitUntil {
                    at: 1_000,
                    held: true
                }
            ),
            "{next:?}"
        );
        assert_eq!(f.len(), 3, "nothing was handed out");
        // Once a is ready its URL goes first; with no promising URL left
        // waiting, the batch then fills in order.
        assert_eq!(
            batch(next_batch(&mut f, 1_000, 4, 0.5, &[])),
            (
                vec!["http://a.example/2".into(), "http://b.example/1".into()],
                false
            )
        );
    }

    #[test]
    fn a_batch_goes_out_short_with_the_promising_urls_that_are_ready() {
        let mut f = a_cooling(&[B_POOR[0], B_POOR[1], ("http://c.example/1", 0.7)]);
        let next = next_batch(&mut f, 50, 4, 0.5, &[]);
        // Its free slots are for host a, which is ready at 1,000.
        assert_eq!(cooled_at(&next), Some(1_000));
        assert_eq!(batch(next), (vec!["http://c.example/1".into()], true));
        // A batch that fills in order waits on no host.
        let filled = next_batch(&mut a_cooling(&B_POOR), 50, 4, 0.95, &[]);
        assert_eq!(cooled_at(&filled), None);
    }

    #[test]
    fn with_nothing_promising_waiting_or_under_fill_the_batch_fills_in_order() {
        // The floor is above every queued URL: nothing is worth waiting for.
        let filled = (vec!["http://b.example/1".into()], false);
        assert_eq!(
            batch(next_batch(&mut a_cooling(&B_POOR), 50, 4, 0.95, &[])),
            filled
        );
        let fill = floor(Dispatch::Fill, 0.5);
        assert_eq!(
            batch(next_batch(&mut a_cooling(&B_POOR), 50, 4, fill, &[])),
            filled
        );
    }

    #[test]
    fn a_batch_goes_out_short_when_a_host_it_has_filled_holds_more_promising_urls() {
        // Host a gives one URL at a time and holds three good ones; host b
        // holds two poor ones, ready.
        let busy_a = || {
            let mut f = Frontier::new(Discipline::BestFirst).with_max_in_flight_per_host(1);
            for (u, p) in [
                ("http://a.example/1", 0.9),
                ("http://a.example/2", 0.8),
                ("http://a.example/3", 0.7),
            ]
            .into_iter()
            .chain(B_POOR)
            {
                f.push(cand(u, p));
            }
            f
        };
        let mut f = busy_a();
        assert_eq!(
            batch(next_batch(&mut f, 0, 4, 0.5, &[])),
            (vec!["http://a.example/1".into()], true)
        );
        // When a's fetch is done its next URL goes first, and so on.
        f.host_done(&host("http://a.example/"), 0);
        assert_eq!(
            batch(next_batch(&mut f, 50, 4, 0.5, &[])),
            (vec!["http://a.example/2".into()], true)
        );
        // Nothing of a's clears the floor, or the fill rule: the batch fills
        // (one URL of each host).
        let filled = vec!["http://a.example/1".into(), "http://b.example/1".into()];
        assert_eq!(
            batch(next_batch(&mut busy_a(), 0, 4, 0.95, &[])),
            (filled.clone(), false)
        );
        let fill = floor(Dispatch::Fill, 0.5);
        assert_eq!(
            batch(next_batch(&mut busy_a(), 0, 4, fill, &[])),
            (filled, false)
        );
    }

    #[test]
    fn a_stream_waits_for_a_host_with_an_interval_busy_with_an_earlier_fetch() {
        // Host a gives one URL at a time, asks for a second between
        // requests and holds two good URLs; its first is out, for a slot
        // decided earlier. Host b holds two poor ones, ready.
        let a_out = |others: &[(&str, f64)]| {
            let mut f = Frontier::new(Discipline::BestFirst).with_max_in_flight_per_host(1);
            for &(u, p) in [("http://a.example/1", 0.9), ("http://a.example/2", 0.8)]
                .iter()
                .chain(others)
            {
                f.push(cand(u, p));
            }
            assert_eq!(f.pop_ready(0).unwrap().url.as_str(), "http://a.example/1");
            f
        };
        let busy = [BusyHost {
            host: host("http://a.example/"),
            interval_ms: 1_000,
        }];
        // Not told that a is out, the free slots take b's poor URL.
        assert_eq!(
            batch(next_batch(&mut a_out(&B_POOR), 10, 3, 0.5, &[])),
            (vec!["http://b.example/1".into()], false)
        );
        // Told, they wait: once a's answer is applied it cools for its
        // interval, and a cooling host with promising URLs is waited for.
        let mut f = a_out(&B_POOR);
        let next = next_batch(&mut f, 10, 3, 0.5, &busy);
        assert!(
            matches!(
                next,
                Next::WaitUntil {
                    at: 1_010,
                    held: true
                }
            ),
            "{next:?}"
        );
        assert_eq!(f.len(), 3, "nothing was handed out");
        // A promising URL that is ready goes out meanwhile, alone, and the
        // free slots are asked again when a would be cooled.
        let next = next_batch(
            &mut a_out(&[B_POOR[0], B_POOR[1], ("http://c.example/1", 0.7)]),
            10,
            3,
            0.5,
            &busy,
        );
        assert_eq!(cooled_at(&next), Some(1_010));
        assert_eq!(batch(next), (vec!["http://c.example/1".into()], true));
        // Nothing of a's clears the floor, or the fill rule: the slots fill.
        for floor in [0.95, floor(Dispatch::Fill, 0.5)] {
            assert_eq!(
                batch(next_batch(&mut a_out(&B_POOR), 10, 3, floor, &busy)),
                (vec!["http://b.example/1".into()], false)
            );
        }
    }

    #[test]
    fn a_crawl_without_a_foothold_decides_after_every_fetch() {
        let promising = Dispatch::Promising;
        // The first batch (the seeds) goes out whole.
        assert!(!searching(promising, true, 0, 0));
        assert!(searching(promising, true, 0, 1));
        assert!(searching(promising, true, 0, 99));
        // A page judged relevant, or the apprentice half confident, ends it.
        assert!(!searching(promising, true, 1, 5));
        assert!(!searching(promising, true, 0, 100));
        // Only link-model crawls under the promising rule search.
        assert!(!searching(promising, false, 0, 5));
        assert!(!searching(Dispatch::Fill, true, 0, 5));
        assert_eq!(room(32, 1_000, true), 1);
        assert_eq!(room(32, 1_000, false), 32);
        assert_eq!(room(32, 5, false), 5);
        assert_eq!(room(32, 0, true), 0);
    }

    #[test]
    fn a_batch_with_no_room_takes_no_url() {
        let mut f = a_cooling(&B_POOR);
        let queued = f.len();
        let next = next_batch(&mut f, 50, 0, 0.0, &[]);
        assert!(!matches!(next, Next::Batch { .. }), "{next:?}");
        assert_eq!(f.len(), queued, "nothing was popped");
    }

    #[test]
    fn nothing_is_held_when_no_other_host_is_ready() {
        let next = next_batch(&mut a_cooling(&[]), 50, 4, 0.5, &[]);
        assert!(
            matches!(
                next,
                Next::WaitUntil {
                    at: 1_000,
                    held: false
                }
            ),
            "{next:?}"
        );
    }

    #[test]
    fn a_url_far_below_the_best_ready_one_is_not_promising() {
        // Host a holds the best URLs and gives one at a time; host b's and
        // c's are above the harvest floor (0.01) but far below a's best.
        let mut f = Frontier::new(Discipline::BestFirst).with_max_in_flight_per_host(1);
        for (u, p) in [
            ("http://a.example/1", 0.4),
            ("http://a.example/2", 0.3),
            ("http://b.example/1", 0.25),
            ("http://c.example/1", 0.05),
            ("http://c.example/2", 0.04),
        ] {
            f.push(cand(u, p));
        }
        // b's URL is at least half of a's best: promising, taken; c's are
        // not, and a still holds a promising URL: the batch goes out short.
        assert_eq!(
            batch(next_batch(&mut f, 0, 4, 0.01, &[])),
            (
                vec!["http://a.example/1".into(), "http://b.example/1".into()],
                true
            )
        );
        // Under the fill rule the batch fills as before.
        let mut f = Frontier::new(Discipline::BestFirst).with_max_in_flight_per_host(1);
        for (u, p) in [
            ("http://a.example/1", 0.4),
            ("http://a.example/2", 0.3),
            ("http://c.example/1", 0.05),
        ] {
            f.push(cand(u, p));
        }
        assert_eq!(
            batch(next_batch(&mut f, 0, 4, floor(Dispatch::Fill, 0.01), &[])),
            (
                vec!["http://a.example/1".into(), "http://c.example/1".into()],
                false
            )
        );
    }

    #[test]
    fn before_waiting_out_an_interval_a_batch_takes_every_url_above_the_harvest() {
        // Host a cools with a good URL left; c's URL is near the best
        // ready one, d's far below it but above the harvest floor (0.1):
        // waiting costs real time, so d goes too, as before the share (and
        // with nothing else ready, the short batch holds nothing back).
        let mut f = a_cooling(&[("http://c.example/1", 0.7), ("http://d.example/1", 0.2)]);
        assert_eq!(
            batch(next_batch(&mut f, 50, 4, 0.1, &[])),
            (
                vec!["http://c.example/1".into(), "http://d.example/1".into()],
                false
            )
        );
        assert_eq!(f.len(), 1, "a's URL waits for its host");
    }
}
