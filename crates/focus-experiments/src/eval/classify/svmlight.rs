//! The featurised split as svmlight files, for the scikit-learn reference
//! (`xtask/reference/classify_sklearn.py`).

use std::fmt::Write as _;
use std::path::Path;

use focus_app::AppError;
use focus_text::SparseVec;
use focus_websim::{Corpus, Site};

use super::{find_topics, leaf_labels, links_into, Featurised};
use crate::write;

/// One svmlight row: `label index:count ...` (1-based feature indices).
fn svmlight_row(out: &mut String, label: i64, v: &SparseVec) {
    let _ = write!(out, "{label}");
    for (t, x) in v.entries() {
        let _ = write!(out, " {}:{x}", t.0 + 1);
    }
    out.push('\n');
}

/// Writes the featurised split for the scikit-learn reference into `dir`:
/// `train.svm` and `test.svm` (every training, resp. held-out, labelled
/// page; the label is the index of the page's first leaf label in
/// `leaves.tsv`, −1 when it has none), and `train_labels.tsv` /
/// `test_labels.tsv` aligned with them: all leaf label indices
/// (comma-separated, possibly empty), then one 0/1 column per good topic of
/// `categories` (label at or under it); and `test_links.tsv`, aligned with
/// `test.svm`: one 0/1 column per good topic, whether the page links to a
/// page at or under it (the corpus's own links, as the neighbour AUC of
/// [`super::evaluate`] reads them). Returns (train rows, test rows).
pub fn export_svmlight(
    corpus: &Corpus,
    feats: &Featurised,
    categories: &[String],
    dir: &Path,
) -> Result<(usize, usize), AppError> {
    let tax = corpus.taxonomy();
    let leaves = tax.leaves();
    let goods = find_topics(corpus, categories)?;
    let header = format!("leaf_labels\t{}\n", categories.join("\t"));
    let (mut train, mut test) = (String::new(), String::new());
    let mut test_links = format!("{}\n", categories.join("\t"));
    let (mut train_l, mut test_l) = (header.clone(), header);
    let (mut n_train, mut n_test) = (0, 0);
    for pid in 0..corpus.page_count() {
        let labels = corpus.labels(pid);
        let Some(Some(v)) = feats.counts.get(pid as usize) else {
            continue;
        };
        if labels.is_empty() {
            continue;
        }
        let idx: Vec<usize> = leaf_labels(tax, labels)
            .iter()
            .filter_map(|l| leaves.iter().position(|x| x == l))
            .collect();
        let label = idx.first().map_or(-1, |&i| i as i64);
        let mut line = idx
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",");
        for &g in &goods {
            let rel = labels.iter().any(|&l| tax.is_ancestor_or_self(g, l));
            line.push_str(if rel { "\t1" } else { "\t0" });
        }
        line.push('\n');
        if feats.split.is_train(pid) {
            svmlight_row(&mut train, label, v);
            train_l.push_str(&line);
            n_train += 1;
        } else {
            svmlight_row(&mut test, label, v);
            test_l.push_str(&line);
            let links: Vec<&str> = goods
                .iter()
                .map(|&g| if links_into(corpus, pid, g) { "1" } else { "0" })
                .collect();
            test_links.push_str(&links.join("\t"));
            test_links.push('\n');
            n_test += 1;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| AppError::Input(format!("{}: {e}", dir.display())))?;
    write(&dir.join("train.svm"), &train)?;
    write(&dir.join("test.svm"), &test)?;
    write(&dir.join("train_labels.tsv"), &train_l)?;
    write(&dir.join("test_labels.tsv"), &test_l)?;
    write(&dir.join("test_links.tsv"), &test_links)?;
    let mut lv = String::new();
    for (i, &l) in leaves.iter().enumerate() {
        let _ = writeln!(lv, "{i}\t{}", tax.path(l));
    }
    write(&dir.join("leaves.tsv"), &lv)?;
    Ok((n_train, n_test))
}
