//! Held-out accuracy and macro-F1 of each classifier family on labelled
//! websim pages, featurised exactly as the crawler featurises fetched pages.
//!
//! For every leaf of the websim taxonomy, `sample` gives labelled pages;
//! the first 40 train and the next 15 test (the split `websim stats` uses
//! for its naive-Bayes calibration figure). Prints a markdown table.
//!
//! `cargo run --release -p focus-crawl --example classifier_accuracy -- [SEED] [EXPORT_DIR]`
//!
//! With `EXPORT_DIR`, the same train/test vectors are also written in
//! svmlight format (`train.svm`, `test.svm`, labels are leaf indices) for
//! the optional scikit-learn reference in `xtask/reference/`.

use std::fmt::Write as _;
use std::time::Instant;

use focus_classify::eval::score;
use focus_classify::Featurizer;
use focus_classify::{
    CentroidConfig, Centroids, Classifier, Example, HierNb, HierNbConfig, SvmConfig, SvmTree,
};
use focus_core::{Canonicalizer, TopicId};
use focus_text::SparseVec;
use focus_websim::{Web, WebConfig};

const TRAIN: usize = 40;
const TEST: usize = 15;

fn svmlight(rows: &[(usize, &SparseVec)]) -> String {
    let mut out = String::new();
    for (label, v) in rows {
        let _ = write!(out, "{label}");
        let mut entries: Vec<(u32, f64)> = v.entries().iter().map(|(t, x)| (t.0, *x)).collect();
        entries.sort_by_key(|e| e.0);
        for (t, x) in entries {
            let _ = write!(out, " {}:{x}", t + 1);
        }
        out.push('\n');
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let export = args.next();
    let web = Web::new(WebConfig::default(), seed)?;
    let taxonomy = web.taxonomy().clone();
    let canon = Canonicalizer::default();
    let featurizer = Featurizer::default();
    let leaves = taxonomy.leaves();

    let mut train = Vec::new();
    let mut test: Vec<(TopicId, SparseVec)> = Vec::new();
    for &leaf in &leaves {
        for (i, p) in web.sample(leaf, TRAIN + TEST).into_iter().enumerate() {
            let (Some(html), Ok(url)) = (web.page_html(p.id), canon.canonicalize(&p.url)) else {
                continue;
            };
            let counts = featurizer.document(&focus_html::analyze(&html, &url, &canon));
            if i < TRAIN {
                train.push(Example {
                    counts,
                    topic: p.topic,
                });
            } else {
                test.push((p.topic, counts));
            }
        }
    }
    println!(
        "websim seed {seed}: {} leaves, {} training and {} test pages\n",
        leaves.len(),
        train.len(),
        test.len()
    );

    if let Some(dir) = export {
        let index = |t: TopicId| leaves.iter().position(|&l| l == t).unwrap_or(usize::MAX);
        std::fs::create_dir_all(&dir)?;
        let tr: Vec<(usize, &SparseVec)> =
            train.iter().map(|e| (index(e.topic), &e.counts)).collect();
        let te: Vec<(usize, &SparseVec)> = test.iter().map(|(t, v)| (index(*t), v)).collect();
        std::fs::write(format!("{dir}/train.svm"), svmlight(&tr))?;
        std::fs::write(format!("{dir}/test.svm"), svmlight(&te))?;
        println!("exported svmlight files to {dir}\n");
    }

    let t = Instant::now();
    let nb = HierNb::train(&taxonomy, &train, HierNbConfig::default())?;
    let nb_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let centroids = Centroids::train(&train, CentroidConfig::default())?;
    let c_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let svm = SvmTree::train(&taxonomy, &train, &SvmConfig::default())?;
    let svm_s = t.elapsed().as_secs_f64();
    let families: [(&str, &dyn Classifier, f64); 3] = [
        ("hierarchical naive Bayes (Chakrabarti 1999)", &nb, nb_s),
        ("TF-IDF centroid cosine (Bergmark 2002)", &centroids, c_s),
        ("hierarchical linear SVM (BINGO! 2003)", &svm, svm_s),
    ];

    println!("| family | accuracy | macro-F1 | unclassified | training s |");
    println!("|---|---|---|---|---|");
    for (name, c, secs) in families {
        let pairs: Vec<(TopicId, Option<TopicId>)> =
            test.iter().map(|(t, v)| (*t, c.classify(v).best)).collect();
        let none = pairs.iter().filter(|p| p.1.is_none()).count();
        let s = score(&pairs);
        println!(
            "| {name} | {:.3} | {:.3} | {none} | {secs:.2} |",
            s.accuracy, s.macro_f1
        );
    }
    Ok(())
}
