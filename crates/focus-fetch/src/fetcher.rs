//! The fetch pipeline for one URL: robots → politeness → request (with
//! retries) → redirects → type and size gates → body under limits →
//! charset decoding. Every outcome is counted.

use std::collections::HashSet;
use std::error::Error as _;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use focus_core::{CanonicalUrl, Canonicalizer};
use http::{header, Request, Response, StatusCode, Uri};
use http_body_util::Empty;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::time::Instant;

use crate::body;
use crate::config::FetchConfig;
use crate::connect::{tls_config, ConnectError, Connector, PeerAddr};
use crate::hosts::{HostStatus, Hosts, Permit};
use crate::outcome::{Body, FetchError, FetchOutcome, Fetched, RobotsDirectives, TimeoutPhase};
use crate::robots::{self, RobotsCache, Rules};
use crate::stats::{FetchStats, StatsCell};
use focus_core::charset;

/// A shareable fetcher (cheap to clone; all state is behind an `Arc`).
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: FetchConfig,
    client: Client<Connector, Empty<Bytes>>,
    robots: RobotsCache,
    hosts: Hosts,
    stats: StatsCell,
    canon: Canonicalizer,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("user_agent", &self.inner.cfg.user_agent)
            .finish_non_exhaustive()
    }
}

/// A response whose headers arrived, with the permits that keep the host's
/// connection slot while the body is read.
struct Answer {
    response: Response<Incoming>,
    _permit: Permit,
}

impl Fetcher {
    /// Builds a fetcher; fails only on a bad extra CA.
    pub fn new(cfg: FetchConfig) -> Result<Fetcher, FetchError> {
        let tls = tls_config(&cfg).map_err(FetchError::Tls)?;
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(cfg.idle_connection_timeout)
            // Without a timer the pool reaps an idle connection only when its
            // host is asked for again: a crawl that leaves a host keeps its
            // sockets and buffers (measured: 12,000 sockets and +600 MB by
            // 50,000 pages of the million-page websim).
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .pool_max_idle_per_host(cfg.per_host_connections.max(1))
            .build(Connector::new(&cfg, tls));
        let hosts = Hosts::new(
            cfg.per_host_connections,
            cfg.per_domain_connections,
            cfg.host_interval,
            cfg.bad_after_failures,
            cfg.bad_host_backoff,
        );
        Ok(Fetcher {
            inner: Arc::new(Inner {
                client,
                robots: RobotsCache::default(),
                hosts,
                stats: StatsCell::default(),
                canon: Canonicalizer::default(),
                cfg,
            }),
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &FetchConfig {
        &self.inner.cfg
    }

    /// Counters of every outcome so far.
    pub fn stats(&self) -> FetchStats {
        self.inner.stats.snapshot()
    }

    /// The parsed robots.txt rules this fetcher holds for `url`'s origin,
    /// without a request: `None` when it has not fetched them, they have
    /// expired, or the origin has none that restrict (no robots.txt, one
    /// that does not parse, or one it could not fetch).
    pub fn robots_rules(&self, url: &CanonicalUrl) -> Option<crate::RobotsRules> {
        match self.inner.robots.get(&robots::origin_of(url))? {
            Rules::Parsed(rules) => Some(rules),
            _ => None,
        }
    }

    /// Parses a robots.txt text for this fetcher's user agent, as it parses
    /// what it fetches (`None`: the text does not parse, so it restricts
    /// nothing).
    pub fn parse_robots(&self, body: &[u8]) -> Option<crate::RobotsRules> {
        crate::RobotsRules::parse(&self.inner.cfg.robots_agent, body)
    }

    /// What the fetcher knows about a host (readiness, slow, bad).
    pub fn host_status(&self, host: &focus_core::HostKey) -> HostStatus {
        self.inner.hosts.status(host)
    }

    /// Fetches one URL. Never panics; every failure is a [`FetchError`].
    pub async fn fetch(&self, url: &CanonicalUrl) -> FetchOutcome {
        let result = self.fetch_following(url).await;
        let label = match &result {
            Ok(_) => "ok".to_owned(),
            Err(e) => e.label(),
        };
        self.inner.stats.count(&label);
        if let Ok(f) = &result {
            let wire = f.wire_bytes;
            self.inner.stats.update(|s| s.wire_bytes += wire);
        }
        result
    }

    async fn fetch_following(&self, url: &CanonicalUrl) -> FetchOutcome {
        let started = Instant::now();
        let mut current = url.clone();
        let mut chain: Vec<CanonicalUrl> = Vec::new();
        let mut visited: HashSet<String> = HashSet::from([url.as_str().to_owned()]);
        loop {
            self.check_robots(&current).await?;
            let answer = self.request_with_retries(&current).await?;
            let status = answer.response.status();
            if status.is_success() {
                return self.read_page(url, current, chain, answer, started).await;
            }
            // The host answered: a status is the URL's own, never the host's.
            self.inner.hosts.success(&current.host_key());
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                let next = self.redirect_target(&current, &answer.response)?;
                if !visited.insert(next.as_str().to_owned()) {
                    return Err(FetchError::RedirectLoop(next.to_string()));
                }
                if chain.len() >= self.inner.cfg.max_redirects {
                    return Err(FetchError::TooManyRedirects(self.inner.cfg.max_redirects));
                }
                self.inner.stats.update(|s| s.redirects += 1);
                chain.push(next.clone());
                current = next;
                continue;
            }
            return Err(self.status_error(&current, &answer.response));
        }
    }

    /// The error of a final status that is not 2xx; a 429 or 503 with a
    /// readable `Retry-After` also defers the host that long.
    fn status_error(&self, url: &CanonicalUrl, resp: &Response<Incoming>) -> FetchError {
        let status = resp.status().as_u16();
        if !matches!(status, 429 | 503) {
            return FetchError::Status(status);
        }
        let after = resp
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, std::time::SystemTime::now()));
        match after {
            Some(after) => {
                let after = after.min(self.inner.cfg.max_retry_after);
                self.inner.hosts.defer(&url.host_key(), after);
                FetchError::RetryAfter { status, after }
            }
            None => FetchError::Status(status),
        }
    }

