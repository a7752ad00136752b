//! The output contract: `pages.jsonl` (one object per fetch attempt,
//! appended as the crawl goes), and at the end `summary.json`, `hubs.tsv`,
//! `authorities.tsv` and `harvest.svg`; `texts.jsonl` when the crawl keeps
//! text.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use focus_eval::{harvest_plot, Summary};
use focus_store::PageRecord;

use crate::error::CrawlError;

/// Writes `pages.jsonl` lines. The file is always written afresh: a
/// resumed crawl rewrites the lines of its stored pages first, because a
/// crawl killed mid-write leaves a torn last line and loses the lines still
/// in its buffer, while the store has every page.
pub(crate) struct PagesLog(BufWriter<File>);

impl PagesLog {
    pub(crate) fn create(dir: &Path) -> Result<Self, CrawlError> {
        let path = dir.join("pages.jsonl");
        let file = File::create(&path).map_err(|e| CrawlError::io(&path, e))?;
        Ok(Self(BufWriter::new(file)))
    }

    pub(crate) fn write(
        &mut self,
        page: &PageRecord,
        parent_url: Option<&str>,
        duplicate_of: Option<&str>,
        truth: Option<bool>,
    ) -> Result<(), CrawlError> {
        let line = page.line(
            parent_url.map(str::to_owned),
            duplicate_of.map(str::to_owned),
            truth,
        );
        serde_json::to_writer(&mut self.0, &line).map_err(|e| CrawlError::Output(e.to_string()))?;
        self.0
            .write_all(b"\n")
            .map_err(|e| CrawlError::Output(e.to_string()))
    }

    pub(crate) fn flush(&mut self) -> Result<(), CrawlError> {
        self.0
            .flush()
            .map_err(|e| CrawlError::Output(e.to_string()))
    }
}

/// Writes `texts.jsonl` lines. Unlike `pages.jsonl` it is appended to by
/// a resumed crawl (the store keeps no text); a reader skips a line torn
/// by a killed crawl.
pub(crate) struct TextLog(BufWriter<File>);

impl TextLog {
    pub(crate) fn open(dir: &Path, append: bool) -> Result<Self, CrawlError> {
        let path = dir.join("texts.jsonl");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(&path)
            .map_err(|e| CrawlError::io(&path, e))?;
        Ok(Self(BufWriter::new(file)))
    }

    pub(crate) fn write(&mut self, line: &focus_core::TextLine) -> Result<(), CrawlError> {
        serde_json::to_writer(&mut self.0, line).map_err(|e| CrawlError::Output(e.to_string()))?;
        self.0
            .write_all(b"\n")
            .map_err(|e| CrawlError::Output(e.to_string()))
    }

    pub(crate) fn flush(&mut self) -> Result<(), CrawlError> {
        self.0
            .flush()
            .map_err(|e| CrawlError::Output(e.to_string()))
    }
}

fn write(path: &Path, body: &str) -> Result<(), CrawlError> {
    std::fs::write(path, body).map_err(|e| CrawlError::io(path, e))
}

pub(crate) fn tsv(path: &Path, rows: &[(String, f64)]) -> Result<(), CrawlError> {
    let mut body = String::from("url\tscore\n");
    for (u, s) in rows {
        let _ = writeln!(body, "{u}\t{s:.6e}");
    }
    write(path, &body)
}

/// Writes `dir/summary.json`.
pub(crate) fn summary(dir: &Path, summary: &Summary) -> Result<(), CrawlError> {
    let json =
        serde_json::to_string_pretty(summary).map_err(|e| CrawlError::Output(e.to_string()))?;
    write(&dir.join("summary.json"), &(json + "\n"))
}

pub(crate) fn finish(
    dir: &Path,
    summary: &Summary,
    relevance: &[f64],
    title: &str,
) -> Result<(), CrawlError> {
    self::summary(dir, summary)?;
    write(
        &dir.join("harvest.svg"),
        &harvest_plot(title, relevance, 100),
    )
}
