//! A web written out as static files, for a stock HTTP server (nginx in
//! `cargo xtask bench --peers`) to serve on one host: page
//! `http://HOST/PATH` becomes the file `DIR/HOST/PATH` (a path ending in `/`
//! gets `index.html`), and every link is rewritten to the same layout,
//! `href="/HOST/PATH"`, so any crawler started at `/` of the one server
//! reaches the whole web. `DIR/index.html` links to every host's home page.
//!
//! Pages are the regular pages as their own hosts serve them; faults and
//! services are not written (a link to a fault host is left pointing at a
//! file that does not exist, so the server answers 404, as for any dead
//! link).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::site::{io, Site};
use crate::WebsimError;

/// What [`write_static_site`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticSite {
    /// Page files written (the root index not counted).
    pub pages: u32,
    /// Hosts, each a folder with its home page.
    pub hosts: u32,
}

/// Write every page of `site` under `dir` as described in the module doc.
pub fn write_static_site(
    site: &(impl Site + ?Sized),
    dir: &Path,
) -> Result<StaticSite, WebsimError> {
    let mut pages = 0;
    let mut homes = Vec::new();
    for (host, path, html) in hosted_pages(site) {
        if path.is_empty() {
            homes.push(host.clone());
        }
        write_page(&file_of(dir, &host, &path), &rehost(&html, &host))?;
        pages += 1;
    }
    let mut index = String::from("<html><head><title>Sites</title></head><body><ul>\n");
    for host in &homes {
        let _ = writeln!(index, "<li><a href=\"/{host}/\">{host}</a></li>");
    }
    index.push_str("</ul></body></html>\n");
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let file = dir.join("index.html");
    std::fs::write(&file, index).map_err(io(&file))?;
    Ok(StaticSite {
        pages,
        hosts: homes.len() as u32,
    })
}

/// Every regular page of `site` as (host, path without its leading `/`,
/// HTML), in page order.
pub(crate) fn hosted_pages(
    site: &(impl Site + ?Sized),
) -> impl Iterator<Item = (String, String, String)> + '_ {
    (0..site.page_count()).filter_map(|pid| {
        let url = site.page_url(pid)?;
        let html = site.page_html(pid)?;
        let (host, path) = url.strip_prefix("http://")?.split_once('/')?;
        Some((host.to_owned(), path.to_owned(), html))
    })
}

/// Writes `body` to `file`, creating its folders.
pub(crate) fn write_page(file: &Path, body: &str) -> Result<(), WebsimError> {
    if let Some(folder) = file.parent() {
        std::fs::create_dir_all(folder).map_err(io(folder))?;
    }
    std::fs::write(file, body).map_err(io(file))
}

/// The file of page `path` (without its leading `/`) of `host`.
pub(crate) fn file_of(dir: &Path, host: &str, path: &str) -> PathBuf {
    let mut file = dir.join(host);
    file.push(path);
    if path.is_empty() || path.ends_with('/') {
        file.push("index.html");
    }
    file
}

/// `html` of a page of `host` with its links moved to the one-host layout:
/// `href="/P"` → `href="/HOST/P"`, `href="http://H/P"` → `href="/H/P"`.
fn rehost(html: &str, host: &str) -> String {
    map_hrefs(html, |target| {
        if let Some(absolute) = target.strip_prefix("http://") {
            format!("/{absolute}")
        } else if target.starts_with('/') {
            format!("/{host}{target}")
        } else {
            target.to_owned()
        }
    })
}

/// `html` with the value of each `href="…"` replaced by `new(value)`.
pub(crate) fn map_hrefs(html: &str, mut new: impl FnMut(&str) -> String) -> String {
    const HREF: &str = "href=\"";
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    while let Some(i) = rest.find(HREF) {
        let (head, tail) = rest.split_at(i + HREF.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        let (target, after) = tail.split_at(end);
        out.push_str(&new(target));
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Web, WebConfig};

    #[test]
    fn links_move_under_their_host() {
        let html = r#"<a href="/">home</a> <a href="/a/b-3.html">x</a> <a href="http://other.org/c/">y</a> <a href="mailto:z">z</a>"#;
        assert_eq!(
            rehost(html, "site.com"),
            r#"<a href="/site.com/">home</a> <a href="/site.com/a/b-3.html">x</a> <a href="/other.org/c/">y</a> <a href="mailto:z">z</a>"#
        );
    }

    #[test]
    fn directories_get_an_index_file() {
        let dir = Path::new("/d");
        assert_eq!(file_of(dir, "h", ""), Path::new("/d/h/index.html"));
        assert_eq!(file_of(dir, "h", "s-1/"), Path::new("/d/h/s-1/index.html"));
        assert_eq!(
            file_of(dir, "h", "s-1/p-2.html"),
            Path::new("/d/h/s-1/p-2.html")
        );
    }

    #[test]
    fn every_page_is_written_and_its_links_resolve_on_disk() {
        let web = Web::new(WebConfig::small(), 3).unwrap();
        // Removed on drop, so a failing run leaves no site behind.
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let written = write_static_site(&web, dir).unwrap();
        assert_eq!(written.pages, web.page_count());
        assert_eq!(written.hosts as usize, web.host_count());
        // Every link of a written page that points at a regular page of the
        // web resolves to a written file.
        let url = web.page_url(0).unwrap();
        let host = url["http://".len()..].split('/').next().unwrap();
        let home = std::fs::read_to_string(dir.join(host).join("index.html")).unwrap();
        let mut checked = 0;
        for href in home.split("href=\"").skip(1) {
            let target = href.split('"').next().unwrap();
            let path = target.trim_start_matches('/');
            let (h, p) = path.split_once('/').unwrap_or((path, ""));
            if web.page_id(&format!("http://{h}/{p}")).is_some() {
                assert!(file_of(dir, h, p).is_file(), "{target} has no file");
                checked += 1;
            }
        }
        assert!(checked > 0, "the home page links to pages of the web");
        let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(index.contains(&format!("href=\"/{host}/\"")));
    }
}
