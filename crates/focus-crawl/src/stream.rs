//! The engine's stream loop ([`focus_core::Flow::Stream`]): as many
//! fetches in flight as the batch has slots, a URL popped whenever a slot
//! is free, and each page applied as it arrives, on the real clock.
//!
//! The batch loop waits for a batch's slowest fetch before it pops again,
//! which on a loopback web costs little and keeps a seeded crawl the same
//! crawl page for page; on the real web a batch of 32 often holds one slow
//! or timing-out server, and the other 31 slots wait for it. Here a slow
//! fetch holds only its own slot. The frontier's clock is the real one
//! (milliseconds since the crawl began, going on from a resumed crawl's
//! clock), so a host cools for its politeness interval in real time, as
//! the fetcher enforces anyway; what is popped, and so the crawl, depends
//! on how fetches interleave.
//!
//! Must not import the engine (`engine.rs` calls it; the steps both loops
//! take are `loop_steps.rs`), and the stages must not import it.

use std::time::{Duration, Instant};

use focus_core::{HostKey, StopReason};

use crate::apply::{CrawlState, Rules};
use crate::dispatch::{BusyHost, Next};
use crate::error::CrawlError;
use crate::loop_steps::{on_page, Cadence, Ends};
use crate::observer::Observer;
use crate::pipeline::Pipeline;

/// The crawl's real clock: milliseconds since it began, from `origin_ms`.
struct Clock {
    began: Instant,
    origin_ms: u64,
}

impl Clock {
    fn now(&self) -> u64 {
        let ms = u64::try_from(self.began.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.origin_ms.saturating_add(ms)
    }
}

/// Runs the stream until a stop rule holds; a stop signal or the time
/// limit stops popping, and the pages still in flight are applied before
/// the loop returns, so every fetch made is stored.
pub(crate) async fn run(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    pipeline: &mut Pipeline,
    ends: &Ends<'_>,
    cadence: &mut Cadence,
    origin_ms: u64,
    observer: &mut dyn Observer,
) -> Result<StopReason, CrawlError> {
    let clock = Clock {
        began: Instant::now(),
        origin_ms,
    };
    // The hosts of the URLs in flight, one entry per URL.
    let mut out: Vec<HostKey> = Vec::new();
    let mut stopping: Option<StopReason> = None;
    loop {
        stopping = stopping.or_else(|| ends.stop_now());
        // The time (on the real clock) a cooling host is ready at, when
        // the free slots wait for it.
        let mut wake_at = None;
        let next = match stopping {
            None => {
                let busy = busy_hosts(rules, &out);
                ends.next(st, clock.now(), out.len(), &busy)?
            }
            Some(_) => None,
        };
        match next {
            Some(Next::Batch {
                urls, cooled_at, ..
            }) => {
                let cited = crate::cited::for_batch(rules.analysis, &st.store, &urls)?;
                out.extend(urls.iter().map(|c| c.host.clone()));
                pipeline.submit(urls, cited).await?;
                // Went out short for a cooling host: its turn comes when
                // it is ready, not when the next answer arrives.
                wake_at = cooled_at;
            }
            Some(Next::WaitUntil { at, .. }) => wake_at = Some(at),
            Some(Next::Exhausted) if out.is_empty() => return Ok(StopReason::FrontierEmpty),
            Some(Next::Exhausted) | None => {}
        }
        if out.is_empty() {
            if let Some(reason) = stopping {
                return Ok(reason);
            }
            match wake_at {
                Some(at) => {
                    tokio::time::sleep(until(&clock, at)).await;
                    continue;
                }
                // No room and nothing in flight: the page budget is spent.
                None => return Ok(StopReason::MaxPages),
            }
        }
        let arrived = match wake_at {
            Some(at) => tokio::select! {
                page = pipeline.arrival() => Some(page?),
                () = tokio::time::sleep(until(&clock, at)) => None,
            },
            None => Some(pipeline.arrival().await?),
        };
        let Some((c, page)) = arrived else { continue };
        // The candidate comes back as it was popped, host and all; were it
        // not found, one entry still goes, so the count of URLs out stays
        // right.
        match out.iter().position(|h| *h == c.host) {
            Some(i) => {
                out.swap_remove(i);
            }
            None => {
                out.pop();
            }
        }
        let page = pipeline.with_parents(page).await;
        let now = clock.now();
        pipeline.timed(|| on_page(rules, st, &c, &page, now, ends.started, observer))?;
        cadence.after_pages(ends, st, now, observer)?;
    }
}

/// The hosts of `out` (the URLs in flight) that ask for a politeness
/// interval, each once, with that interval.
fn busy_hosts(rules: &Rules<'_>, out: &[HostKey]) -> Vec<BusyHost> {
    let mut busy: Vec<BusyHost> = Vec::new();
    for host in out {
        if busy.iter().any(|b| b.host == *host) {
            continue;
        }
        let interval = rules.analysis.fetcher.host_status(host).interval;
        if !interval.is_zero() {
            busy.push(BusyHost {
                host: host.clone(),
                interval_ms: u64::try_from(interval.as_millis()).unwrap_or(u64::MAX),
            });
        }
    }
    busy
}

/// How long until the clock reads `at`.
fn until(clock: &Clock, at: u64) -> Duration {
    Duration::from_millis(at.saturating_sub(clock.now()))
}
