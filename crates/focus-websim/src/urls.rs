//! URLs of regular pages: `/`, `/<slug>-<k>/` for sections,
//! `<dir><slug>-<local>.html` for leaves and `<dir>~<slug>-<local>/` for
//! institution person pages. Slugs are topic-neutral background words, so a
//! URL says nothing about the ground truth. Parsing recomputes the expected
//! path and accepts only an exact match.

use crate::hosts::{Host, Node};
use crate::rng::hash3;
use crate::topics::Topics;

pub(crate) fn slug<'a>(topics: &'a Topics, seed: u64, host: &Host, local: u32) -> &'a str {
    // Skip the function-word head: slugs are content-free pseudo-words.
    let head = crate::vocab::FUNCTION_WORDS.len();
    let span = topics.background.len().saturating_sub(head).max(1);
    let h = hash3(seed, u64::from(host.first), u64::from(local), 0x51u64);
    let k = head + (h % span as u64) as usize;
    topics.word(topics.background[k.min(topics.background.len() - 1)])
}

/// The path of page `local` of `host`.
pub(crate) fn page_path(topics: &Topics, seed: u64, host: &Host, local: u32) -> String {
    match host.node(local) {
        Node::Home => "/".to_string(),
        Node::Section(k) => format!("/{}-{k}/", slug(topics, seed, host, local)),
        Node::Leaf(l) => {
            let parent = host.parent_of(l);
            let dir = if parent == 0 {
                "/".to_string()
            } else {
                page_path(topics, seed, host, parent)
            };
            if host.is_person(l) {
                format!("{dir}~{}-{l}/", slug(topics, seed, host, l))
            } else {
                format!("{dir}{}-{l}.html", slug(topics, seed, host, l))
            }
        }
    }
}

/// The local index of the page at `path` (query already removed), if any.
pub(crate) fn parse_path(topics: &Topics, seed: u64, host: &Host, path: &str) -> Option<u32> {
    if path == "/" || path.is_empty() || path == "/index.html" {
        return Some(0);
    }
    let trimmed = path.strip_suffix('/').unwrap_or(path);
    let last = trimmed.rsplit('/').next()?;
    let last = last.strip_suffix(".html").unwrap_or(last);
    let num = last.rsplit('-').next()?;
    let local: u32 = num.parse().ok()?;
    if local >= host.len {
        return None;
    }
    (page_path(topics, seed, host, local) == path).then_some(local)
}

/// Split `http://host[:port]/path?query` into lower-case host and path+query.
pub(crate) fn split_url(url: &str) -> Option<(String, &str)> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    let (authority, pq) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let host = authority.rsplit('@').next()?;
    let host = match host.rfind(':') {
        Some(i) if host[i + 1..].chars().all(|c| c.is_ascii_digit()) => &host[..i],
        _ => host,
    };
    let pq = pq.split('#').next().unwrap_or("/");
    let pq = if pq.is_empty() || pq.starts_with('?') {
        "/"
    } else {
        pq
    };
    Some((host.to_ascii_lowercase(), pq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_url_handles_ports_queries_fragments() {
        assert_eq!(
            split_url("http://Www.A.com:8080/x?y=1#f"),
            Some(("www.a.com".into(), "/x?y=1"))
        );
        assert_eq!(split_url("http://a.com"), Some(("a.com".into(), "/")));
        assert_eq!(split_url("ftp://a.com/"), None);
    }
}
