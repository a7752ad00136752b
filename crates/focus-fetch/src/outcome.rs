//! What a fetch returns: a [`Fetched`] page or a typed [`FetchError`].

use std::net::SocketAddr;
use std::time::Duration;

use focus_core::CanonicalUrl;
use serde::Serialize;

/// The result of one [`crate::Fetcher::fetch`].
pub type FetchOutcome = Result<Fetched, FetchError>;

/// A decoded response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// HTML or plain text, decoded to UTF-8.
    Text(String),
    /// Another enabled type (e.g. PDF), for an analyser to convert.
    Bytes(Vec<u8>),
}

/// Indexing directives from `X-Robots-Tag` (meta robots is the HTML
/// analyser's: merge the two with [`RobotsDirectives::merge`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RobotsDirectives {
    /// Do not index this page.
    pub noindex: bool,
    /// Do not follow this page's links.
    pub nofollow: bool,
}

impl RobotsDirectives {
    /// Parses a header or meta `content` value (`noindex, nofollow`, `none`).
    pub fn parse(value: &str) -> Self {
        let mut d = Self::default();
        for token in value.split([',', ' ']).map(str::trim) {
            // `X-Robots-Tag: googlebot: noindex` scopes to one agent; take the
            // directive after the colon for every agent (conservative).
            let token = token
                .rsplit(':')
                .next()
                .unwrap_or(token)
                .trim()
                .to_ascii_lowercase();
            match token.as_str() {
                "noindex" => d.noindex = true,
                "nofollow" => d.nofollow = true,
                "none" => {
                    d.noindex = true;
                    d.nofollow = true;
                }
                _ => {}
            }
        }
        d
    }

    /// Either source forbidding is enough.
    pub fn merge(self, other: Self) -> Self {
        Self {
            noindex: self.noindex || other.noindex,
            nofollow: self.nofollow || other.nofollow,
        }
    }
}

/// A successfully fetched page (final status 2xx).
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL asked for.
    pub url: CanonicalUrl,
    /// The URL the content came from, after redirects.
    pub final_url: CanonicalUrl,
    /// Every redirect target in order (empty without redirects).
    pub redirects: Vec<CanonicalUrl>,
    /// Final HTTP status.
    pub status: u16,
    /// The `Content-Type` media type, lower-case, without parameters.
    pub content_type: String,
    /// The decoded body.
    pub body: Body,
    /// Name of the charset the text was decoded from.
    pub charset: Option<&'static str>,
    /// `X-Robots-Tag` directives.
    pub robots: RobotsDirectives,
    /// Body bytes received on the wire (before content decoding).
    pub wire_bytes: u64,
    /// Body bytes after content decoding.
    pub decoded_bytes: u64,
    /// Remote address of the final response.
    pub remote_addr: Option<SocketAddr>,
    /// Wall time of the whole fetch, politeness waits included.
    pub elapsed: Duration,
}

/// Which deadline a fetch missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TimeoutPhase {
    /// TCP/TLS connect.
    Connect,
    /// Waiting for the response headers.
    FirstByte,
    /// Reading the body (the total budget).
    Total,
    /// Reading the body: it arrived slower than the minimum transfer rate
    /// for a whole window (`FetchConfig::min_rate_bytes_per_s`).
    Slow,
}

/// Whether a failed fetch is worth another attempt, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// The URL's answer will not change (404, a redirect loop, a body too
    /// large, a name that does not resolve, robots.txt said no).
    Never,
    /// A transient failure (5xx, a timeout, a refused or reset
    /// connection): try again later.
    Later,
    /// The server said when (429 or 503 with `Retry-After`): not before
    /// this long.
    After(Duration),
}

