//! `spider-judge URL CONCURRENCY LIMIT EXAMPLES GOOD`: `spider-peer`'s
//! crawl (the `spider` crate, robots.txt obeyed, no delay, CONCURRENCY
//! requests at once, at most LIMIT pages, 0 for no limit) doing our
//! crawler's per-page work on every page it fetches. It first trains our
//! classifier as `focus-soft --examples EXAMPLES --good GOOD` does
//! (hierarchical naive Bayes, tempered), then judges each page as our crawl
//! does, on rayon, while the crawl goes on: parse (html5ever), featurise,
//! classify, fingerprint (`focus_crawl::reading::read_page`, the crawl's
//! own reading of a page, without the store, the frontier or
//! `pages.jsonl`). It stops the clock after the last
//! judgement and prints one JSON line: `{"pages": N, "judged": J,
//! "relevant": R, "seconds": S}` (R: pages judged relevant, R ≥ 0.5).
//! A separate binary, so that `spider-peer` links none of the focus crates
//! and keeps the system allocator; this one uses ours (jemalloc).

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use focus_classify::HierNb;
use focus_core::{Canonicalizer, Relevance};
use focus_crawl::reading::read_page;
use focus_crawl::Featurizer;
use focus_fetch::{FetchConfig, Fetcher};
use spider::tokio;
use spider::tokio::sync::{broadcast, mpsc};
use spider_peer::{crawl_args, peer_website};

/// Our binaries' allocator (`docs/crawl.md`, "Memory allocator"), so the
/// judging is measured as it runs in our crawler.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn fail(why: &str) -> ! {
    eprintln!("spider-judge: {why}");
    eprintln!("usage: spider-judge URL CONCURRENCY LIMIT EXAMPLES GOOD");
    std::process::exit(2);
}

/// What judging a page needs, shared by the rayon jobs.
struct Judge {
    classifier: HierNb,
    featurizer: Featurizer,
    canon: Canonicalizer,
}

impl Judge {
    /// The classifier `focus-soft --examples EXAMPLES --good GOOD` trains
    /// (`focus_app::example_classifier`).
    async fn train(examples: &str, good: &str) -> Result<Judge, String> {
        let canon = Canonicalizer::default();
        let featurizer = Featurizer::default();
        let fetcher = Fetcher::new(FetchConfig::default()).map_err(|e| e.to_string())?;
        let (_, classifier) = focus_app::example_classifier(
            Path::new(examples),
            &[good.to_owned()],
            Relevance::Tempered,
            &fetcher,
            &featurizer,
            &canon,
        )
        .await
        .map_err(|e| e.to_string())?;
        Ok(Judge {
            classifier,
            featurizer,
            canon,
        })
    }

    /// The page's relevance, read as our crawl reads a page
    /// (`focus_crawl::reading::read_page`, without citing anchors: spider
    /// does not keep them); `None` when its URL does not parse.
    fn judge(&self, url: &str, html: &str) -> Option<f64> {
        let url = self.canon.canonicalize(url).ok()?;
        let read = read_page(
            html,
            &url,
            &[],
            &self.featurizer,
            &self.classifier,
            &self.canon,
        );
        std::hint::black_box(read.fingerprint);
        Some(read.judgement.relevance)
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (url, concurrency, limit) = match crawl_args(&args) {
        Ok(flags) if args.len() == 5 => flags,
        Ok(_) => fail("LIMIT, EXAMPLES and GOOD are needed"),
        Err(why) => fail(&why),
    };
    let (examples, good) = (&args[3], &args[4]);
    let judge = match Judge::train(examples, good).await {
        Ok(j) => Arc::new(j),
        Err(why) => fail(&format!("cannot train on {examples}: {why}")),
    };
    let mut website = match peer_website(&url, concurrency, limit) {
        Ok(w) => w,
        Err(why) => fail(&why),
    };
    let start = Instant::now();
    // Large enough that the judge never falls behind by a whole channel;
    // a page it missed would be counted as not judged.
    let pages = website.subscribe(1 << 16);
    let judging = tokio::spawn(judge_pages(judge, pages));
    website.crawl().await;
    website.unsubscribe();
    let (judged, relevant) = match judging.await {
        Ok(counts) => counts,
        Err(e) => fail(&format!("the judging task failed: {e}")),
    };
    let seconds = start.elapsed().as_secs_f64();
    let pages = website.get_links().len();
    println!(
        "{{\"pages\": {pages}, \"judged\": {judged}, \"relevant\": {relevant}, \
         \"seconds\": {seconds:.3}}}"
    );
}

/// Judges every page the crawl sends, each on rayon as it arrives, and
/// returns (pages judged, pages judged relevant) once the crawl has ended
/// and every judgement is in.
async fn judge_pages(
    judge: Arc<Judge>,
    mut pages: broadcast::Receiver<spider::page::Page>,
) -> (u64, u64) {
    let (done, mut verdicts) = mpsc::unbounded_channel::<Option<f64>>();
    loop {
        let page = match pages.recv().await {
            Ok(page) => page,
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                eprintln!("spider-judge: the judge missed {missed} pages");
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => break,
        };
        let (judge, done) = (judge.clone(), done.clone());
        let (url, html) = (page.get_url().to_owned(), page.get_html());
        rayon::spawn(move || {
            let _ = done.send(judge.judge(&url, &html));
        });
    }
    drop(done);
    let (mut judged, mut relevant) = (0, 0);
    while let Some(verdict) = verdicts.recv().await {
        if let Some(r) = verdict {
            judged += 1;
            relevant += u64::from(r >= 0.5);
        }
    }
    (judged, relevant)
}
