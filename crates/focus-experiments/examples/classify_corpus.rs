//! Runs the classifier evaluation on a labelled corpus
//! (`focus_experiments::eval::classify`): leaf accuracy and macro-F1 of every
//! family, ROC AUC / Brier / reliability of their relevance R for the
//! corpus's evaluation categories (Wikispeedia's ten, another corpus's
//! largest leaves) as good topics. Writes `<corpus>-classify.md` and
//! `<corpus>-reliability.svg` into OUT_DIR and prints the markdown; with
//! EXPORT_DIR, also the svmlight vectors for
//! `xtask/reference/classify_sklearn.py`.
//!
//! `cargo run --release -p focus-experiments --example classify_corpus -- CORPUS_DIR OUT_DIR [SEED] [EXPORT_DIR]`

use std::path::PathBuf;
use std::time::Instant;

use focus_experiments::eval::classify;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(corpus), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: classify_corpus CORPUS_DIR OUT_DIR [SEED] [EXPORT_DIR]".into());
    };
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let export = args.next().map(PathBuf::from);
    let t = Instant::now();
    if let Some(dir) = export {
        let c = focus_websim::Corpus::load(&PathBuf::from(&corpus))?;
        let feats = classify::featurise(&c, seed);
        let cats = focus_experiments::eval::crawls::default_categories(&c);
        let (tr, te) = classify::export_svmlight(&c, &feats, &cats, &dir)?;
        eprintln!(
            "exported {tr} training and {te} held-out rows to {}",
            dir.display()
        );
    }
    let md = classify::run(&PathBuf::from(corpus), &PathBuf::from(out), seed, &[])?;
    println!("{md}");
    eprintln!("done in {:.1} s", t.elapsed().as_secs_f64());
    Ok(())
}
