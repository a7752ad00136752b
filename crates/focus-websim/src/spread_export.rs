//! A one-site labelled corpus written out spread over several hosts, with
//! some of its pages gone: the Wikispeedia replay is one host with no dead
//! link, so host-level rules (politeness, dispatch across hosts, host
//! health, dead links) have nothing to act on there, while a real topical
//! crawl meets both. Each page moves to a host named after the first-level
//! topic of its first label (`Science/Chemistry/...` → `science.test`,
//! same path), so a topic's pages sit on one host and most links cross
//! hosts; a seeded share of the pages is not written at all (its label is
//! kept, so every link to it is a dead link, answered 404 when replayed).
//! Links to the corpus's pages are rewritten to the pages' new URLs
//! (absolute when the page moved to another host, a path when it stayed on
//! the citing page's); every other link is left as it was. The text and
//! the links are the corpus's own: only where the pages are served from,
//! and which of them are there, is made up.

use std::collections::{BTreeSet, HashMap};
use std::io::Write as _;
use std::path::Path;

use url::Url;

use crate::rng::{hash3, unit};
use crate::site::{io, Site};
use crate::static_site::{file_of, map_hrefs, write_page, StaticSite};
use crate::WebsimError;

/// Salt of the seeded choice of the pages left out.
const DEAD_PAGE_SALT: u64 = 0x5EAD_5EED;

/// How [`write_spread_folder`] spreads a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Share of the pages left out (their links dead), in percent.
    pub dead_pages_percent: u8,
    /// Seed of which pages are left out.
    pub seed: u64,
}

/// The host a page with first-level topic `top` moves to.
fn host_of_topic(top: &str) -> String {
    let slug: String = top
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{}.test", slug.trim_matches('-'))
}

/// Writes `site`'s labelled pages under `dir` spread over hosts by topic as
/// the module doc says, with each new host's `robots.txt` (the old host's)
/// and `labels.tsv` (every label, under the page's new URL, left out pages
/// included). Pages without a label are not written. `site` must be one
/// host (pages keep their paths, so two hosts' pages could meet on one
/// path).
pub fn write_spread_folder(
    site: &(impl Site + ?Sized),
    dir: &Path,
    spread: Spread,
) -> Result<StaticSite, WebsimError> {
    if site.host_count() != 1 {
        return Err(WebsimError::Invalid(format!(
            "spreading a web over topic hosts needs a one-site corpus, and this one has {} hosts",
            site.host_count()
        )));
    }
    let taxonomy = site.taxonomy();
    // Old URL → new URL, and the pages to write with their old URLs parsed.
    let mut moved: HashMap<String, Url> = HashMap::new();
    let mut hosts: BTreeSet<String> = BTreeSet::new();
    let mut pages = Vec::new();
    for pid in 0..site.page_count() {
        let Some(old) = site.page_url(pid) else {
            continue;
        };
        let topics = site.truth_topics(&old);
        let (Some(first), Ok(base)) = (topics.first(), Url::parse(&old)) else {
            continue;
        };
        let path = taxonomy.path(*first);
        let host = host_of_topic(path.split('/').next().unwrap_or(path));
        let mut new = base.clone();
        if new.set_host(Some(&host)).is_err() {
            continue;
        }
        hosts.insert(host);
        moved.insert(old, new.clone());
        pages.push((pid, base, new, topics));
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let labels = dir.join("labels.tsv");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&labels).map_err(io(&labels))?);
    let mut written = 0;
    for (pid, base, new, topics) in &pages {
        for t in topics {
            writeln!(out, "{new}\t{}", taxonomy.path(*t)).map_err(io(&labels))?;
        }
        let left_out = unit(hash3(spread.seed, DEAD_PAGE_SALT, u64::from(*pid), 0))
            < f64::from(spread.dead_pages_percent) / 100.0;
        if left_out {
            continue;
        }
        let (Some(html), Some(host)) = (site.page_html(*pid), new.host_str()) else {
            continue;
        };
        let html = relink(&html, base, host, &moved);
        write_page(
            &file_of(dir, host, new.path().trim_start_matches('/')),
            &html,
        )?;
        written += 1;
    }
    out.flush().map_err(io(&labels))?;
    // The one old host's robots.txt, for every new host.
    let old_host = pages.first().and_then(|(_, base, _, _)| base.host_str());
    let robots = old_host.map(|h| site.render(h, "/robots.txt"));
    if let Some(robots) = robots.filter(|r| r.status == 200) {
        for host in &hosts {
            let folder = dir.join(host);
            std::fs::create_dir_all(&folder).map_err(io(&folder))?;
            let file = folder.join("robots.txt");
            std::fs::write(&file, &robots.body).map_err(io(&file))?;
        }
    }
    Ok(StaticSite {
        pages: written,
        hosts: hosts.len() as u32,
    })
}

