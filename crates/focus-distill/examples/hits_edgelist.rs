//! Bridge to an independent HITS implementation (see
//! `xtask/reference/hits_reference.py`). `generate DIR EDGES SEED` writes a
//! seeded synthetic graph as `DIR/nodes.tsv` (`id host relevance visited`)
//! and `DIR/edges.tsv` (`src dst`, deduplicated, no self-loops);
//! `run DIR plain|r1999|bh` reads them back, runs HITS (tolerance 1e-13) and
//! writes `DIR/rust_<weighting>.tsv` (`id hub authority`).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use focus_distill::synthetic::{generate, SyntheticConfig};
use focus_distill::{GraphBuilder, Hits, HitsConfig, PageId};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn write_graph(dir: &Path, edges: u64, seed: u64) -> Res<()> {
    std::fs::create_dir_all(dir)?;
    let g = generate(&SyntheticConfig::with_edges(edges, seed)).build()?;
    let mut nodes = BufWriter::new(File::create(dir.join("nodes.tsv"))?);
    for i in 0..g.node_count() {
        writeln!(
            nodes,
            "{}\t{}\t{}\t{}",
            g.page_ids()[i].0,
            g.hosts()[i],
            g.relevances()[i],
            u8::from(g.visited_flags()[i])
        )?;
    }
    nodes.flush()?;
    let mut out = BufWriter::new(File::create(dir.join("edges.tsv"))?);
    for u in 0..g.node_count() as u32 {
        for &v in g.successors(u) {
            writeln!(
                out,
                "{}\t{}",
                g.page_ids()[u as usize].0,
                g.page_ids()[v as usize].0
            )?;
        }
    }
    out.flush()?;
    println!(
        "wrote {} nodes, {} edges to {}",
        g.node_count(),
        g.edge_count(),
        dir.display()
    );
    Ok(())
}

fn fields(line: &str) -> Vec<&str> {
    line.split('\t').collect()
}

fn run(dir: &Path, weighting: &str) -> Res<()> {
    let mut b = GraphBuilder::new();
    for line in BufReader::new(File::open(dir.join("nodes.tsv"))?).lines() {
        let line = line?;
        let f = fields(&line);
        let [id, host, r, visited] = f[..] else {
            return Err(format!("bad node line {line:?}").into());
        };
        b.add_node(
            PageId(id.parse()?),
            host.parse()?,
            r.parse()?,
            visited == "1",
        );
    }
    for line in BufReader::new(File::open(dir.join("edges.tsv"))?).lines() {
        let line = line?;
        let f = fields(&line);
        let [u, v] = f[..] else {
            return Err(format!("bad edge line {line:?}").into());
        };
        b.add_edge(PageId(u.parse()?), PageId(v.parse()?));
    }
    let g = b.build()?;
    let base = match weighting {
        "plain" => HitsConfig::plain(),
        "r1999" => HitsConfig::relevance_1999(),
        "bh" => HitsConfig::bharat_henzinger(),
        other => return Err(format!("unknown weighting {other:?}").into()),
    };
    let s = Hits::new(HitsConfig {
        tolerance: 1e-13,
        max_iter: 10_000,
        ..base
    })?
    .run(&g);
    println!(
        "{weighting}: nodes={} edges={} iterations={} converged={}",
        g.node_count(),
        g.edge_count(),
        s.iterations,
        s.converged
    );
    let mut out = BufWriter::new(File::create(dir.join(format!("rust_{weighting}.tsv")))?);
    for (i, id) in s.page_ids().iter().enumerate() {
        writeln!(out, "{}\t{:e}\t{:e}", id.0, s.hub[i], s.authority[i])?;
    }
    out.flush()?;
    Ok(())
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate", dir, edges, seed] => {
            write_graph(Path::new(dir), edges.parse()?, seed.parse()?)
        }
        ["run", dir, weighting] => run(Path::new(dir), weighting),
        _ => Err("usage: hits_edgelist generate DIR EDGES SEED | run DIR plain|r1999|bh".into()),
    }
}
