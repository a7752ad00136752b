//! Times the distiller at scale: generates a seeded power-law-ish graph
//! (default 10,000,000 links), builds the CSR graph and runs HITS under each
//! weighting, printing wall times, iterations and the graph's size. Run in
//! release under `/usr/bin/time -v` for the peak memory:
//! `cargo run --release -p focus-distill --example distill_bench -- 10000000 42`
//! (optional third and fourth arguments: `plain|relevance_1999|bharat_henzinger|all`
//! and an iteration cap replacing the default 100).

use std::time::Instant;

use focus_distill::synthetic::{generate, SyntheticConfig};
use focus_distill::{Hits, HitsConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let edges: u64 = args.next().map_or(Ok(10_000_000), |s| s.parse())?;
    let seed: u64 = args.next().map_or(Ok(42), |s| s.parse())?;
    let only: Option<String> = args.next().filter(|s| s != "all");
    let max_iter: Option<u32> = args.next().map(|s| s.parse()).transpose()?;
    let cfg = SyntheticConfig::with_edges(edges, seed);
    println!(
        "threads={} nodes={} links={} seed={seed}",
        rayon::current_num_threads(),
        cfg.nodes,
        cfg.edges
    );
    let t = Instant::now();
    let builder = generate(&cfg);
    println!("generate: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let graph = builder.build()?;
    let build_s = t.elapsed().as_secs_f64();
    println!(
        "build: {build_s:.3} s  nodes={} edges={} graph_heap={:.1} MiB stats={:?}",
        graph.node_count(),
        graph.edge_count(),
        graph.heap_bytes() as f64 / (1024.0 * 1024.0),
        graph.build_stats()
    );
    for (name, config) in [
        ("plain", HitsConfig::plain()),
        ("relevance_1999", HitsConfig::relevance_1999()),
        ("bharat_henzinger", HitsConfig::bharat_henzinger()),
    ] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let hits = Hits::new(HitsConfig {
            max_iter: max_iter.unwrap_or(config.max_iter),
            ..config
        })?;
        let t = Instant::now();
        let s = hits.run(&graph);
        let secs = t.elapsed().as_secs_f64();
        let top = s.top_hubs(1);
        println!(
            "hits {name}: {secs:.3} s  iterations={} converged={} ({:.1} ms/iter) top_hub={:?}",
            s.iterations,
            s.converged,
            secs * 1000.0 / f64::from(s.iterations.max(1)),
            top.first()
        );
    }
    Ok(())
}
