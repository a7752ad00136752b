//! `spider-peer URL CONCURRENCY`: crawl the site at URL with the `spider`
//! crate (robots.txt obeyed, no delay, CONCURRENCY requests at once) and
//! print one JSON line: `{"pages": N, "seconds": S}`. Used by
//! `cargo xtask bench --peers` beside `focus-soft --baseline bfs`.

use std::time::Instant;

use spider::tokio;
use spider::website::Website;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(url), Some(concurrency)) = (args.next(), args.next()) else {
        eprintln!("usage: spider-peer URL CONCURRENCY");
        std::process::exit(2);
    };
    let Ok(concurrency) = concurrency.parse::<usize>() else {
        eprintln!("CONCURRENCY must be a number");
        std::process::exit(2);
    };
    let Ok(mut website) = Website::new(&url)
        .with_respect_robots_txt(true)
        .with_delay(0)
        .with_concurrency_limit(Some(concurrency))
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
