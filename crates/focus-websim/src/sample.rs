//! Writing labelled example pages in the example-set folder format of
//! `focus-examples` (`DIR/<topic>/<subtopic>/.../page-<id>.html`): what
//! crawlers train on. Sampled pages are never seed pages.

use std::path::Path;

use crate::web::Web;
use crate::WebsimError;

impl Web {
    /// Write `per_topic` example pages of every leaf topic under `dir`;
    /// returns the number of files written.
    pub fn write_examples(&self, dir: &Path, per_topic: usize) -> Result<usize, WebsimError> {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |source| WebsimError::Io { path, source }
        };
        let mut written = 0;
        for leaf in self.topics.leaves.clone() {
            let folder = dir.join(self.topics.taxonomy.path(leaf));
            std::fs::create_dir_all(&folder).map_err(io(&folder))?;
            for page in self.sample(leaf, per_topic) {
                let Some(html) = self.page_html(page.id) else {
                    continue;
                };
                let file = folder.join(format!("page-{:07}.html", page.id));
                std::fs::write(&file, html).map_err(io(&file))?;
                written += 1;
            }
        }
        Ok(written)
    }
}