/// `html` of a page at `base`, now on `host`, with each `href` to a moved
/// page pointing at its new URL: a path when it is on `host` too, else
/// absolute. Other links are left as they are.
fn relink(html: &str, base: &Url, host: &str, moved: &HashMap<String, Url>) -> String {
    map_hrefs(html, |target| {
        let new = base.join(target).ok().and_then(|mut u| {
            u.set_fragment(None);
            moved.get(u.as_str())
        });
        match new {
            Some(u) if u.host_str() == Some(host) => u.path().to_owned(),
            Some(u) => u.as_str().to_owned(),
            None => target.to_owned(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Corpus, Web, WebConfig};

    #[test]
    fn hosts_are_named_after_first_level_topics() {
        assert_eq!(host_of_topic("Science"), "science.test");
        assert_eq!(
            host_of_topic("Design_and_Technology"),
            "design-and-technology.test"
        );
    }

    #[test]
    fn links_to_moved_pages_follow_them() {
        let base = Url::parse("http://old.test/wiki/A").unwrap();
        let moved: HashMap<String, Url> = [
            ("http://old.test/wiki/B", "http://science.test/wiki/B"),
            ("http://old.test/wiki/C", "http://art.test/wiki/C"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), Url::parse(b).unwrap()))
        .collect();
        let html = r#"<a href="/wiki/B">b</a> <a href="C#x">c</a> <a href="/about.html">s</a>"#;
        assert_eq!(
            relink(html, &base, "science.test", &moved),
            r#"<a href="/wiki/B">b</a> <a href="http://art.test/wiki/C">c</a> <a href="/about.html">s</a>"#
        );
    }

    /// A one-host labelled folder: pages 0-11 of `one.test`, topics
    /// `A/x`, `A/y` and `B/z` in turn, each linking the next three.
    fn one_site(dir: &Path) {
        use std::fmt::Write as _;
        let mut labels = String::new();
        for i in 0..12 {
            let topic = ["A/x", "A/y", "B/z"][i % 3];
            writeln!(labels, "http://one.test/p/{i}.html\t{topic}").unwrap();
            let mut links = String::new();
            for d in 1..=3 {
                write!(links, r#"<a href="/p/{}.html">next</a> "#, (i + d) % 12).unwrap();
            }
            let html = format!(
                r#"<html><head><title>page {i}</title></head><body><a href="/">home</a> <p>words of page {i} about {topic}</p> {links}</body></html>"#
            );
            write_page(&dir.join("one.test/p").join(format!("{i}.html")), &html).unwrap();
        }
        std::fs::write(
            dir.join("one.test/robots.txt"),
            "User-agent: *\nDisallow: /private/\n",
        )
        .unwrap();
        std::fs::write(dir.join("labels.tsv"), labels).unwrap();
    }

    #[test]
    fn a_spread_corpus_replays_on_topic_hosts_with_its_left_out_pages_dead() {
        let src = tempfile::tempdir().unwrap();
        one_site(src.path());
        let site = Corpus::load(src.path()).unwrap();
        assert_eq!(site.host_count(), 1);
        let dir = tempfile::tempdir().unwrap();
        let spread = Spread {
            dead_pages_percent: 25,
            seed: 3,
        };
        let written = write_spread_folder(&site, dir.path(), spread).unwrap();
        assert_eq!(written.hosts, 2, "a.test and b.test");
        assert!(
            (5..12).contains(&written.pages),
            "{} of 12 written",
            written.pages
        );
        let corpus = Corpus::load(dir.path()).unwrap();
        assert_eq!(corpus.page_count(), written.pages);
        assert_eq!(corpus.host_count(), 2);
        let host_of = |i: usize| if i % 3 == 2 { "b.test" } else { "a.test" };
        let url_of = |i: usize| format!("http://{}/p/{i}.html", host_of(i));
        // Every label is kept under the page's new URL, left out or not.
        let labels = std::fs::read_to_string(dir.path().join("labels.tsv")).unwrap();
        assert_eq!(labels.lines().count(), 12);
        for i in 0..12 {
            let url = url_of(i);
            assert!(labels.contains(&format!("{url}\t")), "{url}");
            let served = corpus.render(host_of(i), &format!("/p/{i}.html")).status;
            // Written pages are served; left-out ones are dead links.
            assert_eq!(served == 200, corpus.page_id(&url).is_some(), "{url}");
        }
        // Every link between written pages follows them, across hosts too.
        let mut followed = 0;
        for i in 0..12 {
            let Some(from) = corpus.page_id(&url_of(i)) else {
                continue;
            };
            for d in 1..=3 {
                if let Some(to) = corpus.page_id(&url_of((i + d) % 12)) {
                    assert!(
                        corpus.out_links(from).contains(&to),
                        "{i} → {}",
                        (i + d) % 12
                    );
                    followed += 1;
                }
            }
        }
        assert!(followed > 5, "{followed} links between written pages");
        assert_eq!(
            corpus.render("b.test", "/robots.txt").body.as_ref(),
            b"User-agent: *\nDisallow: /private/\n"
        );
    }

    #[test]
    fn a_web_of_many_hosts_is_refused() {
        let web = Web::new(WebConfig::small().with_pages(500), 5).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let spread = Spread {
            dead_pages_percent: 0,
            seed: 1,
        };
        assert!(write_spread_folder(&web, dir.path(), spread).is_err());
    }
}
