//! Throughput and memory benchmark of the frontier (run once by hand, not
//! in CI): for each size N, fill a spilling lexicographic frontier to N
//! queued URLs over 1,000 hosts, then time min(N/10, 100,000) steady-state
//! pops and pushes at that size, and report resident memory (VmRSS).
//!
//! `cargo run --release -p focus-frontier --example frontier_bench -- 10000 1000000 10000000 [mem=N]`
//! (`mem=N`: URLs kept in memory, the rest in the cold tier; default 10^6)

use std::time::Instant;

use focus_core::Canonicalizer;
use focus_frontier::{Candidate, Discipline, Frontier};

const HOSTS: u64 = 1_000;
const BATCH: u64 = 100_000;
const MEM_URLS: usize = 1_000_000;

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn batch(canon: &Canonicalizer, from: u64, to: u64) -> Vec<Candidate> {
    (from..to)
        .map(|i| {
            let url = canon
                .canonicalize(&format!(
                    "http://h{}.example/section/{}/page-{i}.html",
                    i % HOSTS,
                    i % 97
                ))
                .unwrap();
            let prio = ((i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f64) / f64::from(1 << 24);
            Candidate::new(url, (i % 7) as u32, None, prio)
        })
        .collect()
}

fn main() {
    let sizes: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let mem_urls = std::env::args()
        .find_map(|a| a.strip_prefix("mem=")?.parse().ok())
        .unwrap_or(MEM_URLS);
    let sizes = if sizes.is_empty() {
        vec![10_000, 1_000_000]
    } else {
        sizes
    };
    let canon = Canonicalizer::default();
    println!(
        "| queued URLs | fill pushes/s | steady pushes/s | steady pops/s | VmRSS MB | spilled |"
    );
    println!("|---|---|---|---|---|---|");
    for n in sizes {
        let dir = tempfile::tempdir().unwrap();
        let mut f = Frontier::new(Discipline::Lexicographic)
            .with_spill(dir.path(), mem_urls)
            .unwrap();
        let mut push_time = 0.0;
        let mut next = 0;
        while next < n {
            let to = (next + BATCH).min(n);
            let b = batch(&canon, next, to);
            let t = Instant::now();
            for c in b {
                f.push(c);
            }
            push_time += t.elapsed().as_secs_f64();
            next = to;
        }
        let fill_rate = n as f64 / push_time;
        let rss = rss_mb();
        let steady = (n / 10).clamp(1, 100_000);
        // Steady state at size n: pop `steady` URLs (every host done at
        // once), then push `steady` new URLs.
        let t = Instant::now();
        let mut popped = 0u64;
        let mut now = 0;
        while popped < steady {
            match f.pop_ready(now) {
                Some(c) => {
                    f.host_done(&c.host, now);
                    popped += 1;
                }
                None => now += 1,
            }
        }
        let pop_rate = steady as f64 / t.elapsed().as_secs_f64();
        let b = batch(&canon, n, n + steady);
        let t = Instant::now();
        for c in b {
            f.push(c);
        }
        let push_rate = steady as f64 / t.elapsed().as_secs_f64();
        assert_eq!(f.len() as u64, n);
        println!(
            "| {n} | {fill_rate:.0} | {push_rate:.0} | {pop_rate:.0} | {:.0} | {} |",
            rss.max(rss_mb()),
            f.stats().spilled
        );
    }
}
