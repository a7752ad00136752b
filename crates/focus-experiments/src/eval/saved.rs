//! A split's scores saved beside its crawls (`<work>/split-<seed>/scores.jsonl`,
//! one [`Scored`] per line), so a later run can be paired with it
//! (`--against`, `against.rs`) without crawling it again. Reads and writes
//! that one file; must not run crawls.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use focus_app::AppError;

use super::crawls::Scored;
use crate::input;

/// Where split `seed`'s crawls and scores go under a run's `work` folder.
pub(super) fn split_work(work: &Path, seed: u64) -> PathBuf {
    work.join(format!("split-{seed}"))
}

/// The file a split's scores are saved in, under its work folder.
pub(super) fn scores_file(split_work: &Path) -> PathBuf {
    split_work.join("scores.jsonl")
}

/// Saves `scores` to `path`, one JSON object per line; refuses after a
/// stop ([`crate::unless_stopped`]).
pub(super) fn save(path: &Path, scores: &[Scored]) -> Result<(), AppError> {
    crate::unless_stopped(path)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(input)?);
    for s in scores {
        let line = serde_json::to_string(s).map_err(input)?;
        writeln!(out, "{line}").map_err(input)?;
    }
    out.flush().map_err(input)
}

/// The scores saved in `path` by [`save`]; a line that does not parse is an
/// error naming the file and the line.
pub(super) fn load(path: &Path) -> Result<Vec<Scored>, AppError> {
    let file = std::fs::File::open(path)
        .map_err(|e| input(format!("reading saved scores {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(input)?;
        if line.trim().is_empty() {
            continue;
        }
        let s = serde_json::from_str(&line).map_err(|e| {
            input(format!(
                "{} line {}: not a saved score: {e}",
                path.display(),
                i + 1
            ))
        })?;
        out.push(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::crawls::{Crawler, Protocol};
    use super::*;

    #[test]
    fn scores_come_back_as_saved_and_bad_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = scores_file(dir.path());
        let scores = vec![
            Scored {
                category: "Science/Biology/Birds".into(),
                protocol: Protocol::Hub,
                crawler: Crawler::Soft,
                scored_total: 3,
                found: vec![0, 1, 1],
                training: vec![1, 1, 2],
                empty: vec![0, 0, 0],
            },
            Scored {
                category: "Music".into(),
                protocol: Protocol::Topic,
                crawler: Crawler::Reference,
                scored_total: 2,
                found: vec![1, 2],
                training: vec![0, 0],
                empty: vec![0, 1],
            },
        ];
        save(&path, &scores).unwrap();
        assert_eq!(load(&path).unwrap(), scores);
        std::fs::write(&path, "{\"category\": 1}\n").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("line 1: not a saved score"), "{err}");
        let missing = load(&dir.path().join("none.jsonl"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("reading saved scores"), "{missing}");
    }
}
