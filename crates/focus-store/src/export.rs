//! Exports readable by other tools: `pages.jsonl` (one JSON object per
//! recorded fetch) and the link graph as TSV (`from_url<TAB>to_url`).
//! Both stream from the store without materialising it.

use std::io::Write;

use crate::error::StoreError;
use crate::store::Store;

impl Store {
    /// Writes one [`focus_core::PageLine`] per recorded attempt (the
    /// crawl's `pages.jsonl` contract, without ground truth): every URL's
    /// last attempt in id order, then the attempts that put their URL
    /// back, in crawl order. Returns the number of lines.
    pub fn export_pages_jsonl(&self, out: &mut impl Write) -> Result<u64, StoreError> {
        let mut n = 0;
        for page in self.pages().chain(self.retried_attempts()) {
            let page = page?;
            let url_of = |id: Option<u64>| -> Result<Option<String>, StoreError> {
                Ok(match id {
                    Some(id) => self.get_page(id)?.map(|r| r.url),
                    None => None,
                })
            };
            let line = page.line(
                url_of(page.parent)?,
                url_of(page.duplicate.map(|d| d.1))?,
                None,
            );
            serde_json::to_writer(&mut *out, &line).map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
            n += 1;
        }
        Ok(n)
    }

    /// Writes `from_url<TAB>to_url` for every stored link. Returns the
    /// number of lines.
    pub fn export_links_tsv(&self, out: &mut impl Write) -> Result<u64, StoreError> {
        // Links are stored in `from` order: one lookup per source page.
        let mut current: Option<(u64, String)> = None;
        let mut n = 0;
        for link in self.links_with_urls() {
            let (from, _, to_url) = link?;
            if current.as_ref().is_none_or(|(id, _)| *id != from) {
                let url = self
                    .get_page(from)?
                    .map_or_else(|| format!("#{from:016x}"), |p| p.url);
                current = Some((from, url));
            }
            let from_url = current.as_ref().map_or("", |(_, u)| u.as_str());
            writeln!(out, "{from_url}\t{to_url}")?;
            n += 1;
        }
        Ok(n)
    }
}
