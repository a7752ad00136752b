//! Criterion benchmark of the store's per-page write as a crawl makes it:
//! `Store::record_fetch` of 32 pages (one crawl batch), each with 40
//! out-links, 20 of them newly queued (about what a crawled page brings),
//! then `Store::commit`, in a fresh store on disk. Throughput is in pages.

use criterion::{Criterion, Throughput};
use focus_store::{PageRecord, QueuedUrl, Store};

const LINKS: u64 = 40;
const NEW: u64 = 20;
/// Pages per commit: the crawl's default batch.
const BATCH: u64 = 32;

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
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function("record_fetch_batch_of_32_40_links_20_new", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                record_one(&store, &mut next);
            }
            store.commit().expect("a commit to a fresh store");
        });
    });
    group.finish();
}

fn record_one(store: &Store, next: &mut u64) {
    let id = *next;
    *next += LINKS + 1;
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
        .expect("a write to a fresh store");
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
