//! Stable 64-bit ids for pages, and the host/domain keys politeness uses.
//!
//! Ids are XXH3-64 of the canonical spelling, so they are stable across runs,
//! machines and crate versions (the store persists them).

use std::fmt;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

/// A page's 64-bit id: the hash of its canonical URL.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PageId(pub u64);

impl PageId {
    /// The id of a canonical URL string (callers normally use
    /// [`crate::CanonicalUrl::page_id`]).
    pub fn of_canonical(canonical: &str) -> Self {
        Self(xxh3_64(canonical.as_bytes()))
    }
}

impl fmt::Debug for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PageId({:016x})", self.0)
    }
}

impl fmt::Display for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// The unit of per-host politeness: host name plus a non-default port.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HostKey(String);

impl HostKey {
    /// Key for `host` with an explicit non-default `port`, if any.
    pub fn new(host: &str, port: Option<u16>) -> Self {
        match port {
            Some(p) => Self(format!("{}:{p}", host.to_ascii_lowercase())),
            None => Self(host.to_ascii_lowercase()),
        }
    }

    /// The key of an absolute URL's host (`None` when `url` does not parse
    /// or has no host). The same key as [`crate::CanonicalUrl::host_key`]
    /// gives for the URL's canonical form; cheaper where URLs are stored
    /// canonical already.
    ///
    /// ```
    /// use focus_core::HostKey;
    /// assert_eq!(HostKey::of_url("http://WWW.A.com:8080/x").unwrap().as_str(), "www.a.com:8080");
    /// assert_eq!(HostKey::of_url("https://a.com:443/").unwrap().as_str(), "a.com");
    /// assert!(HostKey::of_url("not a url").is_none());
    /// ```
    pub fn of_url(url: &str) -> Option<Self> {
        let u = url::Url::parse(url).ok()?;
        Some(Self::new(u.host_str()?, u.port()))
    }

    /// The key as text (`host` or `host:port`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A stable 64-bit id of the host, for compact graphs.
    pub fn id(&self) -> u64 {
        xxh3_64(self.0.as_bytes())
    }
}

impl fmt::Debug for HostKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HostKey({})", self.0)
    }
}

impl fmt::Display for HostKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The registered domain of a host ("example.co.uk" for "www.a.example.co.uk"),
/// from the public-suffix list; an IP address or a bare suffix is its own key.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DomainKey(String);

impl DomainKey {
    /// The registered domain of `host`.
    pub fn of_host(host: &str) -> Self {
        let host = host.to_ascii_lowercase();
        let is_ip = host.starts_with('[') || host.parse::<std::net::Ipv4Addr>().is_ok();
        if is_ip {
            return Self(host);
        }
        match psl::domain_str(&host) {
            Some(d) => Self(d.to_owned()),
            None => Self(host),
        }
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for DomainKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DomainKey({})", self.0)
    }
}

impl fmt::Display for DomainKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_domains_follow_the_public_suffix_list() {
        assert_eq!(
            DomainKey::of_host("www.a.example.co.uk").as_str(),
            "example.co.uk"
        );
        assert_eq!(
            DomainKey::of_host("WWW.Example.com").as_str(),
            "example.com"
        );
        assert_eq!(
            DomainKey::of_host("foo.github.io").as_str(),
            "foo.github.io"
        );
        assert_eq!(DomainKey::of_host("127.0.0.1").as_str(), "127.0.0.1");
        assert_eq!(
            DomainKey::of_host("shop.topic-12.sim").as_str(),
            "topic-12.sim"
        );
    }

    #[test]
    fn host_keys_carry_non_default_ports() {
        assert_eq!(HostKey::new("A.com", None).as_str(), "a.com");
        assert_eq!(HostKey::new("a.com", Some(8080)).as_str(), "a.com:8080");
        assert_ne!(
            HostKey::new("a.com", None).id(),
            HostKey::new("b.com", None).id()
        );
    }

    #[test]
    fn page_ids_are_stable_across_releases() {
        // Persisted in stores: this value must never change.
        assert_eq!(
            PageId::of_canonical("http://example.com/").0,
            xxh3_64(b"http://example.com/")
        );
    }
}
