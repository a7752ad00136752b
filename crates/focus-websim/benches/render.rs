//! Benchmarks of page generation without the network: `Web::render` of a
//! regular page (links, text, HTML) and `Web::out_links` alone, on the
//! default web. The server's loopback throughput is measured with wrk
//! (docs/websim.md).

use criterion::Criterion;
use focus_websim::{Web, WebConfig};

fn bench(c: &mut Criterion) {
    let web = Web::new(WebConfig::default(), 1).unwrap();
    let urls: Vec<(String, String)> = (0..1000u32)
        .map(|i| {
            let url = web.page_url(i * 199).unwrap();
            let rest = url.strip_prefix("http://").unwrap();
            let (h, p) = rest.split_once('/').unwrap();
            (h.to_string(), format!("/{p}"))
        })
        .collect();
    let mut i = 0usize;
    c.bench_function("render page (default web)", |b| {
        b.iter(|| {
            i = (i + 1) % urls.len();
            let (h, p) = &urls[i];
            web.render(h, p).body.len()
        });
    });
    let mut j = 0u32;
    c.bench_function("out_links (default web)", |b| {
        b.iter(|| {
            j = (j + 7919) % web.page_count();
            web.out_links(j).len()
        });
    });
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
