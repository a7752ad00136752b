//! `plain-crawler --connect 127.0.0.1:PORT --good DIR --other DIR --seeds FILE [--pages N]`:
//! trains a two-topic naive Bayes from two folders of example pages (`.html`
//! files), then crawls from the seed URLs over the address given, printing
//! each fetched URL with its relevance. A demonstration of the focus
//! libraries inside someone else's loop (see the library doc).

use std::net::SocketAddr;
use std::path::Path;

use focus_classify::{Example, Featurizer, HierNb, HierNbConfig};
use focus_core::{Canonicalizer, TaxonomyBuilder};
use focus_frontier::Discipline;
use plain_crawler::{crawl, Config};

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The `.html` files of `dir` as examples of `topic`.
fn examples(dir: &Path, topic: focus_core::TopicId) -> std::io::Result<Vec<Example>> {
    let (canon, featurizer) = (Canonicalizer::default(), Featurizer::default());
    let base = canon
        .canonicalize("http://example.invalid/")
        .map_err(std::io::Error::other)?;
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "html") {
            let doc = focus_html::analyze(&std::fs::read_to_string(&path)?, &base, &canon);
            out.push(Example {
                counts: featurizer.document(&doc),
                topic,
            });
        }
    }
    Ok(out)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(connect), Some(good), Some(other), Some(seeds)) = (
        flag(&args, "--connect"),
        flag(&args, "--good"),
        flag(&args, "--other"),
        flag(&args, "--seeds"),
    ) else {
        return Err(
            "usage: plain-crawler --connect ADDR --good DIR --other DIR --seeds FILE [--pages N]"
                .into(),
        );
    };
    let taxonomy = TaxonomyBuilder::new()
        .topic("good")?
        .good("good")?
        .topic("other")?
        .build();
    let (g, o) = (taxonomy.lookup("good")?, taxonomy.lookup("other")?);
    let mut train = examples(Path::new(&good), g)?;
    train.extend(examples(Path::new(&other), o)?);
    let classifier = HierNb::train(&taxonomy, &train, HierNbConfig::default())?;
    let canon = Canonicalizer::default();
    let seeds: Vec<_> = std::fs::read_to_string(&seeds)?
        .lines()
        .filter_map(|l| canon.canonicalize(l.trim()).ok())
        .collect();
    let cfg = Config {
        connect: connect.parse::<SocketAddr>()?,
        max_pages: flag(&args, "--pages").map_or(Ok(200), |p| p.parse())?,
        distill_every: 50,
        order: Discipline::BestFirst,
    };
    for page in crawl(&cfg, &classifier, &seeds).await {
        println!("{:.3}\t{}", page.relevance, page.url);
    }
    Ok(())
}
