//! URL canonicalisation: one spelling per page, so one page gets one id.
//!
//! Rules, applied by [`Canonicalizer::canonicalize`]:
//! - only `http` and `https` are accepted;
//! - scheme and host are lower-cased, international hosts are IDNA-encoded
//!   (punycode), the default port and the fragment are removed;
//! - dot segments (`.`, `..`) are resolved and an empty path becomes `/`;
//! - percent-encoding is normalised: escapes of unreserved characters
//!   (`A-Z a-z 0-9 - . _ ~`) are decoded, other escapes get upper-case hex;
//! - configured query parameters (session ids by default) and `;jsessionid=`
//!   style path parameters are removed; an empty query loses its `?`;
//! - the URL may be at most [`MAX_URL_BYTES`] and its host [`MAX_HOST_BYTES`].
//!
//! The result is a fixed point: canonicalising a canonical URL returns it
//! unchanged (a property test holds the crate to that).

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::ids::{DomainKey, HostKey, PageId};

/// Longest canonical URL accepted, in bytes.
pub const MAX_URL_BYTES: usize = 1000;
/// Longest host name accepted, in bytes (after IDNA encoding).
pub const MAX_HOST_BYTES: usize = 255;

/// Why a string is not a crawlable URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// The string does not parse as an absolute URL (or relative to its base).
    #[error("not a valid URL: {0}")]
    Parse(String),
    /// The scheme is not `http` or `https`.
    #[error("unsupported scheme `{0}` (only http and https are crawled)")]
    UnsupportedScheme(String),
    /// The URL has no host.
    #[error("URL has no host")]
    NoHost,
    /// The canonical URL is longer than [`MAX_URL_BYTES`].
    #[error("URL is {0} bytes long, the limit is {MAX_URL_BYTES}")]
    UrlTooLong(usize),
    /// The host is longer than [`MAX_HOST_BYTES`].
    #[error("host is {0} bytes long, the limit is {MAX_HOST_BYTES}")]
    HostTooLong(usize),
}

/// Session-id style query parameters removed by default.
const DEFAULT_STRIPPED_PARAMS: &[&str] = &[
    "sid",
    "sessionid",
    "session_id",
    "phpsessid",
    "jsessionid",
    "aspsessionid",
    "cfid",
    "cftoken",
];

/// Turns URL strings into [`CanonicalUrl`]s under one configuration.
#[derive(Debug, Clone)]
pub struct Canonicalizer {
    /// Lower-cased names of query parameters to drop.
    stripped_params: Vec<String>,
}

impl Default for Canonicalizer {
    fn default() -> Self {
        Self::new(DEFAULT_STRIPPED_PARAMS.iter().copied())
    }
}

impl Canonicalizer {
    /// A canonicaliser that removes the given query parameters (matched
    /// case-insensitively) in addition to nothing else.
    pub fn new<I, S>(stripped_params: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Self {
            stripped_params: stripped_params
                .into_iter()
                .map(|s| s.as_ref().to_ascii_lowercase())
                .collect(),
        }
    }

    /// Canonicalises an absolute URL.
    pub fn canonicalize(&self, input: &str) -> Result<CanonicalUrl, CanonError> {
        let url = Url::parse(input.trim()).map_err(|e| CanonError::Parse(e.to_string()))?;
        self.finish(url)
    }

    /// Resolves `href` against `base` (as a link in a page does) and
    /// canonicalises the result.
    pub fn join(&self, base: &CanonicalUrl, href: &str) -> Result<CanonicalUrl, CanonError> {
        let url = base
            .url
            .join(href.trim())
            .map_err(|e| CanonError::Parse(e.to_string()))?;
        self.finish(url)
    }