/// Why a fetch produced no page. Every variant is counted in
/// [`crate::FetchStats`] under [`FetchError::label`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FetchError {
    /// robots.txt disallows the URL.
    #[error("disallowed by robots.txt")]
    DisallowedByRobots,
    /// robots.txt answered 5xx or could not be fetched: the host is not
    /// crawled until `retry_after`.
    #[error("robots.txt unavailable; retry after {retry_after:?}")]
    RobotsUnavailable {
        /// How long to wait before asking again.
        retry_after: Duration,
    },
    /// The host was tagged bad after repeated failures.
    #[error("host tagged bad after repeated failures")]
    HostBad,
    /// A deadline passed.
    #[error("timed out ({0:?})")]
    Timeout(TimeoutPhase),
    /// The body is larger than its type's limit (declared or while streaming).
    #[error("body larger than {limit} bytes")]
    TooLarge {
        /// The limit that was hit.
        limit: usize,
    },
    /// A redirect led back to a URL of the chain.
    #[error("redirect loop at {0}")]
    RedirectLoop(String),
    /// More redirects than allowed.
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    /// A redirect without a usable `Location`.
    #[error("bad redirect: {0}")]
    BadRedirect(String),
    /// The final status is not 2xx.
    #[error("HTTP status {0}")]
    Status(u16),
    /// 429 Too Many Requests or 503 Service Unavailable with a
    /// `Retry-After` the fetcher could read (capped at
    /// `FetchConfig::max_retry_after`); the host is not asked again before.
    #[error("HTTP status {status}, retry after {after:?}")]
    RetryAfter {
        /// The status (429 or 503).
        status: u16,
        /// How long the server asked to wait.
        after: Duration,
    },
    /// The content type is neither HTML/text nor an enabled type.
    #[error("skipped content type `{0}`")]
    SkippedType(String),
    /// Could not connect (refused, reset, unreachable).
    #[error("connection failed: {0}")]
    Connect(String),
    /// The address is non-public and the SSRF guard is on.
    #[error("{0}")]
    Ssrf(String),
    /// The host name does not resolve.
    #[error("{0}")]
    Dns(String),
    /// TLS handshake or certificate failure.
    #[error("{0}")]
    Tls(String),
    /// The body could not be decoded (bad gzip, ...).
    #[error("content decoding failed: {0}")]
    Decode(String),
    /// The connection broke mid-response.
    #[error("protocol error: {0}")]
    Protocol(String),
}

/// [`FetchError::label`] of a URL robots.txt forbids (no request was sent):
/// the output contract's label.
pub use focus_core::contract::ROBOTS_DISALLOWED;

impl FetchError {
    /// A short stable label for statistics and `pages.jsonl`.
    pub fn label(&self) -> String {
        match self {
            Self::DisallowedByRobots => ROBOTS_DISALLOWED.into(),
            Self::RobotsUnavailable { .. } => "robots_unavailable".into(),
            Self::HostBad => "host_bad".into(),
            Self::Timeout(TimeoutPhase::Connect) => "timeout_connect".into(),
            Self::Timeout(TimeoutPhase::FirstByte) => "timeout_first_byte".into(),
            Self::Timeout(TimeoutPhase::Total) => "timeout_total".into(),
            Self::Timeout(TimeoutPhase::Slow) => "timeout_slow".into(),
            Self::TooLarge { .. } => "too_large".into(),
            Self::RedirectLoop(_) => "redirect_loop".into(),
            Self::TooManyRedirects(_) => "too_many_redirects".into(),
            Self::BadRedirect(_) => "bad_redirect".into(),
            Self::Status(s) | Self::RetryAfter { status: s, .. } => format!("status_{s}"),
            Self::SkippedType(_) => "skipped_type".into(),
            Self::Connect(_) => "connect_error".into(),
            Self::Ssrf(_) => "ssrf_refused".into(),
            Self::Dns(_) => "dns_error".into(),
            Self::Tls(_) => "tls_error".into(),
            Self::Decode(_) => "decode_error".into(),
            Self::Protocol(_) => "protocol_error".into(),
        }
    }

