//! HTML → term-count vector (analyse + tokenise + vocabulary + counts), on
//! a typical 20 KB page (`fixtures/html/typical-20k.html`), on all fixture
//! pages and on 200 websim pages, in pages/s and bytes/s per core.

use criterion::{Criterion, Throughput};
use focus_core::Canonicalizer;
use focus_html::analyze;
use focus_text::{counts, Analyzer, HashingVocabulary, TextConfig};
use focus_websim::{Web, WebConfig};

fn pipeline(
    html: &str,
    url: &focus_core::CanonicalUrl,
    canon: &Canonicalizer,
    analyzer: &Analyzer,
    vocab: &mut HashingVocabulary,
) -> usize {
    let doc = analyze(html, url, canon);
    counts(analyzer, vocab, &doc.text).len() + doc.links.len()
}

fn bench(c: &mut Criterion) {
    let canon = Canonicalizer::default();
    let analyzer = Analyzer::new(TextConfig::chakrabarti());
    let mut vocab = HashingVocabulary::new(20);
    let url = canon
        .canonicalize("http://bench.example/page.html")
        .unwrap();

    let fixtures: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/html"))
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                    .collect()
            })
            .unwrap_or_default();
    // A typical 20 KB page: inline style and script, navigation, an
    // article of ~1,100 words, related links and a footer.
    let typical: Vec<String> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/html/typical-20k.html"
    ))
    .into_iter()
    .collect();
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let pages: Vec<String> = (0..200u32)
        .filter_map(|id| web.page_html(id * 37))
        .collect();

    let mut g = c.benchmark_group("html_to_vector");
    for (name, set) in [
        ("typical", &typical),
        ("fixtures", &fixtures),
        ("websim", &pages),
    ] {
        if set.is_empty() {
            continue;
        }
        let bytes: usize = set.iter().map(String::len).sum();
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(
            format!(
                "{name} ({} pages, {} KB avg)",
                set.len(),
                bytes / set.len() / 1024
            ),
            |b| {
                b.iter(|| {
                    set.iter()
                        .map(|h| pipeline(h, &url, &canon, &analyzer, &mut vocab))
                        .sum::<usize>()
                });
            },
        );
    }
    g.finish();

    // The two stages apart, on the websim pages: where the time goes.
    let mut g = c.benchmark_group("stages");
    let bytes: usize = pages.iter().map(String::len).sum();
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("analyze (html5ever tokenizer, links, text)", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|h| analyze(h, &url, &canon).text.len())
                .sum::<usize>()
        });
    });
    let texts: Vec<String> = pages
        .iter()
        .map(|h| analyze(h, &url, &canon).text)
        .collect();
    g.bench_function("count terms (tokenize, stop words, hash)", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| counts(&analyzer, &mut vocab, t).len())
                .sum::<usize>()
        });
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