    fn finish(&self, mut url: Url) -> Result<CanonicalUrl, CanonError> {
        // Normalising escapes can expose new dot segments (`%2E%2E`), so the
        // steps run until the string stops changing; two rounds suffice in
        // practice and the bound keeps hostile input cheap. Most links are
        // already canonical once parsed (a round would leave them as they
        // are), and a crawl resolves tens of them per page: they skip the
        // rounds and their two re-serialisations.
        for _ in 0..4 {
            if unchanged_by_a_round(&url) {
                break;
            }
            let before = url.as_str().to_owned();
            url = self.one_round(url)?;
            if url.as_str() == before {
                break;
            }
        }
        let len = url.as_str().len();
        if len > MAX_URL_BYTES {
            return Err(CanonError::UrlTooLong(len));
        }
        Ok(CanonicalUrl { url })
    }

    fn one_round(&self, mut url: Url) -> Result<Url, CanonError> {
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(CanonError::UnsupportedScheme(other.to_owned())),
        }
        let host = url.host_str().ok_or(CanonError::NoHost)?;
        if host.is_empty() {
            return Err(CanonError::NoHost);
        }
        if host.len() > MAX_HOST_BYTES {
            return Err(CanonError::HostTooLong(host.len()));
        }
        if host.ends_with('.') && host.len() > 1 {
            let trimmed = host.trim_end_matches('.').to_owned();
            if trimmed.is_empty() {
                return Err(CanonError::NoHost);
            }
            url.set_host(Some(&trimmed))
                .map_err(|e| CanonError::Parse(e.to_string()))?;
        }
        url.set_fragment(None);
        // Credentials never belong to a page's identity.
        let _ = url.set_username("");
        let _ = url.set_password(None);

        let path = strip_path_session(&normalize_escapes(url.path()));
        url.set_path(&path);

        let query = url.query().map(|q| self.normalize_query(q));
        match query {
            Some(q) if !q.is_empty() => url.set_query(Some(&q)),
            _ => url.set_query(None),
        }
        // Re-parse so dot segments exposed by decoding are resolved exactly as
        // the URL standard resolves them.
        Url::parse(url.as_str()).map_err(|e| CanonError::Parse(e.to_string()))
    }

    fn normalize_query(&self, query: &str) -> String {
        query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .filter(|pair| {
                let name = pair.split('=').next().unwrap_or_default();
                let name = normalize_escapes(name).to_ascii_lowercase();
                !self.stripped_params.contains(&name)
            })
            .map(normalize_escapes)
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// Removes `;jsessionid=...` style parameters from path segments.
/// True when [`Canonicalizer::one_round`] would return `url` as it is: an
/// http(s) URL with a valid host not ending in a dot, no fragment, no
/// credentials, no query, and a path without escapes (`%`) or parameters
/// (`;`), which are what the round rewrites. Its re-parse of an unchanged
/// serialisation gives the same URL.
fn unchanged_by_a_round(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
        && url
            .host_str()
            .is_some_and(|h| !h.is_empty() && h.len() <= MAX_HOST_BYTES && !h.ends_with('.'))
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none()
        && url.query().is_none()
        && !url.path().contains(['%', ';'])
}

fn strip_path_session(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.find(';') {
            Some(at) => {
                let params = segment[at..].to_ascii_lowercase();
                if params.contains("jsessionid=") || params.contains("sid=") {
                    &segment[..at]
                } else {
                    segment
                }
            }
            None => segment,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Decodes escapes of unreserved characters and upper-cases the hex digits of
/// the others. Malformed escapes (`%zz`, a trailing `%`) become `%25...` so
/// that the output is a valid, stable spelling.
fn normalize_escapes(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| {
                let h = std::str::from_utf8(h).ok()?;
                u8::from_str_radix(h, 16).ok()
            });
            match hex {
                Some(v) if is_unreserved(v) => {
                    out.push(v as char);
                    i += 3;
                }
                Some(v) => {
                    let _ = write!(out, "%{v:02X}");
                    i += 3;
                }
                None => {
                    out.push_str("%25");
                    i += 1;
                }
            }
        } else {
            // Copy the whole UTF-8 character starting here.
            let ch_len = utf8_len(b);
            let end = (i + ch_len).min(bytes.len());
            out.push_str(&s[i..end]);
            i = end;
        }
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// A URL in canonical form; the only way to get one is through a
/// [`Canonicalizer`] (or deserialising one that was produced by it).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CanonicalUrl {
    url: Url,
}

impl CanonicalUrl {
    /// The canonical spelling.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The parsed URL.
    pub fn as_url(&self) -> &Url {
        &self.url
    }

    /// The 64-bit id of this page.
    pub fn page_id(&self) -> PageId {
        PageId::of_canonical(self.as_str())
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> &str {
        self.url.scheme()
    }

    /// The host (lower-case, IDNA-encoded); canonical URLs always have one.
    pub fn host(&self) -> &str {
        self.url.host_str().unwrap_or_default()
    }

    /// The port, explicit or the scheme's default.
    pub fn port(&self) -> u16 {
        self.url.port_or_known_default().unwrap_or(80)
    }

    /// Path and query, as sent in an HTTP request line.
    pub fn path_and_query(&self) -> String {
        match self.url.query() {
            Some(q) => format!("{}?{q}", self.url.path()),
            None => self.url.path().to_owned(),
        }
    }

    /// The politeness unit: host and non-default port.
    pub fn host_key(&self) -> HostKey {
        HostKey::new(self.host(), self.url.port())
    }

    /// The registered domain (public-suffix aware), for per-domain limits.
    pub fn domain_key(&self) -> DomainKey {
        DomainKey::of_host(self.host())
    }
}

impl fmt::Display for CanonicalUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for CanonicalUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CanonicalUrl({})", self.as_str())
    }
}

