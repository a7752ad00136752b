//! The evaluation's training split of a labelled corpus: for every topic
//! that labels pages, a seeded random [`TRAIN_SHARE`] of its pages (at
//! least one) is training material; a page chosen for any of its topics is
//! a training page. Training pages are what crawlers get as their example
//! set; every other labelled page is what a crawl and a classifier are
//! scored on (fetching a training page earns nothing).

use std::path::Path;

use focus_core::TopicId;
use focus_websim::{Corpus, Site};
use xxhash_rust::xxh3::xxh3_64_with_seed;

use focus_app::AppError;

/// Share of each topic's pages given to the crawlers as examples.
pub const TRAIN_SHARE: f64 = 0.3;

/// Which pages of a corpus are training pages.
#[derive(Debug, Clone)]
pub struct Split {
    train: Vec<bool>,
}

impl Split {
    /// The split of `corpus` under `seed` (deterministic).
    pub fn new(corpus: &Corpus, seed: u64) -> Self {
        let n = corpus.page_count();
        let tax = corpus.taxonomy();
        let mut train = vec![false; n as usize];
        for topic in tax.ids().filter(|&t| t != TopicId::ROOT) {
            let mut pages: Vec<u32> = (0..n)
                .filter(|&p| corpus.labels(p).contains(&topic))
                .collect();
            if pages.is_empty() {
                continue;
            }
            pages.sort_by_key(|&p| xxh3_64_with_seed(&p.to_le_bytes(), seed ^ u64::from(topic.0)));
            let k = ((pages.len() as f64 * TRAIN_SHARE).round() as usize).max(1);
            for &p in &pages[..k] {
                train[p as usize] = true;
            }
        }
        Self { train }
    }

    /// Whether page `pid` is a training page.
    pub fn is_train(&self, pid: u32) -> bool {
        self.train.get(pid as usize).copied().unwrap_or(false)
    }

    /// Training pages, in id order.
    pub fn train_pages(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.train.len() as u32).filter(|&p| self.train[p as usize])
    }

    /// Writes every training page into an example-set folder
    /// (`docs/formats.md`): `DIR/<topic path>/page-NNNNNNN.html`, once per
    /// label of the page. Returns the number of files written.
    pub fn write_examples(&self, corpus: &Corpus, dir: &Path) -> Result<usize, AppError> {
        let io = |p: &Path, e: std::io::Error| AppError::Input(format!("{}: {e}", p.display()));
        let tax = corpus.taxonomy();
        let mut written = 0;
        for pid in self.train_pages() {
            let Some(html) = corpus.page_html(pid) else {
                continue;
            };
            for &label in corpus.labels(pid) {
                let folder = dir.join(tax.path(label));
                std::fs::create_dir_all(&folder).map_err(|e| io(&folder, e))?;
                let file = folder.join(format!("page-{pid:07}.html"));
                std::fs::write(&file, &html).map_err(|e| io(&file, e))?;
                written += 1;
            }
        }
        Ok(written)
    }
}
