//! Fetcher configuration and curl-style `--connect-to` rules.

use std::time::Duration;

/// Why a `--connect-to` value is not `HOST1:PORT1:HOST2:PORT2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid --connect-to `{value}`: {reason} (expected HOST1:PORT1:HOST2:PORT2)")]
pub struct ConnectToError {
    /// The value as given.
    pub value: String,
    /// What is wrong.
    pub reason: &'static str,
}

/// One curl-style override: connections for `HOST1:PORT1` go to
/// `HOST2:PORT2` while URLs (Host header, TLS name) keep the original host.
/// An empty `HOST1` or `PORT1` matches any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectTo {
    /// Host to match (`None` = any).
    pub from_host: Option<String>,
    /// Port to match (`None` = any).
    pub from_port: Option<u16>,
    /// Host (or IP) to connect to.
    pub to_host: String,
    /// Port to connect to.
    pub to_port: u16,
    /// Speak plain HTTP to the target even for an `https` URL, whose
    /// scheme (and so its identity) the URL keeps: for a server on this
    /// machine that terminates no TLS, such as the websim's replay of a
    /// mirror whose pages link with absolute `https://` URLs. Off in a
    /// parsed rule (curl's syntax has no such field).
    pub plain: bool,
}

impl ConnectTo {
    /// Parses `HOST1:PORT1:HOST2:PORT2`; IPv6 addresses go in brackets.
    pub fn parse(value: &str) -> Result<Self, ConnectToError> {
        let err = |reason| ConnectToError {
            value: value.to_owned(),
            reason,
        };
        let parts = split_fields(value).ok_or_else(|| err("unbalanced brackets"))?;
        let [h1, p1, h2, p2] = parts.as_slice() else {
            return Err(err("need four `:`-separated fields"));
        };
        let port = |p: &str| {
            p.parse::<u16>()
                .map_err(|_| err("port is not a number 0-65535"))
        };
        let to_host = h2.trim_start_matches('[').trim_end_matches(']').to_owned();
        if to_host.is_empty() {
            return Err(err("HOST2 is empty"));
        }
        Ok(Self {
            from_host: (!h1.is_empty()).then(|| {
                h1.trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_ascii_lowercase()
            }),
            from_port: if p1.is_empty() { None } else { Some(port(p1)?) },
            to_host,
            to_port: port(p2)?,
            plain: false,
        })
    }

    /// True when this rule applies to `host:port`.
    pub fn matches(&self, host: &str, port: u16) -> bool {
        self.from_host
            .as_deref()
            .is_none_or(|h| h.eq_ignore_ascii_case(host))
            && self.from_port.is_none_or(|p| p == port)
    }
}

/// Splits on `:` outside `[...]`.
fn split_fields(s: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then(|| {
        out.push(&s[start..]);
        out
    })
}

/// Everything the fetcher can be told.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// `User-Agent` header: names the project and a contact URL.
    pub user_agent: String,
    /// Product token matched against robots.txt `User-agent` lines.
    pub robots_agent: String,
    /// Connection overrides, first match wins.
    pub connect_to: Vec<ConnectTo>,
    /// Allow loopback, private, link-local and other non-public addresses
    /// outside `connect_to` (the SSRF guard is on by default).
    pub allow_private: bool,
    /// Extra trusted CA certificates, PEM.
    pub extra_ca_pem: Option<Vec<u8>>,
    /// Minimum time between two requests to one host.
    pub host_interval: Duration,
    /// Concurrent connections per host.
    pub per_host_connections: usize,
    /// How long an idle keep-alive connection is kept for the host's next
    /// URL. A crawl touches many hosts, and every idle connection holds
    /// its buffers (tens of KB), so the pool's memory is about fetch rate ×
    /// this: long enough to outlast a host's politeness interval, no
    /// longer.
    pub idle_connection_timeout: Duration,
    /// Concurrent connections per registered domain.
    pub per_domain_connections: usize,
    /// Redirects followed before giving up.
    pub max_redirects: usize,
    /// TCP (and TLS) connect timeout.
    pub connect_timeout: Duration,
    /// Time from sending the request to the response headers.
    pub first_byte_timeout: Duration,
    /// Time for the whole fetch, body included.
    pub total_timeout: Duration,
    /// Minimum transfer rate of a body, as curl's `--speed-limit`: a body
    /// that receives fewer than `min_rate_bytes_per_s × min_rate_window`
    /// bytes in any window of [`FetchConfig::min_rate_window`] is cut with
    /// `timeout_slow`, long before [`FetchConfig::total_timeout`]. 0 turns
    /// the check off.
    pub min_rate_bytes_per_s: u64,
    /// The window of the minimum transfer rate (curl's `--speed-time`).
    pub min_rate_window: Duration,
    /// Maximum decoded size of HTML and text bodies.
    pub max_html_bytes: usize,
    /// Maximum decoded size of other enabled types.
    pub max_other_bytes: usize,
    /// Non-HTML MIME types handed over as bytes (e.g. `application/pdf`);
    /// everything else that is not HTML or text is skipped from the headers.
    pub extra_types: Vec<String>,
    /// Extra attempts, inside one [`crate::Fetcher::fetch`], after a
    /// connection error or a timeout. 0 by default: a crawler retries
    /// through its frontier, after fresh URLs (see `FetchError::retry`).
    pub retries: u32,
    /// First retry delay; doubled on each further retry.
    pub retry_backoff: Duration,
    /// Host faults in a row (connections refused, names that do not
    /// resolve, TLS failures, and timeouts of *different* URLs; never a
    /// status code or a bad body) that set a host aside: its requests are
    /// refused with `host_bad` for [`FetchConfig::bad_host_backoff`], then
    /// one probe request is let through; an answer clears the host, a
    /// further fault doubles the wait. `None`: never set a host aside
    /// (a crawler that waits out failing hosts on its own clock).
    pub bad_after_failures: Option<u32>,
    /// How long a host set aside waits before its probe (doubled with each
    /// failed probe, up to 64 times).
    pub bad_host_backoff: Duration,
    /// The longest `Retry-After` honoured (a longer one is cut to this).
    pub max_retry_after: Duration,
    /// How long a fetched robots.txt stays valid.
    pub robots_ttl: Duration,
    /// After a 5xx or unreachable robots.txt, wait this long before asking again.
    pub robots_retry: Duration,
    /// Largest robots.txt read (RFC 9309 asks for at least 500 KiB).
    pub max_robots_bytes: usize,
}