impl TryFrom<String> for CanonicalUrl {
    type Error = CanonError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Canonicalizer::default().canonicalize(&s)
    }
}

impl From<CanonicalUrl> for String {
    fn from(c: CanonicalUrl) -> Self {
        c.url.into()
    }
}

impl std::str::FromStr for CanonicalUrl {
    type Err = CanonError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Canonicalizer::default().canonicalize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Canonicalizer::default()
            .canonicalize(s)
            .unwrap()
            .to_string()
    }

    #[test]
    fn lowercases_scheme_and_host_and_drops_default_port_and_fragment() {
        assert_eq!(
            canon("HTTP://Example.COM:80/a/b#frag"),
            "http://example.com/a/b"
        );
        assert_eq!(canon("https://example.com:443"), "https://example.com/");
        assert_eq!(
            canon("http://example.com:8080/x"),
            "http://example.com:8080/x"
        );
    }

    #[test]
    fn resolves_dot_segments_including_encoded_ones() {
        assert_eq!(canon("http://a.com/x/./y/../z"), "http://a.com/x/z");
        assert_eq!(canon("http://a.com/x/%2E%2E/z"), "http://a.com/z");
    }

    #[test]
    fn normalises_percent_encoding() {
        assert_eq!(canon("http://a.com/%7Euser/%41b"), "http://a.com/~user/Ab");
        assert_eq!(canon("http://a.com/a%2fb"), "http://a.com/a%2Fb");
        assert_eq!(canon("http://a.com/a%zz"), "http://a.com/a%25zz");
    }

    #[test]
    fn idna_hosts_become_punycode() {
        assert_eq!(
            canon("http://Bücher.example/"),
            "http://xn--bcher-kva.example/"
        );
    }

    #[test]
    fn strips_session_parameters() {
        assert_eq!(
            canon("http://a.com/p?id=3&PHPSESSID=abc&x=1"),
            "http://a.com/p?id=3&x=1"
        );
        assert_eq!(canon("http://a.com/p?sid=9"), "http://a.com/p");
        assert_eq!(
            canon("http://a.com/p;jsessionid=XYZ?q=1"),
            "http://a.com/p?q=1"
        );
        let keep = Canonicalizer::new(["token"]);
        assert_eq!(
            keep.canonicalize("http://a.com/?sid=1&token=2")
                .unwrap()
                .as_str(),
            "http://a.com/?sid=1"
        );
    }

    #[test]
    fn rejects_bad_urls_with_typed_errors() {
        let c = Canonicalizer::default();
        assert!(matches!(
            c.canonicalize("ftp://a.com/"),
            Err(CanonError::UnsupportedScheme(_))
        ));
        assert!(matches!(
            c.canonicalize("not a url"),
            Err(CanonError::Parse(_))
        ));
        let long = format!("http://a.com/{}", "x".repeat(1000));
        assert!(matches!(
            c.canonicalize(&long),
            Err(CanonError::UrlTooLong(_))
        ));
        let host = format!("http://{}.com/", "a".repeat(300));
        assert!(c.canonicalize(&host).is_err());
    }

    #[test]
    fn join_resolves_relative_links() {
        let c = Canonicalizer::default();
        let base = c.canonicalize("http://a.com/dir/page.html").unwrap();
        assert_eq!(
            c.join(&base, "../x.html#top").unwrap().as_str(),
            "http://a.com/x.html"
        );
        assert_eq!(c.join(&base, "//B.com").unwrap().as_str(), "http://b.com/");
        assert!(c.join(&base, "mailto:x@y.z").is_err());
    }

    #[test]
    fn equivalent_spellings_share_a_page_id() {
        let c = Canonicalizer::default();
        let a = c
            .canonicalize("http://EXAMPLE.com:80/a/./b/%7Ex#f")
            .unwrap();
        let b = c.canonicalize("http://example.com/a/b/~x").unwrap();
        assert_eq!(a.page_id(), b.page_id());
        assert_ne!(
            a.page_id(),
            c.canonicalize("http://example.com/a/b/y")
                .unwrap()
                .page_id()
        );
    }

    #[test]
    fn a_url_that_skips_the_rounds_is_one_a_round_leaves_as_it_is() {
        let c = Canonicalizer::default();
        let (mut skipped, mut rounded) = (0, 0);
        for s in [
            "http://a.com/",
            "https://b.org/dir/page.html",
            "http://c.net:8080/x/y/",
            "http://xn--bcher-kva.de/b%C3%BCcher",
            "http://a.com/a;jsessionid=1/b",
            "http://a.com/a;v=2",
            "http://a.com/?",
            "http://a.com/x?b=2&a=1&utm_source=z",
            "http://u:p@a.com/x",
            "http://a.com/x#top",
            "http://a.com./x",
            "http://a.com/%7Ex/%2e%2E/y",
            "ftp://a.com/x",
        ] {
            let Ok(url) = Url::parse(s) else { continue };
            if unchanged_by_a_round(&url) {
                skipped += 1;
                let round = c.one_round(url.clone()).unwrap();
                assert_eq!(round.as_str(), url.as_str(), "{s}");
            } else {
                rounded += 1;
            }
        }
        // The first three, and the fourth once parsing has resolved its
        // encoded dot segment (`/y`).
        assert_eq!((skipped, rounded), (4, 9));
        // What the rounds rewrite still is: a link resolved to one of the
        // skipped forms and one that is not agree with their canonical form.
        let base = c.canonicalize("http://a.com/dir/").unwrap();
        assert_eq!(
            c.join(&base, "x.html").unwrap().as_str(),
            "http://a.com/dir/x.html"
        );
        assert_eq!(
            c.join(&base, "%7Ex#f").unwrap().as_str(),
            "http://a.com/dir/~x"
        );
    }

    #[test]
    fn serde_round_trip() {
        let c = Canonicalizer::default()
            .canonicalize("http://a.com/x")
            .unwrap();
        let s: String = c.clone().into();
        assert_eq!(CanonicalUrl::try_from(s).unwrap(), c);
    }
}
