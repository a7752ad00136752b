//! `spider-peer URL CONCURRENCY [LIMIT]`: crawl the site at URL with the
//! `spider` crate (robots.txt obeyed, no delay, CONCURRENCY requests at
//! once, at most LIMIT pages when given) and print one JSON line:
//! `{"pages": N, "seconds": S}`. Used by `cargo xtask bench --peers` beside
//! `focus-soft --baseline bfs` (LIMIT 1: the process's start-up memory).

use std::time::Instant;

use spider::tokio;
use spider_peer::{crawl_args, peer_website};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut website = match crawl_args(&args)
        .and_then(|(url, concurrency, limit)| peer_website(&url, concurrency, limit))
    {
        Ok(w) => w,
        Err(why) => {
            eprintln!("{why}\nusage: spider-peer URL CONCURRENCY [LIMIT]");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    website.crawl().await;
    let seconds = start.elapsed().as_secs_f64();
    let pages = website.get_links().len();
    println!("{{\"pages\": {pages}, \"seconds\": {seconds:.3}}}");
}
