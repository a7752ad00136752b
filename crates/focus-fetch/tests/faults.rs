//! Every fault class over real loopback HTTP(S): each is handled, typed and
//! counted; a stalled host costs at most its timeout; a 1 GiB gzip bomb is
//! cut at the cap; a redirect loop ends.

mod support;

use std::time::{Duration, Instant};

use focus_core::{CanonicalUrl, Canonicalizer};
use focus_fetch::{Body, FetchConfig, FetchError, Fetcher, TimeoutPhase};

fn url(s: &str) -> CanonicalUrl {
    Canonicalizer::default().canonicalize(s).unwrap()
}

async fn fetcher() -> (support::TestWeb, Fetcher) {
    let web = support::start().await;
    let f = Fetcher::new(web.config()).unwrap();
    (web, f)
}

#[tokio::test]
async fn a_plain_page_is_fetched_decoded_and_counted() {
    let (_web, f) = fetcher().await;
    let page = f.fetch(&url("http://ok.test/page")).await.unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(page.content_type, "text/html");
    let Body::Text(text) = &page.body else {
        panic!("text body")
    };
    assert!(text.starts_with("<title>ok.test</title>"));
    assert!(page.remote_addr.unwrap().ip().is_loopback());
    assert_eq!(f.stats().outcomes["ok"], 1);
}

#[tokio::test]
async fn robots_rules_and_unavailable_robots() {
    let (_web, f) = fetcher().await;
    assert_eq!(
        f.fetch(&url("http://robots.test/private/x"))
            .await
            .unwrap_err(),
        FetchError::DisallowedByRobots
    );
    assert!(f
        .fetch(&url("http://robots.test/private/open/x"))
        .await
        .is_err_and(|e| e == FetchError::Status(404)));
    assert!(f.fetch(&url("http://robots.test/")).await.is_ok());
    let err = f.fetch(&url("http://robots500.test/")).await.unwrap_err();
    assert!(
        matches!(err, FetchError::RobotsUnavailable { .. }),
        "{err:?}"
    );
    // robots.txt is fetched once per origin.
    let stats = f.stats();
    assert_eq!(stats.robots_fetched, 2);
    assert_eq!(stats.outcomes["robots_disallowed"], 1);
}

#[tokio::test]
async fn redirect_chains_are_recorded_and_loops_end() {
    let (_web, f) = fetcher().await;
    let page = f.fetch(&url("http://redirect.test/r/3")).await.unwrap();
    assert_eq!(page.redirects.len(), 3);
    assert_eq!(page.final_url.as_str(), "http://redirect.test/r/0");
    let err = f
        .fetch(&url("http://redirect.test/loop/a"))
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::RedirectLoop(_)), "{err:?}");
    let err = f
        .fetch(&url("http://redirect.test/r/40"))
        .await
        .unwrap_err();
    assert_eq!(err, FetchError::TooManyRedirects(25));
}

#[tokio::test]
async fn error_statuses_are_typed_and_repeated_failures_tag_the_host_bad() {
    let (_web, f) = fetcher().await;
    assert_eq!(
        f.fetch(&url("http://status.test/404")).await.unwrap_err(),
        FetchError::Status(404)
    );
    assert_eq!(
        f.fetch(&url("http://status.test/410")).await.unwrap_err(),
        FetchError::Status(410)
    );
    // 500: one try plus one retry = two failures; the next 503 makes three.
    assert_eq!(
        f.fetch(&url("http://status.test/500")).await.unwrap_err(),
        FetchError::Status(500)
    );
    assert_eq!(
        f.fetch(&url("http://status.test/503")).await.unwrap_err(),
        FetchError::Status(503)
    );
    let host = url("http://status.test/").host_key();
    assert!(f.host_status(&host).bad);
    assert_eq!(
        f.fetch(&url("http://status.test/200")).await.unwrap_err(),
        FetchError::HostBad
    );
    let stats = f.stats();
    assert_eq!(stats.outcomes["status_404"], 1);
    assert_eq!(stats.outcomes["host_bad"], 1);
    assert!(stats.retries >= 1);
}

#[tokio::test]
async fn slow_and_stalled_hosts_cost_at_most_their_timeouts() {
    let (web, _) = fetcher().await;
    let mut cfg = web.config();
    cfg.retries = 0;
    let f = Fetcher::new(cfg).unwrap();
    let t = Instant::now();
    assert_eq!(
        f.fetch(&url("http://slow.test/")).await.unwrap_err(),
        FetchError::Timeout(TimeoutPhase::FirstByte)
    );
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "first-byte timeout is 400 ms, took {:?}",
        t.elapsed()
    );
    let t = Instant::now();
    assert_eq!(
        f.fetch(&url("http://stall.test/")).await.unwrap_err(),
        FetchError::Timeout(TimeoutPhase::Total)
    );
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "total timeout is 600 ms, took {:?}",
        t.elapsed()
    );
    assert!(f.host_status(&url("http://slow.test/").host_key()).slow);
}

