//! A web written out as a labelled folder (the format `corpus/labelled.rs`
//! reads, `docs/websim.md`): page `http://HOST/PATH` becomes the file
//! `DIR/HOST/PATH` (a path ending in `/` gets `index.html`) with its HTML
//! as its host serves it, links untouched; each host's `robots.txt` is
//! `DIR/HOST/robots.txt`; and `DIR/labels.tsv` holds the ground truth
//! (`url<TAB>topic path`). Replayed with `--corpus DIR`, the synthetic web
//! is then a multi-host labelled corpus, dead links included (a websim
//! with `links.dead_cross_host` writes its dead links as they are: a link
//! to a page no file holds is answered 404, a `.invalid` host never
//! resolves), for the evaluation that runs on labelled corpora.
//!
//! Faults and services are not written: a link to a fault host's page
//! points at a file that does not exist, as for any dead link.

use std::collections::BTreeSet;
use std::path::Path;

use crate::site::{io, Site};
use crate::static_site::{file_of, hosted_pages, write_page, StaticSite};
use crate::WebsimError;

/// Write every page of `site`, its hosts' robots.txt and its labels under
/// `dir` as the module doc says.
pub fn write_labelled_folder(
    site: &(impl Site + ?Sized),
    dir: &Path,
) -> Result<StaticSite, WebsimError> {
    let mut pages = 0;
    let mut hosts = BTreeSet::new();
    for (host, path, html) in hosted_pages(site) {
        write_page(&file_of(dir, &host, &path), &html)?;
        hosts.insert(host);
        pages += 1;
    }
    for host in &hosts {
        let robots = site.render(host, "/robots.txt");
        if robots.status == 200 {
            let file = dir.join(host).join("robots.txt");
            std::fs::write(&file, &robots.body).map_err(io(&file))?;
        }
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let labels = dir.join("labels.tsv");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&labels).map_err(io(&labels))?);
    site.dump_truth(&mut out).map_err(io(&labels))?;
    std::io::Write::flush(&mut out).map_err(io(&labels))?;
    Ok(StaticSite {
        pages,
        hosts: hosts.len() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Corpus, Web, WebConfig};

    #[test]
    fn a_written_web_replays_as_a_corpus_with_the_same_pages_links_and_labels() {
        let config = WebConfig::small().with_pages(4_000).with_dead_links(50);
        let web = Web::new(config, 3).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let written = write_labelled_folder(&web, dir).unwrap();
        assert_eq!(written.pages, web.page_count());
        assert_eq!(written.hosts as usize, web.host_count());
        let corpus = Corpus::load(dir).unwrap();
        assert_eq!(corpus.page_count(), web.page_count());
        assert_eq!(corpus.host_count(), web.host_count());
        assert_eq!(corpus.skipped_lines(), 0, "every label names a file");
        // Same page, same HTML, same truth, under the same URL.
        let mut with_links = 0;
        for pid in (0..web.page_count()).step_by(97) {
            let url = web.page_url(pid).unwrap();
            let cid = corpus.page_id(&url).expect("the page is in the corpus");
            assert_eq!(corpus.page_html(cid), web.page_html(pid), "{url}");
            assert_eq!(corpus.truth_topics(&url).len(), 1, "{url}");
            assert_eq!(
                web.taxonomy().path(web.truth_topics(&url)[0]),
                corpus.taxonomy().path(corpus.truth_topics(&url)[0])
            );
            with_links += usize::from(!corpus.out_links(cid).is_empty());
        }
        assert!(with_links > 0, "links between written pages are found");
        // Dead links stay dead: some written page links to a URL that no
        // file holds.
        let dead = (0..web.page_count()).any(|pid| {
            let html = web.page_html(pid).unwrap();
            html.contains(".invalid/")
        });
        assert!(dead, "the web's dead links are written as they are");
        let host = web.page_url(0).unwrap()["http://".len()..]
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let robots = corpus.render(&host, "/robots.txt");
        assert_eq!(robots.status, 200);
        assert_eq!(robots.body, web.render(&host, "/robots.txt").body);
    }
}
