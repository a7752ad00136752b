//! BINGO!'s archetypes (§2.6, §3.2): per user topic, the top HITS
//! authorities and the top SVM confidences among the pages the learning
//! phase kept in the topic, admitted as training pages when the topic's
//! SVM accepts them (`--admit positive`, the paper's portal experiment) or
//! is more confident of them than of its current training pages on average
//! (`--admit above-mean`, §3.2).
//! `archetypes.tsv` lists every candidate; a user reviewing them deletes
//! lines or changes `admitted`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::Path;

use focus_classify::{Example, Featurizer};
use focus_cli::Admit;
use focus_core::{CanonicalUrl, Canonicalizer, Taxonomy, TextLine};

use super::Model;
use crate::collections::report::read_pages;
use crate::setup::AppError;

/// One archetype candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Archetype {
    /// Its topic's path.
    pub topic: String,
    /// The page.
    pub url: String,
    /// The topic's SVM confidence in it (signed distance to the hyperplane).
    pub confidence: f64,
    /// Among the topic's top authorities.
    pub by_authority: bool,
    /// Among the topic's top confidences.
    pub by_confidence: bool,
    /// More confident than the topic's training pages on average (or
    /// confirmed by the user).
    pub admitted: bool,
}

/// `texts.jsonl` of a crawl directory, by URL (torn lines skipped).
pub(super) fn read_texts(dir: &Path) -> Result<HashMap<String, TextLine>, AppError> {
    let path = dir.join("texts.jsonl");
    let file = std::fs::File::open(&path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    let mut texts = HashMap::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
        if let Ok(t) = serde_json::from_str::<TextLine>(&line) {
            texts.insert(t.url.clone(), t);
        }
    }
    Ok(texts)
}

/// A crawl's `hubs.tsv` or `authorities.tsv`: `(url, score)` best first
/// (the lines after the header; a line without both is skipped).
pub(super) fn scored(dir: &Path, file: &str) -> Result<Vec<(String, f64)>, AppError> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (url, score) = l.split_once('\t')?;
            let score = score.trim().parse::<f64>().ok()?;
            (!url.is_empty()).then(|| (url.to_owned(), score))
        })
        .collect())
}

/// The URLs of a crawl's `hubs.tsv` or `authorities.tsv`, best first.
pub(super) fn ranked(dir: &Path, file: &str) -> Result<Vec<String>, AppError> {
    Ok(scored(dir, file)?.into_iter().map(|(u, _)| u).collect())
}

/// The counts a page's kept text gives (as the crawl's featurizer).
pub(super) fn text_counts(featurizer: &Featurizer, t: &TextLine) -> focus_text::SparseVec {
    featurizer.page(
        &format!("{}\n{}", t.title, t.text),
        t.links.iter().map(String::as_str),
        t.cited.iter().map(String::as_str),
    )
}

/// The archetype candidates of every user topic in the crawl in `dir`,
/// `n` from each source.
pub(super) fn select(
    dir: &Path,
    texts: &HashMap<String, TextLine>,
    model: &Model,
    featurizer: &Featurizer,
    n: usize,
    admit: Admit,
) -> Result<Vec<Archetype>, AppError> {
    let crawled = read_pages(dir)?;
    let authorities = ranked(dir, "authorities.tsv")?;
    let mut out = Vec::new();
    for g in model.taxonomy.good_topics() {
        let path = model.taxonomy.path(g);
        let confidence = |counts: &focus_text::SparseVec| model.tree.confidence(counts, g);
        // The pages the crawl put in the topic (or below it), with text.
        let mut members: Vec<(String, f64)> = crawled
            .members
            .iter()
            .filter(|(class, _)| {
                model
                    .taxonomy
                    .find(class)
                    .is_some_and(|c| model.taxonomy.is_ancestor_or_self(g, c))
            })
            .flat_map(|(_, ms)| ms)
            .filter_map(|m| {
                let t = texts.get(&m.url)?;
                Some((m.url.clone(), confidence(&text_counts(featurizer, t))?))
            })
            .collect();
        members.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let train: Vec<f64> = model
            .examples
            .iter()
            .filter(|e| model.taxonomy.is_ancestor_or_self(g, e.topic))
            .filter_map(|e| confidence(&e.counts))
            .collect();
        let mean = train.iter().sum::<f64>() / train.len().max(1) as f64;
        let bar = match admit {
            Admit::Positive => 0.0,
            Admit::AboveMean => mean,
        };
        let by_conf: Vec<&String> = members.iter().take(n).map(|m| &m.0).collect();
        let member_conf: HashMap<&String, f64> = members.iter().map(|(u, c)| (u, *c)).collect();
        let by_auth: Vec<&String> = authorities
            .iter()
            .filter(|u| member_conf.contains_key(u))
            .take(n)
            .collect();
        let mut candidates: Vec<&String> = by_conf.iter().chain(&by_auth).copied().collect();
        candidates.sort();
        candidates.dedup();
        let mut topic: Vec<Archetype> = candidates
            .into_iter()
            .map(|u| {
                let confidence = member_conf.get(u).copied().unwrap_or(0.0);
                Archetype {
                    topic: path.to_owned(),
                    url: u.clone(),
                    confidence,
                    by_authority: by_auth.contains(&u),
                    by_confidence: by_conf.contains(&u),
                    admitted: confidence > bar,
                }
            })
            .collect();
        topic.sort_by(|a, b| {
            b.confidence
                .total_cmp(&a.confidence)
                .then_with(|| a.url.cmp(&b.url))
        });
        tracing::info!(
            "{path}: {} archetype candidates, {} admitted (mean training confidence {mean:.3})",
            topic.len(),
            topic.iter().filter(|a| a.admitted).count()
        );
        out.extend(topic);
    }
    Ok(out)
}