    /// The HTTP status, when the server answered with one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status(s) | Self::RetryAfter { status: s, .. } => Some(*s),
            _ => None,
        }
    }

    /// Failures of the host rather than of the URL: its name does not
    /// resolve, it refuses or never completes a connection or a TLS
    /// handshake, it times out, its robots.txt cannot be read, or the
    /// fetcher has given up on it. A status code, a body too large or of
    /// the wrong type, a redirect loop, a decoding error or a connection
    /// broken mid-answer is the URL's own fault: the host answered. (The
    /// fetcher counts a timeout against its host only when URLs other than
    /// the one that timed out time out too.)
    pub fn is_host_fault(&self) -> bool {
        matches!(
            self,
            Self::Dns(_)
                | Self::Connect(_)
                | Self::Tls(_)
                | Self::Timeout(_)
                | Self::HostBad
                | Self::RobotsUnavailable { .. }
        )
    }

    /// [`FetchError::is_host_fault`] of the error a [`FetchError::label`]
    /// names (as stored in `pages.jsonl` and the store).
    pub fn is_host_fault_label(label: &str) -> bool {
        matches!(
            label,
            "dns_error" | "connect_error" | "tls_error" | "host_bad" | "robots_unavailable"
        ) || Self::is_timeout_label(label)
    }

    /// Whether a [`FetchError::label`] names a timeout (a host fault only
    /// when URLs other than the one that timed out time out too).
    pub fn is_timeout_label(label: &str) -> bool {
        label.starts_with("timeout_")
    }

    /// Whether another attempt may succeed, and when: 5xx and 429
    /// statuses, timeouts, refused or broken connections, a host the
    /// fetcher has set aside and an unreadable robots.txt are transient;
    /// the rest is the URL's lasting answer.
    pub fn retry(&self) -> Retry {
        match self {
            Self::RetryAfter { after, .. } => Retry::After(*after),
            Self::RobotsUnavailable { retry_after } => Retry::After(*retry_after),
            Self::Timeout(_) | Self::Connect(_) | Self::Protocol(_) | Self::HostBad => Retry::Later,
            Self::Status(s) if *s >= 500 || *s == 429 => Retry::Later,
            _ => Retry::Never,
        }
    }

    /// A connection-level failure the fetcher itself retries (when
    /// `FetchConfig::retries` allows) and counts against the host.
    pub(crate) fn is_connection_failure(&self) -> bool {
        matches!(self, Self::Timeout(_) | Self::Connect(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_names_a_host_fault_when_its_error_is_one() {
        let errors = [
            FetchError::DisallowedByRobots,
            FetchError::RobotsUnavailable {
                retry_after: std::time::Duration::from_secs(1),
            },
            FetchError::HostBad,
            FetchError::Timeout(TimeoutPhase::Connect),
            FetchError::Timeout(TimeoutPhase::FirstByte),
            FetchError::Timeout(TimeoutPhase::Total),
            FetchError::Timeout(TimeoutPhase::Slow),
            FetchError::TooLarge { limit: 1 },
            FetchError::RedirectLoop("u".into()),
            FetchError::TooManyRedirects(3),
            FetchError::BadRedirect("u".into()),
            FetchError::Status(404),
            FetchError::Status(503),
            FetchError::RetryAfter {
                status: 429,
                after: std::time::Duration::from_secs(3),
            },
            FetchError::SkippedType("image/png".into()),
            FetchError::Connect("refused".into()),
            FetchError::Dns("nx".into()),
            FetchError::Tls("bad".into()),
            FetchError::Decode("gzip".into()),
            FetchError::Protocol("reset".into()),
        ];
        for e in errors {
            assert_eq!(
                FetchError::is_host_fault_label(&e.label()),
                e.is_host_fault(),
                "{}",
                e.label()
            );
            assert_eq!(
                FetchError::is_timeout_label(&e.label()),
                matches!(e, FetchError::Timeout(_)),
                "{}",
                e.label()
            );
        }
    }

    #[test]
    fn robots_directives() {
        assert_eq!(
            RobotsDirectives::parse("noindex, nofollow"),
            RobotsDirectives {
                noindex: true,
                nofollow: true
            }
        );
        assert_eq!(
            RobotsDirectives::parse("NONE"),
            RobotsDirectives {
                noindex: true,
                nofollow: true
            }
        );
        assert!(RobotsDirectives::parse("googlebot: nofollow").nofollow);
        assert_eq!(
            RobotsDirectives::parse("index, follow"),
            RobotsDirectives::default()
        );
    }
}
