//! Expectations on the hand-written pages of `fixtures/html/`: boilerplate
//! kept apart, frames as links, malformed markup recovered, and the typical
//! 20 KB benchmark page analysed sensibly.

use focus_core::Canonicalizer;
use focus_html::{analyze, Document};

fn fixture(name: &str, url: &str) -> Document {
    let path = format!("{}/../../fixtures/html/{name}", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read_to_string(&path).unwrap();
    let canon = Canonicalizer::default();
    analyze(&html, &canon.canonicalize(url).unwrap(), &canon)
}

fn urls(d: &Document) -> Vec<String> {
    d.links.iter().map(|l| l.url.to_string()).collect()
}

#[test]
fn boilerplate_is_kept_apart_and_scripts_are_not_text() {
    let d = fixture("boilerplate.html", "http://touring.example/guide.html");
    assert_eq!(d.title, "Bicycle touring: planning a route");
    assert!(d.text.contains("loaded touring bicycle"));
    assert!(!d.text.contains("analytics") && !d.text.contains("font-family"));
    assert!(d.boilerplate_text.contains("Privacy"));
    assert!(!d.text.contains("Privacy") && !d.text.contains("Pyrenees"));
    let nofollow: Vec<_> = d.links.iter().filter(|l| l.nofollow).collect();
    assert_eq!(nofollow.len(), 1);
    assert_eq!(
        nofollow[0].url.to_string(),
        "http://touring.example/gear/panniers"
    );
    assert!(urls(&d).contains(&"https://cycling.example/climbs".to_owned()));
    let climb = d.links.iter().find(|l| l.anchor_text == "climb database");
    assert!(climb.is_some_and(|l| l.context.contains("gradients")));
}

#[test]
fn frames_are_links() {
    let d = fixture("frames.html", "http://funds.example/");
    let u = urls(&d);
    assert!(u.contains(&"http://funds.example/menu.html".to_owned()));
    assert!(u.contains(&"http://funds.example/funds/overview.html".to_owned()));
    assert!(!d.meta_robots.nofollow && !d.meta_robots.noindex);
}

#[test]
fn malformed_markup_is_recovered() {
    let d = fixture("malformed.html", "http://origin.example/page.html");
    assert_eq!(
        d.base_href.as_ref().map(ToString::to_string).as_deref(),
        Some("http://mirror.example/base/")
    );
    let u = urls(&d);
    for want in ["one.html", "two.html", "map.html"] {
        assert!(
            u.contains(&format!("http://mirror.example/base/{want}")),
            "{want} resolved against <base href>: {u:?}"
        );
    }
    assert!(d.text.contains("cell one") && d.text.contains("overlap"));
}

#[test]
fn the_typical_benchmark_page_is_analysed_sensibly() {
    let d = fixture(
        "typical-20k.html",
        "https://www.example-cycling.org/guides/coast-road.html",
    );
    assert!(d.title.starts_with("Riding the coast road"));
    let words = d.text.split_whitespace().count();
    assert!((900..1500).contains(&words), "{words} article words");
    assert!(!d.text.contains("__cfg_") && !d.text.contains("margin"));
    assert!(d.links.len() >= 60, "{} links", d.links.len());
}
