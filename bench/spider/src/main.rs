//! `spider-peer URL CONCURRENCY [LIMIT]`: crawl the site at URL with the
//! `spider` crate (robots.txt obeyed, no delay, CONCURRENCY requests at
//! once, at most LIMIT pages when given) and print one JSON line:
//! `{"pages": N, "seconds": S}`. Used by `cargo xtask bench --peers` beside
//! `focus-soft --baseline bfs` (LIMIT 1: the process's start-up memory).

use std::time::Instant;

use spider::tokio;
use spider::website::Website;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(url), Some(concurrency)) = (args.next(), args.next()) else {
        eprintln!("usage: spider-peer URL CONCURRENCY [LIMIT]");
        std::process::exit(2);
    };
    let Ok(concurrency) = concurrency.parse::<usize>() else {
        eprintln!("CONCURRENCY must be a number");
        std::process::exit(2);
    };
    // 0: no limit (spider's own convention).
    let Ok(limit) = args.next().map_or(Ok(0), |l| l.parse::<u32>()) else {
        eprintln!("LIMIT must be a number");
        std::process::exit(2);
    };
    let Ok(mut website) = Website::new(&url)
        .with_respect_robots_txt(true)
        .with_delay(0)
        .with_concurrency_limit(Some(concurrency))
        .with_limit(limit)
        .build()
    else {
        eprintln!("spider refused the configuration");
        std::process::exit(2);
    };
    let start = Instant::now();
    website.crawl().await;
    let seconds = start.elapsed().as_secs_f64();
    let pages = website.get_links().len();
    println!("{{\"pages\": {pages}, \"seconds\": {seconds:.3}}}");
}
