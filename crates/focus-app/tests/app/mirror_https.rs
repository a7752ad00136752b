//! A replayed mirror whose pages link with absolute `https://` URLs, as a
//! `wget --mirror` without `--convert-links` keeps them: crawled with
//! `--corpus`, the crawler speaks plain HTTP to the loopback replay for
//! those URLs too, so the pages they name are received (and keep their
//! `https` URLs), not refused in a TLS handshake the replay cannot answer.

use std::fmt::Write;
use std::path::Path;

use focus_app::run;
use focus_cli::{CrawlPlan, Crawler, Strategy, TopicSource};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn page(title: &str, words: &str, links: &[&str]) -> String {
    let mut items = String::new();
    for l in links {
        let _ = write!(items, "<li><a href=\"{l}\">{l}</a></li>");
    }
    format!(
        "<!DOCTYPE html><html><head><title>{title}</title></head>\
         <body><h1>{title}</h1><p>{words}</p><ul>{items}</ul></body></html>"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absolute_https_links_of_a_replayed_mirror_are_fetched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mirror");
    let bikes = "bicycle wheel chain saddle pedal gear frame tyre ride route";
    let cooking = "recipe oven flour butter sugar bake dough knead kitchen pan";
    write(
        &dir.join("www.a.test/index.html"),
        &page(
            "Cycling club",
            bikes,
            &[
                "https://www.a.test/routes.html",
                "https://b.test/tyres/",
                "https://b.test/bread.html",
            ],
        ),
    );
    write(
        &dir.join("www.a.test/routes.html"),
        &page("Routes", bikes, &["/"]),
    );
    write(
        &dir.join("b.test/tyres/index.html"),
        &page("Tyres", bikes, &["https://www.a.test/"]),
    );
    write(
        &dir.join("b.test/bread.html"),
        &page("Bread", cooking, &["https://b.test/cake.html"]),
    );
    write(&dir.join("b.test/cake.html"), &page("Cake", cooking, &[]));
    write(
        &dir.join("labels.tsv"),
        "https://www.a.test/\tcycling\nhttps://www.a.test/routes.html\tcycling\n\
         https://b.test/tyres/\tcycling\nhttps://b.test/bread.html\tcooking\n\
         https://b.test/cake.html\tcooking\n",
    );
    write(
        &tmp.path().join("examples/cycling/ex.txt"),
        &format!("{bikes} {bikes}"),
    );
    write(
        &tmp.path().join("examples/cooking/ex.txt"),
        &format!("{cooking} {cooking}"),
    );
    write(&tmp.path().join("seeds.txt"), "http://www.a.test/\n");

    let out = tmp.path().join("crawl");
    let source = TopicSource::Corpus {
        dir: dir.clone(),
        good: vec!["cycling".to_owned()],
        examples: Some(tmp.path().join("examples")),
        seeds: Some(tmp.path().join("seeds.txt")),
    };
    let plan = CrawlPlan {
        max_pages: 20,
        strategy: Strategy::of(Crawler::BreadthFirst),
        ..CrawlPlan::new(source, out.clone())
    };
    let summary = run(&plan).await.unwrap();

    let lines: Vec<serde_json::Value> = std::fs::read_to_string(out.join("pages.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let received = |url: &str| {
        lines
            .iter()
            .find(|v| v["url"] == url)
            .is_some_and(|v| v["status"] == 200 && v["error"].is_null())
    };
    for url in [
        "https://www.a.test/routes.html",
        "https://b.test/tyres/",
        "https://b.test/bread.html",
        "https://b.test/cake.html",
    ] {
        assert!(received(url), "{url} not received: {lines:#?}");
    }
    assert_eq!(summary.failed_fetches, 0, "{lines:#?}");
    // The truth knows the https pages as the labelled ones.
    assert_eq!(summary.relevant_pages_true, Some(3), "{lines:#?}");
}