#[tokio::test]
async fn resetting_hosts_are_not_crawled_yet_and_counted() {
    let (_web, f) = fetcher().await;
    let err = f.fetch(&url("http://reset.test/")).await.unwrap_err();
    // robots.txt itself is unreachable on a resetting host: RFC 9309 says
    // do not crawl yet; the resets count against the host.
    assert!(
        matches!(err, FetchError::RobotsUnavailable { .. }),
        "{err:?}"
    );
    assert!(
        f.host_status(&url("http://reset.test/").host_key())
            .consecutive_failures
            >= 2
    );
    assert_eq!(f.stats().outcomes["robots_unavailable"], 1);
}

#[tokio::test]
async fn types_sizes_and_bombs() {
    let (web, _) = fetcher().await;
    let mut cfg = web.config();
    cfg.extra_types = vec!["application/pdf".to_owned()];
    cfg.total_timeout = Duration::from_secs(20);
    let f = Fetcher::new(cfg).unwrap();
    assert_eq!(
        f.fetch(&url("http://types.test/img.png"))
            .await
            .unwrap_err(),
        FetchError::SkippedType("image/png".into())
    );
    let pdf = f.fetch(&url("http://types.test/doc.pdf")).await.unwrap();
    assert_eq!(pdf.body, Body::Bytes(b"%PDF-1.4".to_vec()));
    let limit = 1 << 20;
    assert_eq!(
        f.fetch(&url("http://big.test/declared")).await.unwrap_err(),
        FetchError::TooLarge { limit }
    );
    assert_eq!(
        f.fetch(&url("http://big.test/stream")).await.unwrap_err(),
        FetchError::TooLarge { limit }
    );
    let t = Instant::now();
    assert_eq!(
        f.fetch(&url("http://bomb.test/")).await.unwrap_err(),
        FetchError::TooLarge { limit }
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    let br = f.fetch(&url("http://br.test/")).await.unwrap();
    assert_eq!(br.body, Body::Text("<title>brotli</title>".into()));
}

#[tokio::test]
async fn charsets_and_x_robots_tag() {
    let (_web, f) = fetcher().await;
    let latin1 = f.fetch(&url("http://charset.test/latin1")).await.unwrap();
    assert_eq!(latin1.body, Body::Text("café".into()));
    let meta = f.fetch(&url("http://charset.test/meta")).await.unwrap();
    assert_eq!(meta.charset, Some("windows-1252"));
    assert!(matches!(&meta.body, Body::Text(t) if t.ends_with("naïve")));
    let hidden = f.fetch(&url("http://xrobots.test/")).await.unwrap();
    assert!(hidden.robots.noindex && hidden.robots.nofollow);
}

#[tokio::test]
async fn https_with_a_certificate_generated_in_the_test() {
    let (web, f) = fetcher().await;
    let page = f.fetch(&url("https://secure.test/page")).await.unwrap();
    assert_eq!(page.status, 200);
    // Without the extra CA the same server is refused.
    let mut cfg = web.config();
    cfg.extra_ca_pem = None;
    let strict = Fetcher::new(cfg).unwrap();
    let err = strict
        .fetch(&url("https://secure.test/page"))
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Tls(_)), "{err:?}");
}

#[tokio::test]
async fn the_ssrf_guard_refuses_loopback_without_an_override() {
    let web = support::start().await;
    let target = url(&format!("http://127.0.0.1:{}/page", web.http.port()));
    let mut cfg = FetchConfig::loopback(Vec::new());
    cfg.retries = 0;
    let guarded = Fetcher::new(cfg.clone()).unwrap();
    let err = guarded.fetch(&target).await.unwrap_err();
    assert!(matches!(err, FetchError::Ssrf(_)), "{err:?}");
    assert_eq!(guarded.stats().outcomes["ssrf_refused"], 1);
    cfg.allow_private = true;
    let open = Fetcher::new(cfg).unwrap();
    assert!(open.fetch(&target).await.is_ok());
}

#[tokio::test]
async fn a_bad_extra_ca_is_a_typed_error() {
    let cfg = FetchConfig {
        extra_ca_pem: Some(b"not pem".to_vec()),
        ..FetchConfig::default()
    };
    assert!(matches!(Fetcher::new(cfg), Err(FetchError::Tls(_))));
}
