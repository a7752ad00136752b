//! The example crawler on the websim over real loopback HTTP: trained on
//! sampled pages, it crawls from a topic's seeds and keeps well above the
//! topic's share of the web and above the same loop in breadth-first order.

use std::sync::Arc;

use focus_classify::{Example, Featurizer, HierNb, HierNbConfig};
use focus_core::Canonicalizer;
use focus_frontier::Discipline;
use focus_websim::{Web, WebConfig};
use plain_crawler::{crawl, Config};

const GOOD: &str = "recreation/outdoors/cycling";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_libraries_focus_someone_elses_loop() {
    let web = Arc::new(Web::new(WebConfig::small(), 1).unwrap());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let mut taxonomy = web.taxonomy().clone();
    let good = taxonomy.find(GOOD).unwrap();
    taxonomy.mark_good(good).unwrap();
    let (canon, featurizer) = (Canonicalizer::default(), Featurizer::default());
    let mut train = Vec::new();
    for leaf in taxonomy.leaves() {
        for p in web.sample(leaf, 20) {
            let url = canon.canonicalize(&p.url).unwrap();
            let doc = focus_html::analyze(&web.page_html(p.id).unwrap(), &url, &canon);
            train.push(Example {
                counts: featurizer.document(&doc),
                topic: leaf,
            });
        }
    }
    let classifier = HierNb::train(&taxonomy, &train, HierNbConfig::default()).unwrap();
    let seeds: Vec<_> = web
        .seed_urls(good, 3)
        .iter()
        .map(|u| canon.canonicalize(u).unwrap())
        .collect();
    let harvest = |pages: &[plain_crawler::Fetched]| {
        let hits = pages
            .iter()
            .filter(|p| {
                web.truth(&p.url)
                    .is_some_and(|t| taxonomy.is_ancestor_or_self(good, t))
            })
            .count();
        hits as f64 / pages.len().max(1) as f64
    };
    let mut cfg = Config {
        connect: server.addr(),
        max_pages: 200,
        distill_every: 50,
        order: Discipline::BestFirst,
    };
    let focused = crawl(&cfg, &classifier, &seeds).await;
    cfg.order = Discipline::BreadthFirst;
    let bfs = crawl(&cfg, &classifier, &seeds).await;
    server.shutdown().await;

    assert_eq!(focused.len(), 200);
    let (f, b, share) = (harvest(&focused), harvest(&bfs), web.truth_share(good));
    eprintln!("focused {f:.3}, breadth-first {b:.3}, share {share:.3}");
    assert!(
        f > 3.0 * share && f > b,
        "focused {f} breadth-first {b} share {share}"
    );
}