impl Default for FetchConfig {
    fn default() -> Self {
        Self {
            user_agent: "focus-crawler/0.1 (+https://github.com/focus-crawler/focus)".to_owned(),
            robots_agent: "focus-crawler".to_owned(),
            connect_to: Vec::new(),
            allow_private: false,
            extra_ca_pem: None,
            host_interval: Duration::from_secs(1),
            per_host_connections: 2,
            idle_connection_timeout: Duration::from_secs(15),
            per_domain_connections: 5,
            max_redirects: 25,
            connect_timeout: Duration::from_secs(10),
            first_byte_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(60),
            min_rate_bytes_per_s: 4096,
            min_rate_window: Duration::from_secs(10),
            max_html_bytes: 5 * 1024 * 1024,
            max_other_bytes: 20 * 1024 * 1024,
            extra_types: Vec::new(),
            retries: 0,
            retry_backoff: Duration::from_millis(500),
            bad_after_failures: Some(3),
            bad_host_backoff: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(600),
            robots_ttl: Duration::from_secs(24 * 3600),
            robots_retry: Duration::from_secs(600),
            max_robots_bytes: 512 * 1024,
        }
    }
}

impl FetchConfig {
    /// For a web served on this machine (the websim): no politeness
    /// interval, short timeouts (a loopback page that takes a second is a
    /// slow host), backoffs and keep-alives, and the given overrides.
    pub fn loopback(connect_to: Vec<ConnectTo>) -> Self {
        Self {
            connect_to,
            host_interval: Duration::ZERO,
            idle_connection_timeout: Duration::from_secs(2),
            connect_timeout: Duration::from_secs(1),
            first_byte_timeout: Duration::from_secs(1),
            total_timeout: Duration::from_secs(2),
            min_rate_window: Duration::from_secs(1),
            retry_backoff: Duration::from_millis(20),
            bad_host_backoff: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(5),
            robots_retry: Duration::from_secs(2),
            ..Self::default()
        }
    }

    /// For a replay of real pages served on this machine (a labelled
    /// corpus): [`FetchConfig::loopback`] but with the real web's
    /// timeouts. A replay never delays a page on purpose, unlike the
    /// websim's slow and stalling hosts that `loopback`'s one-second
    /// timeouts are for, so a late page there is this machine's load, and
    /// a crawl of the replay should wait it out rather than spend an
    /// attempt on it: with one-second timeouts the same crawl of the same
    /// corpus differed between an idle and a busy machine.
    pub fn replay(connect_to: Vec<ConnectTo>) -> Self {
        let web = Self::default();
        Self {
            connect_timeout: web.connect_timeout,
            first_byte_timeout: web.first_byte_timeout,
            total_timeout: web.total_timeout,
            min_rate_window: web.min_rate_window,
            ..Self::loopback(connect_to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_waits_as_long_as_the_web_and_is_as_impolite_as_loopback() {
        let (web, fast, replay) = (
            FetchConfig::default(),
            FetchConfig::loopback(Vec::new()),
            FetchConfig::replay(Vec::new()),
        );
        assert_eq!(replay.first_byte_timeout, web.first_byte_timeout);
        assert_eq!(replay.total_timeout, web.total_timeout);
        assert_eq!(replay.connect_timeout, web.connect_timeout);
        assert_eq!(replay.min_rate_window, web.min_rate_window);
        assert!(replay.first_byte_timeout > fast.first_byte_timeout);
        assert_eq!(replay.host_interval, Duration::ZERO);
        assert_eq!(replay.retry_backoff, fast.retry_backoff);
        assert_eq!(replay.bad_host_backoff, fast.bad_host_backoff);
    }

    #[test]
    fn curl_syntax() {
        let any = ConnectTo::parse("::127.0.0.1:8080").unwrap();
        assert!(any.matches("www.x.test", 80) && any.matches("y", 443));
        assert_eq!((any.to_host.as_str(), any.to_port), ("127.0.0.1", 8080));
        let one = ConnectTo::parse("Example.com:443:[::1]:9443").unwrap();
        assert!(one.matches("example.com", 443));
        assert!(!one.matches("example.com", 80));
        assert_eq!(one.to_host, "::1");
        assert!(ConnectTo::parse("a:b:c:d").is_err());
        assert!(ConnectTo::parse("a:1:c").is_err());
        assert!(ConnectTo::parse("a:1::2").is_err());
        assert!(ConnectTo::parse("[a:1:c:2").is_err());
    }
}
