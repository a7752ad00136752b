//! The classifier evaluation's report: the markdown tables, the
//! reliability diagram, and [`run`], which evaluates and writes both.

use std::fmt::Write as _;
use std::path::Path;

use focus_app::AppError;
use focus_eval::{reliability_plot, ReliabilityBin};
use focus_websim::Corpus;

use super::{evaluate, mean, Options, Report};
use crate::write;

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |v| format!("{v:.3}"))
}

/// The report as markdown: the leaf table and the relevance table.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Classifiers on {} (split seed {}): {} pages, {} labelled categories ({} leaves), \
         {} training pages ({} examples: one per label), {} held-out labelled pages; \
         leaf test set {} pages ({} held-out pages labelled only with inner topics left out). \
         Featurised as the crawler does in {:.1} s{}.\n",
        r.corpus,
        r.seed,
        r.pages,
        r.categories,
        r.leaves,
        r.train_pages,
        r.train_examples,
        r.heldout,
        r.leaf_test,
        r.inner_only,
        r.featurise_secs,
        if r.unfeaturised > 0 {
            format!(" ({} pages could not be featurised)", r.unfeaturised)
        } else {
            String::new()
        }
    );
    s.push_str(
        "| family | leaf accuracy | macro-F1 | classes | unclassified (inner topic) | training s |\n\
         |---|---|---|---|---|---|\n",
    );
    for f in &r.families {
        let _ = writeln!(
            s,
            "| {} | {:.3} | {:.3} | {} | {} ({}) | {:.1} |",
            f.family.name(),
            f.leaf.accuracy,
            f.leaf.macro_f1,
            f.leaf.classes,
            f.leaf.unclassified,
            f.inner_predictions,
            f.train_secs
        );
    }
    if r.families.is_empty() {
        return s;
    }
    s.push_str(
        "\nRelevance R of each family with one good topic marked at a time, \
         against the truth of the held-out pages (label at or under the topic): \
         ROC AUC / Brier score; \"extreme\" is the share of pages with R < 0.01 or R > 0.99.\n\n",
    );
    family_columns(
        &mut s,
        r,
        &["good topic", "relevant pages"],
        " AUC / Brier / extreme",
    );
    let topics = r.families[0].relevance.len();
    for i in 0..topics {
        let t = &r.families[0].relevance[i];
        let _ = write!(s, "| {} | {} |", t.topic, t.positives);
        for f in &r.families {
            let x = &f.relevance[i];
            let _ = write!(s, " {} / {} / {:.2} |", opt(x.auc), opt(x.brier), x.extreme);
        }
        s.push('\n');
    }
    s.push_str("| **mean** | |");
    for f in &r.families {
        let ext = mean(f.relevance.iter().map(|x| x.extreme));
        let _ = write!(
            s,
            " **{}** / **{}** / {} |",
            opt(f.mean_auc()),
            opt(f.mean_brier()),
            ext.map_or_else(|| "—".into(), |v| format!("{v:.2}"))
        );
    }
    s.push('\n');
    neighbour_table(&mut s, r);
    s.push_str(
        "\nReliability of R pooled over the good topics (10 equal-width bins: \
         mean R / observed fraction relevant / pages):\n\n",
    );
    family_columns(&mut s, r, &["bin"], "");
    for b in 0..r.families[0].reliability.len() {
        let bin = &r.families[0].reliability[b];
        let close = if bin.hi >= 1.0 { ']' } else { ')' };
        let _ = write!(s, "| [{:.1}, {:.1}{close} |", bin.lo, bin.hi);
        for f in &r.families {
            let x = &f.reliability[b];
            if x.count == 0 {
                s.push_str(" — |");
            } else {
                let _ = write!(
                    s,
                    " {:.3} / {:.3} / {} |",
                    x.mean_predicted, x.observed, x.count
                );
            }
        }
        s.push('\n');
    }
    s
}

/// The reliability diagram of R pooled over the good topics, per family.
pub fn reliability_svg(r: &Report) -> String {
    let series: Vec<(&str, &[ReliabilityBin])> = r
        .families
        .iter()
        .map(|f| (f.family.short(), f.reliability.as_slice()))
        .collect();
    reliability_plot(
        &format!(
            "{}: relevance R against truth, held-out pages, {} good topics pooled",
            r.corpus,
            r.families.first().map_or(0, |f| f.relevance.len())
        ),
        &series,
    )
}

/// A table's header: the `leading` columns, then one per family (its
/// short name and `suffix`), and the separator row.
fn family_columns(s: &mut String, r: &Report, leading: &[&str], suffix: &str) {
    s.push('|');
    for c in leading {
        let _ = write!(s, " {c} |");
    }
    for f in &r.families {
        let _ = write!(s, " {}{suffix} |", f.family.short());
    }
    s.push_str("\n|");
    for _ in 0..leading.len() + r.families.len() {
        s.push_str("---|");
    }
    s.push('\n');
}

