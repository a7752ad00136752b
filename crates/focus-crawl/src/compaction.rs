//! Compacting a finished crawl's store (`--compact-store`): the engine's
//! last step when [`CrawlConfig::compact_store`](crate::CrawlConfig) is
//! set, and [`compact_finished`] for a crawl run in pieces (the context
//! crawler's segments), which compacts once, after its last piece, rather
//! than after every one.

use std::path::Path;

use focus_eval::Summary;

use crate::output;
use crate::CrawlError;

/// Compacts the closed store in `dir`, records both sizes in `summary`
/// and returns what happened, to be noted. A failure leaves the store as
/// it was and is said in the note, not returned: the crawl's other outputs
/// are written either way.
pub(crate) fn compact_store(dir: &Path, summary: &mut Summary) -> String {
    let mb = |b: u64| b as f64 / 1e6;
    match focus_store::compact(dir) {
        Ok(done) => {
            summary.store_bytes_before_compaction = Some(done.bytes_before);
            summary.store_bytes = done.bytes_after;
            if done.replaced {
                format!(
                    "compacted the store: {:.1} MB -> {:.1} MB",
                    mb(done.bytes_before),
                    mb(done.bytes_after)
                )
            } else {
                format!(
                    "the store ({:.1} MB) had nothing to compact; kept as it was",
                    mb(done.bytes_before)
                )
            }
        }
        Err(e) => format!("compacting the store failed; it is kept as it was: {e}"),
    }
}

/// Compacts the store of the finished crawl whose outputs are in `out`
/// (its `store/`), as `--compact-store` does at a crawl's end, and
/// rewrites `out/summary.json` with `summary` and the sizes before and
/// after. Returns the note to show. The crawl must have ended: no handle
/// to its store may be open.
///
/// # Errors
/// Only if `summary.json` cannot be written; a compaction that fails keeps
/// the store as it was and says so in the note.
pub fn compact_finished(out: &Path, summary: &mut Summary) -> Result<String, CrawlError> {
    let note = compact_store(&out.join("store"), summary);
    output::summary(out, summary)?;
    Ok(note)
}
