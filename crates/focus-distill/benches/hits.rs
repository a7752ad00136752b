//! Criterion benchmarks of the distiller: graph build and HITS under each
//! weighting on a seeded 1-million-edge synthetic graph (the 10-million-edge
//! run is the `distill_bench` example, timed with `/usr/bin/time -v`).

use criterion::Criterion;
use focus_distill::synthetic::{generate, SyntheticConfig};
use focus_distill::{Hits, HitsConfig};

fn bench(c: &mut Criterion) {
    let cfg = SyntheticConfig::with_edges(1_000_000, 42);
    let mut group = c.benchmark_group("distill_1m_edges");
    group.sample_size(10);
    group.bench_function("build", |b| {
        b.iter(|| generate(&cfg).build().unwrap());
    });
    let graph = generate(&cfg).build().unwrap();
    for (name, config) in [
        ("hits_plain", HitsConfig::plain()),
        ("hits_relevance_1999", HitsConfig::relevance_1999()),
        ("hits_bharat_henzinger", HitsConfig::bharat_henzinger()),
    ] {
        let hits = Hits::new(config).unwrap();
        group.bench_function(name, |b| b.iter(|| hits.run(&graph)));
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
