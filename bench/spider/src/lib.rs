//! What `spider-peer` and `spider-judge` share: the crawl of the peer
//! comparison, configured once, so the two crawl a site the same way.

use spider::website::Website;

/// The crawl's flags: the site's URL, requests in flight, and the most
/// pages (0: no limit, spider's own convention), from the first three
/// arguments.
pub fn crawl_args(args: &[String]) -> Result<(String, usize, u32), String> {
    let (Some(url), Some(concurrency)) = (args.first(), args.get(1)) else {
        return Err("URL and CONCURRENCY are needed".into());
    };
    let concurrency = concurrency
        .parse::<usize>()
        .map_err(|_| "CONCURRENCY must be a number".to_owned())?;
    let limit = match args.get(2) {
        None => 0,
        Some(l) => l
            .parse::<u32>()
            .map_err(|_| "LIMIT must be a number".to_owned())?,
    };
    Ok((url.clone(), concurrency, limit))
}

/// `url`'s site, crawled with robots.txt obeyed, no delay, `concurrency`
/// requests at once and at most `limit` pages (0: no limit).
pub fn peer_website(url: &str, concurrency: usize, limit: u32) -> Result<Website, String> {
    Website::new(url)
        .with_respect_robots_txt(true)
        .with_delay(0)
        .with_concurrency_limit(Some(concurrency))
        .with_limit(limit)
        .build()
        .map_err(|_| "spider refused the configuration".to_owned())
}