const HEADER: &str = "topic\turl\tconfidence\tsource\tadmitted";

/// Writes `archetypes.tsv`.
pub(super) fn write(path: &Path, archetypes: &[Archetype]) -> Result<(), AppError> {
    let mut body = format!("{HEADER}\n");
    for a in archetypes {
        let source = match (a.by_authority, a.by_confidence) {
            (true, true) => "both",
            (true, false) => "authority",
            _ => "confidence",
        };
        let _ = writeln!(
            body,
            "{}\t{}\t{:.4}\t{source}\t{}",
            a.topic,
            a.url,
            a.confidence,
            if a.admitted { "yes" } else { "no" }
        );
    }
    std::fs::write(path, body).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}

/// Reads `archetypes.tsv` as the user left it: a line's `admitted` column
/// (`yes`/`no`) decides; a deleted line is no archetype.
pub(super) fn read(path: &Path) -> Result<Vec<Archetype>, AppError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [topic, url, confidence, source, admitted] = cols[..] else {
            return Err(AppError::Input(format!(
                "{}:{}: expected {HEADER}",
                path.display(),
                i + 1
            )));
        };
        let confidence = confidence.trim().parse().map_err(|_| {
            AppError::Input(format!("{}:{}: bad confidence", path.display(), i + 1))
        })?;
        out.push(Archetype {
            topic: topic.to_owned(),
            url: url.to_owned(),
            confidence,
            by_authority: matches!(source, "authority" | "both"),
            by_confidence: matches!(source, "confidence" | "both"),
            admitted: admitted.trim().eq_ignore_ascii_case("yes"),
        });
    }
    Ok(out)
}

/// The admitted archetypes as training examples of their topics (their
/// text as the learning phase kept it, `texts`).
pub(super) fn examples(
    texts: &HashMap<String, TextLine>,
    archetypes: &[Archetype],
    taxonomy: &Taxonomy,
    featurizer: &Featurizer,
) -> Vec<Example> {
    archetypes
        .iter()
        .filter(|a| a.admitted)
        .filter_map(|a| {
            Some(Example {
                counts: text_counts(featurizer, texts.get(&a.url)?),
                topic: taxonomy.find(&a.topic)?,
            })
        })
        .collect()
}

/// The best `n` hubs of the crawl in `dir` (the harvesting phase's start).
pub(super) fn hubs(
    dir: &Path,
    canon: &Canonicalizer,
    n: usize,
) -> Result<Vec<CanonicalUrl>, AppError> {
    Ok(ranked(dir, "hubs.tsv")?
        .iter()
        .filter_map(|u| canon.canonicalize(u).ok())
        .take(n)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reviewed_file_reads_back_with_the_users_decisions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archetypes.tsv");
        let a = |url: &str, admitted| Archetype {
            topic: "db".into(),
            url: url.into(),
            confidence: 0.5,
            by_authority: true,
            by_confidence: false,
            admitted,
        };
        write(
            &path,
            &[a("http://a.test/", true), a("http://b.test/", false)],
        )
        .unwrap();
        assert_eq!(
            read(&path).unwrap(),
            vec![a("http://a.test/", true), a("http://b.test/", false)]
        );
        // The user deletes the first line and admits the second.
        let text = std::fs::read_to_string(&path).unwrap();
        let edited: Vec<&str> = text.lines().filter(|l| !l.contains("a.test")).collect();
        std::fs::write(&path, edited.join("\n").replace("\tno", "\tyes")).unwrap();
        assert_eq!(read(&path).unwrap(), vec![a("http://b.test/", true)]);
        std::fs::write(&path, format!("{HEADER}\ndb\thttp://c.test/\n")).unwrap();
        assert!(read(&path).unwrap_err().to_string().contains(":2:"));
    }
}