/// The neighbour AUCs: how well each family's R ranks, among the
/// held-out pages outside a topic, those that link to it above the rest.
fn neighbour_table(s: &mut String, r: &Report) {
    s.push_str(
        "\nWhere no page of the good topic is in sight, a crawl follows the off-topic \
         pages R rates highest, so R must also rank, among pages outside the topic, those \
         that link to it above those that do not (a crawl's late pages are mostly such \
         choices). Among the held-out pages outside each topic, ROC AUC of R for linking \
         to a page of the topic (the corpus's own links):\n\n",
    );
    family_columns(
        s,
        r,
        &["good topic", "off-topic pages linking to it / not"],
        "",
    );
    for (i, t) in r.families[0].relevance.iter().enumerate() {
        let _ = write!(
            s,
            "| {} | {} / {} |",
            t.topic,
            t.neighbours,
            t.off_topic - t.neighbours
        );
        for f in &r.families {
            let _ = write!(s, " {} |", opt(f.relevance[i].neighbour_auc));
        }
        s.push('\n');
    }
    s.push_str("| **mean** | |");
    for f in &r.families {
        let _ = write!(s, " **{}** |", opt(f.mean_neighbour_auc()));
    }
    s.push('\n');
}

/// Loads the corpus in `corpus_dir`, evaluates every family on
/// `categories` as good topics (none: the corpus's default evaluation
/// categories, [`crate::eval::crawls::default_categories`]) with the split
/// of `seed`, writes
/// `<corpus>-classify.md` and `<corpus>-reliability.svg` into `out_dir`
/// and returns the markdown.
pub fn run(
    corpus_dir: &Path,
    out_dir: &Path,
    seed: u64,
    categories: &[String],
) -> Result<String, AppError> {
    let corpus = Corpus::load(corpus_dir).map_err(|e| AppError::Input(e.to_string()))?;
    let opts = Options {
        categories: if categories.is_empty() {
            crate::eval::crawls::default_categories(&corpus)
        } else {
            categories.to_vec()
        },
        ..Options::new(seed)
    };
    let report = evaluate(&corpus, &opts)?;
    let md = markdown(&report);
    std::fs::create_dir_all(out_dir)
        .map_err(|e| AppError::Input(format!("{}: {e}", out_dir.display())))?;
    write(&out_dir.join(format!("{}-classify.md", report.corpus)), &md)?;
    write(
        &out_dir.join(format!("{}-reliability.svg", report.corpus)),
        &reliability_svg(&report),
    )?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::super::{FamilyReport, TopicRelevance, RELIABILITY_BINS};
    use super::*;
    use crate::eval::classify::Family;
    use focus_eval::{reliability_bins, LabelScores};

    #[test]
    fn markdown_of_a_small_report() {
        let bins = reliability_bins(&[0.05, 0.95], &[false, true], RELIABILITY_BINS);
        let r = Report {
            corpus: "c".into(),
            seed: 1,
            pages: 10,
            categories: 3,
            leaves: 2,
            unfeaturised: 0,
            train_pages: 3,
            train_examples: 4,
            heldout: 7,
            leaf_test: 6,
            inner_only: 1,
            featurise_secs: 0.1,
            families: vec![FamilyReport {
                family: Family::HierNb,
                leaf: LabelScores {
                    accuracy: 0.5,
                    macro_f1: 0.25,
                    n: 6,
                    classes: 2,
                    unclassified: 0,
                },
                inner_predictions: 0,
                train_secs: 0.0,
                relevance: vec![TopicRelevance {
                    topic: "a".into(),
                    positives: 1,
                    auc: Some(1.0),
                    brier: Some(0.0025),
                    extreme: 0.0,
                    off_topic: 6,
                    neighbours: 2,
                    neighbour_auc: Some(0.75),
                }],
                reliability: bins,
            }],
        };
        let md = markdown(&r);
        assert!(md.contains(
            "| hierarchical naive Bayes (Chakrabarti 1999) | 0.500 | 0.250 | 2 | 0 (0) | 0.0 |"
        ));
        assert!(md.contains("| a | 1 | 1.000 / 0.003 / 0.00 |"));
        assert!(md.contains("| **mean** | | **1.000** / **0.003** / 0.00 |"));
        assert!(md.contains("| a | 2 / 4 | 0.750 |"), "{md}");
        assert!(md.contains("| **mean** | | **0.750** |"));
        assert!(md.contains("| [0.0, 0.1) | 0.050 / 0.000 / 1 |"));
        assert!(reliability_svg(&r).contains("<circle"));
    }
}
