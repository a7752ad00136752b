//! Fetches per second on loopback: 20 KB HTML pages from the in-process
//! test server, 64 hosts reached through one connect-to rule, no politeness
//! interval, 32 concurrent fetches.

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, Throughput};
use focus_core::Canonicalizer;
use focus_fetch::Fetcher;

const BATCH: usize = 512;

fn fetch_loopback(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let web = rt.block_on(support::start());
    let mut cfg = web.config();
    cfg.per_host_connections = 8;
    cfg.per_domain_connections = 8;
    let fetcher = Fetcher::new(cfg).unwrap();
    let canon = Canonicalizer::default();
    let urls: Vec<_> = (0..BATCH)
        .map(|i| {
            canon
                .canonicalize(&format!("http://host{}.test/page?i={i}", i % 64))
                .unwrap()
        })
        .collect();
    let mut group = c.benchmark_group("fetch");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.sample_size(10);
    group.bench_function("20KB pages, 64 hosts, 32 in flight", |b| {
        b.iter(|| {
            rt.block_on(async {
                let sem = std::sync::Arc::new(tokio::sync::Semaphore::new(32));
                let mut tasks = Vec::with_capacity(BATCH);
                for u in &urls {
                    let (f, u, sem) = (fetcher.clone(), u.clone(), sem.clone());
                    tasks.push(tokio::spawn(async move {
                        let _p = sem.acquire_owned().await.unwrap();
                        f.fetch(&u).await.is_ok()
                    }));
                }
                let mut ok = 0;
                for t in tasks {
                    ok += usize::from(t.await.unwrap());
                }
                assert_eq!(ok, BATCH);
            });
        });
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    fetch_loopback(&mut c);
    c.final_summary();
}
