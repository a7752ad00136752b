//! How the files of a `wget --mirror` folder are answered: the URL paths a
//! saved file answers at (its own, with a `?` in its name starting the
//! query; its folder's for an `index.html`; without the `.html` that
//! `--adjust-extension` added) and the content type it is served with
//! (its extension's, else sniffed from its first bytes).

use std::path::Path;

/// The content type a file is served with: by its extension when that
/// names a type, else (no extension, or a server-side one that `wget
/// --mirror` keeps: `page.php`, `page.php?id=3`, `view.asp`) by its first
/// bytes, as a browser sniffs an unlabelled answer. HTML is served without
/// a charset: the page's own `<meta charset>`, byte-order mark or bytes
/// tell the crawler, as most servers leave it to them.
pub(super) fn content_type(file: &Path, bytes: &[u8]) -> &'static str {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" | "shtml" => "text/html",
        "xhtml" => "application/xhtml+xml",
        "txt" => "text/plain",
        "xml" => "application/xml",
        "css" => "text/css",
        "js" => "text/javascript",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "zip" => "application/zip",
        _ if looks_like_html(bytes) => "text/html",
        _ => "application/octet-stream",
    }
}

/// Whether `bytes` open like an HTML document: after a byte-order mark and
/// white space, one of the tags the WHATWG MIME sniffing standard takes for
/// HTML (`<!DOCTYPE HTML`, `<html`, `<head`, `<body`, `<title`, `<p`, ...,
/// `<!--`), in any case.
fn looks_like_html(bytes: &[u8]) -> bool {
    const TAGS: [&[u8]; 16] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
    ];
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
        .unwrap_or(bytes.len());
    let head = &bytes[start..];
    if head.starts_with(b"<!--") {
        return true;
    }
    TAGS.iter().any(|tag| {
        head.len() > tag.len()
            && head[..tag.len()].eq_ignore_ascii_case(tag)
            && matches!(head[tag.len()], b' ' | b'>')
    })
}

/// The URL path (and query) a file saved at `saved` (its path under the
/// host folder) is served at, as `wget --mirror` names files: a `?` in the
/// name starts the query (`page.php?id=3`), and `index.html` also answers
/// for its folder.
pub(super) fn served_path(saved: &str) -> String {
    let (path, query) = match saved.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (saved, None),
    };
    match path.strip_suffix("/index.html") {
        Some(folder) => encoded(&format!("{folder}/"), query),
        None => encoded(path, query),
    }
}

/// A saved path and its query as they stand in a URL (escaped where a URL
/// cannot hold them as they are).
fn encoded(path: &str, query: Option<&str>) -> String {
    let path = percent_encoding::utf8_percent_encode(path, PATH_ESCAPES).to_string();
    match query {
        Some(q) => format!(
            "{path}?{}",
            percent_encoding::utf8_percent_encode(q, QUERY_ESCAPES)
        ),
        None => path,
    }
}

/// The other paths a file saved at `saved` answers at. `wget
/// --adjust-extension` adds `.html` to an HTML page whose URL lacks it
/// (`about` -> `about.html`, `page.php?id=3` -> `page.php?id=3.html`): the
/// page also answers without it. A folder's `index.html` also answers at
/// its own name, as a static server answers it, and `wget
/// --convert-links` points every link to the folder there.
pub(super) fn aliases(saved: &str) -> Vec<String> {
    if saved.ends_with("/index.html") {
        return vec![encoded(saved, None)];
    }
    saved
        .strip_suffix(".html")
        .filter(|rest| !rest.ends_with('/'))
        .map(|rest| vec![served_path(rest)])
        .unwrap_or_default()
}

/// Characters escaped in a served query (controls, space and the few that
/// cannot stand in one).
const QUERY_ESCAPES: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'#');

/// Characters escaped in a served path (controls, space and the few that
/// cannot stand in a URL path).
const PATH_ESCAPES: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'#')
    .add(b'?')
    .add(b'{')
    .add(b'}');

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_sniffed_by_its_opening_tag() {
        assert!(looks_like_html(b"\xef\xbb\xbf <!DOCTYPE HTML>"));
        assert!(looks_like_html(b"<HTML lang=en>"));
        assert!(looks_like_html(b"<!-- generated -->"));
        assert!(looks_like_html(b"\r\n<p>x"));
        assert!(!looks_like_html(b"<pre>"), "<p must end at a space or >");
        assert!(!looks_like_html(b"%PDF-1.4"));
        assert!(!looks_like_html(b"plain words"));
        assert!(!looks_like_html(b""));
    }
}
