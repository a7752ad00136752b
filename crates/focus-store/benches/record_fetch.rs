//! Criterion benchmark of the store's per-page write: one
//! `Store::record_fetch` of a page with 40 out-links, 20 of them newly
//! queued (about what a crawled page brings), in a fresh store on disk.

use criterion::Criterion;
use focus_store::{PageRecord, QueuedUrl, Store};

const LINKS: u64 = 40;
const NEW: u64 = 20;

fn page(id: u64) -> PageRecord {
    PageRecord {
        url: format!("http://h{}.test/p/{id}", id % 97),
        id,
        attempt: 1,
        retry: false,
        final_url: None,
        seq: id,
        status: 200,
        error: None,
        relevance: 0.5,
        class: Some("recreation/outdoors/cycling".into()),
        depth: 3,
        parent: Some(id.saturating_sub(1)),
        fetched_at_ms: 0,
        bytes: 4_900,
        fingerprint: Some(id),
        content_hash: Some(id),
        duplicate: None,
        link_features: vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(dir.path()).expect("a fresh store");
    let mut group = c.benchmark_group("store");
    let mut next: u64 = 1;
    group.bench_function("record_fetch_40_links_20_new", |b| {
        b.iter(|| {
            let id = next;
            next += LINKS + 1;
            let links: Vec<(u64, String)> = (1..=LINKS)
                .map(|k| {
                    (
                        id + k,
                        format!("http://h{}.test/p/{}", (id + k) % 97, id + k),
                    )
                })
                .collect();
            let new: Vec<QueuedUrl> = links
                .iter()
                .take(NEW as usize)
                .map(|(to, url)| QueuedUrl {
                    url: url.clone(),
                    id: *to,
                    depth: 4,
                    parent: Some(id),
                    priority: 0.5,
                    numtries: 0,
                    tunnel: 0,
                    extra: vec![0; 48],
                    cited: Vec::new(),
                })
                .collect();
            store
                .record_fetch(&page(id), &links, &new)
                .expect("a write to a fresh store")
        });
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