    fn redirect_target(
        &self,
        from: &CanonicalUrl,
        resp: &Response<Incoming>,
    ) -> Result<CanonicalUrl, FetchError> {
        let location = resp
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| {
                FetchError::BadRedirect(format!("{} without Location", resp.status()))
            })?;
        self.inner
            .canon
            .join(from, location)
            .map_err(|e| FetchError::BadRedirect(e.to_string()))
    }

    async fn read_page(
        &self,
        url: &CanonicalUrl,
        final_url: CanonicalUrl,
        redirects: Vec<CanonicalUrl>,
        answer: Answer,
        started: Instant,
    ) -> FetchOutcome {
        let cfg = &self.inner.cfg;
        let headers = answer.response.headers();
        let raw_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("text/html")
            .to_owned();
        let media = raw_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let is_text = matches!(
            media.as_str(),
            "text/html" | "application/xhtml+xml" | "text/plain" | ""
        );
        let host = final_url.host_key();
        // The host answered; only a body that times out may still count
        // against it.
        if !is_text
            && !cfg
                .extra_types
                .iter()
                .any(|t| t.eq_ignore_ascii_case(&media))
        {
            self.inner.hosts.success(&host);
            return Err(FetchError::SkippedType(media));
        }
        let cap = if is_text {
            cfg.max_html_bytes
        } else {
            cfg.max_other_bytes
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let encoding = headers
            .get(header::CONTENT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if declared.is_some_and(|n| n > cap as u64) && encoding.is_empty() {
            self.inner.hosts.success(&host);
            return Err(FetchError::TooLarge { limit: cap });
        }
        let robots = headers
            .get_all("x-robots-tag")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .fold(RobotsDirectives::default(), |d, v| {
                d.merge(RobotsDirectives::parse(v))
            });
        let remote_addr = answer.response.extensions().get::<PeerAddr>().map(|p| p.0);
        let status = answer.response.status().as_u16();
        let limits = body::Limits {
            cap,
            deadline: Instant::now() + cfg.total_timeout,
            min_rate: body::MinRate::of(cfg),
        };
        let (bytes, wire) = match body::read(answer.response.into_body(), &encoding, limits).await {
            Ok(r) => r,
            Err(e) => {
                if matches!(e, FetchError::Timeout(_)) {
                    self.inner.hosts.failure(&host, &final_url, true);
                } else {
                    self.inner.hosts.success(&host);
                }
                return Err(e);
            }
        };
        self.inner.hosts.success(&host);
        let decoded_bytes = bytes.len() as u64;
        let (body, charset) = if is_text {
            let (text, cs) = charset::decode(&bytes, &raw_type);
            (Body::Text(text), Some(cs))
        } else {
            (Body::Bytes(bytes), None)
        };
        Ok(Fetched {
            url: url.clone(),
            final_url,
            redirects,
            status,
            content_type: media,
            body,
            charset,
            robots,
            wire_bytes: wire,
            decoded_bytes,
            remote_addr,
            elapsed: started.elapsed(),
        })
    }

    /// Sends a GET under politeness. A connection failure or a timeout
    /// counts against the host and is retried here up to
    /// [`FetchConfig::retries`] times with exponential backoff (none by
    /// default: a crawler retries through its frontier); any answer, a
    /// 5xx included, goes back to the caller.
    async fn request_with_retries(&self, url: &CanonicalUrl) -> Result<Answer, FetchError> {
        let cfg = &self.inner.cfg;
        let host = url.host_key();
        let mut attempt = 0;
        loop {
            let permit = self.inner.hosts.acquire(url).await?;
            let was_slow = self.inner.hosts.status(&host).slow;
            let e = match self.send(url).await {
                Ok(response) => {
                    return Ok(Answer {
                        response,
                        _permit: permit,
                    })
                }
                Err(e) => e,
            };
            let timed_out = matches!(e, FetchError::Timeout(_));
            let now_bad = e.is_host_fault() && self.inner.hosts.failure(&host, url, timed_out);
            // A host already tagged slow gets no second wait.
            if !e.is_connection_failure()
                || attempt >= cfg.retries
                || now_bad
                || (timed_out && was_slow)
            {
                return Err(e);
            }
            drop(permit);
            let backoff = cfg.retry_backoff.saturating_mul(1 << attempt.min(16));
            tokio::time::sleep(backoff).await;
            attempt += 1;
            self.inner.stats.update(|s| s.retries += 1);
        }
    }

    async fn send(&self, url: &CanonicalUrl) -> Result<Response<Incoming>, FetchError> {
        let cfg = &self.inner.cfg;
        let uri: Uri = url
            .as_str()
            .parse()
            .map_err(|e: http::uri::InvalidUri| FetchError::Protocol(e.to_string()))?;
        let req = Request::get(uri)
            .header(header::USER_AGENT, &cfg.user_agent)
            .header(
                header::ACCEPT,
                "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
            )
            .header(header::ACCEPT_ENCODING, "gzip, deflate, br")
            .body(Empty::<Bytes>::new())
            .map_err(|e| FetchError::Protocol(e.to_string()))?;
        match tokio::time::timeout(cfg.first_byte_timeout, self.inner.client.request(req)).await {
            Err(_) => Err(FetchError::Timeout(TimeoutPhase::FirstByte)),
            Ok(Ok(resp)) => Ok(resp),
            Ok(Err(e)) => Err(client_error(&e)),
        }
    }

    /// Applies robots.txt for `url`'s origin, fetching it when needed.
    async fn check_robots(&self, url: &CanonicalUrl) -> Result<(), FetchError> {
        let origin = robots::origin_of(url);
        let rules = if let Some(r) = self.inner.robots.get(&origin) {
            r
        } else {
            let lock = self.inner.robots.lock_for(&origin);
            let _guard = lock.lock().await;
            // Another task may have fetched it while we waited.
            if let Some(r) = self.inner.robots.get(&origin) {
                r
            } else {
                let r = self.fetch_robots(url, &origin).await;
                self.inner
                    .robots
                    .put(&origin, r.clone(), self.inner.cfg.robots_ttl);
                r
            }
        };
        match rules {
            Rules::AllowAll => Ok(()),
            Rules::Refused { error, .. } => Err(error),
            Rules::Unavailable { until } => Err(FetchError::RobotsUnavailable {
                retry_after: until.saturating_duration_since(Instant::now()),
            }),
            Rules::Parsed(robot) => {
                if robot.allows(url) {
                    Ok(())
                } else {
                    Err(FetchError::DisallowedByRobots)
                }
            }
        }
    }

    async fn fetch_robots(&self, url: &CanonicalUrl, origin: &str) -> Rules {
        let cfg = &self.inner.cfg;
        let unavailable = || Rules::Unavailable {
            until: Instant::now() + cfg.robots_retry,
        };
        let Ok(mut target) = self
            .inner
            .canon
            .canonicalize(&format!("{origin}/robots.txt"))
        else {
            return unavailable();
        };
        self.inner.stats.update(|s| s.robots_fetched += 1);
        // RFC 9309: follow at least five redirects.
        for _ in 0..5 {
            let answer = match self.request_with_retries(&target).await {
                Ok(a) => a,
                Err(
                    e @ (FetchError::Ssrf(_)
                    | FetchError::Dns(_)
                    | FetchError::Tls(_)
                    | FetchError::HostBad),
                ) => {
                    return Rules::Refused {
                        error: e,
                        until: Instant::now() + cfg.robots_retry,
                    };
                }
                Err(_) => return unavailable(),
            };
            let status = answer.response.status();
            if status.is_redirection() {
                match self.redirect_target(&target, &answer.response) {
                    Ok(next) => {
                        target = next;
                        continue;
                    }
                    Err(_) => return Rules::AllowAll,
                }
            }
            if status.is_client_error() {
                return Rules::AllowAll;
            }
            if !status.is_success() {
                return unavailable();
            }
            let encoding = answer
                .response
                .headers()
                .get(header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let limits = body::Limits {
                cap: cfg.max_robots_bytes,
                deadline: Instant::now() + cfg.total_timeout,
                min_rate: body::MinRate::of(cfg),
            };
            let bytes = match body::read(answer.response.into_body(), &encoding, limits).await {
                Ok((b, _)) => b,
                // Over the size limit: RFC 9309 lets a crawler parse the prefix;
                // we conservatively allow all rather than act on half a file.
                Err(FetchError::TooLarge { .. }) => return Rules::AllowAll,
                Err(_) => return unavailable(),
            };
            let rules = robots::parse(&cfg.robots_agent, &bytes);
            if let Rules::Parsed(robot) = &rules {
                if let Some(delay) = robot.delay().filter(|d| d.is_finite() && *d > 0.0) {
                    self.inner.hosts.set_crawl_delay(
                        &url.host_key(),
                        Duration::from_secs_f32(delay.min(120.0)),
                    );
                }
            }
            return rules;
        }
        Rules::AllowAll
    }
}

/// A `Retry-After` value (delta-seconds or an HTTP date, RFC 9110
/// §10.2.3) as a wait from `now`; `None` when unreadable.
fn retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Maps hyper-util's client error onto a typed failure.
fn client_error(e: &hyper_util::client::legacy::Error) -> FetchError {
    let mut source = e.source();
    while let Some(s) = source {
        if let Some(c) = s.downcast_ref::<ConnectError>() {
            return match c {
                ConnectError::Ssrf(_) => FetchError::Ssrf(c.to_string()),
                ConnectError::Dns(_) | ConnectError::NoHost => FetchError::Dns(c.to_string()),
                ConnectError::Timeout => FetchError::Timeout(TimeoutPhase::Connect),
                ConnectError::Tls(_) => FetchError::Tls(c.to_string()),
                ConnectError::Io(_) => FetchError::Connect(c.to_string()),
            };
        }
        source = s.source();
    }
    if e.is_connect() {
        FetchError::Connect(e.to_string())
    } else {
        FetchError::Protocol(format!(
            "{e}: {}",
            e.source().map(ToString::to_string).unwrap_or_default()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let now = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(retry_after(" 120 ", now), Some(Duration::from_secs(120)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(retry_after(&later, now), Some(Duration::from_secs(30)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-5", now), None);
    }
}
