//! Every fault class over real loopback HTTP(S): each is handled, typed and
//! counted; a stalled host costs at most its timeout; a 1 GiB gzip bomb is
//! cut at the cap; a redirect loop ends.

mod support;

use std::time::{Duration, Instant};

use focus_core::{CanonicalUrl, Canonicalizer};
use focus_fetch::{Body, ConnectTo, FetchConfig, FetchError, Fetcher, Retry, TimeoutPhase};

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
    // Nothing is known of an origin before its first fetch.
    assert!(f
        .robots_rules(&url("http://robots.test/private/x"))
        .is_none());
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
    // The rules the fetches obeyed can be read without a request, with the
    // text they came from, which parses again to the same answers.
    let rules = f
        .robots_rules(&url("http://robots.test/anything"))
        .expect("robots.test's rules are held");
    assert!(!rules.allows(&url("http://robots.test/private/y")));
    assert!(rules.allows(&url("http://robots.test/private/open/y")));
    let again = f.parse_robots(rules.body()).expect("the text parses");
    assert!(!again.allows(&url("http://robots.test/private/y")));
    // An unavailable robots.txt restricts nothing that could be read.
    assert!(f.robots_rules(&url("http://robots500.test/x")).is_none());
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
async fn error_statuses_are_typed_and_never_cost_the_host() {
    let (_web, f) = fetcher().await;
    assert_eq!(
        f.fetch(&url("http://status.test/404")).await.unwrap_err(),
        FetchError::Status(404)
    );
    assert_eq!(
        f.fetch(&url("http://status.test/410")).await.unwrap_err(),
        FetchError::Status(410)
    );
    // A broken page answers 500 as often as it is asked: that is the
    // URL's fault, and the fetcher leaves retrying to the crawler.
    for _ in 0..5 {
        let err = f.fetch(&url("http://status.test/500")).await.unwrap_err();
        assert_eq!(err, FetchError::Status(500));
        assert_eq!(err.retry(), Retry::Later);
        assert_eq!(
            f.fetch(&url("http://status.test/503")).await.unwrap_err(),
            FetchError::Status(503)
        );
    }
    let host = url("http://status.test/").host_key();
    let status = f.host_status(&host);
    assert!(!status.bad && status.consecutive_failures == 0);
    assert!(f.fetch(&url("http://status.test/200")).await.is_ok());
    let stats = f.stats();
    assert_eq!(stats.outcomes["status_404"], 1);
    assert_eq!(stats.outcomes["status_500"], 5);
    assert!(!stats.outcomes.contains_key("host_bad"));
    assert_eq!(stats.retries, 0, "statuses are not retried inside a fetch");
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
    // do not crawl yet. A connection broken before the answer is not a
    // refused connection: it does not count against the host.
    assert!(
        matches!(err, FetchError::RobotsUnavailable { .. }),
        "{err:?}"
    );
    assert!(matches!(err.retry(), Retry::After(_)));
    assert_eq!(
        f.host_status(&url("http://reset.test/").host_key())
            .consecutive_failures,
        0
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
async fn a_plain_override_speaks_http_to_its_target_for_an_https_url() {
    let web = support::start().await;
    let rule = |plain| ConnectTo {
        plain,
        ..ConnectTo::parse(&format!("::127.0.0.1:{}", web.http.port())).unwrap()
    };
    let mut cfg = web.config();
    cfg.connect_to = vec![rule(false)];
    let tls = Fetcher::new(cfg.clone()).unwrap();
    // The plain server cannot answer a TLS handshake.
    let err = tls
        .fetch(&url("https://other.test/page"))
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Tls(_)), "{err:?}");
    cfg.connect_to = vec![rule(true)];
    let plain = Fetcher::new(cfg).unwrap();
    let page = plain.fetch(&url("https://other.test/page")).await.unwrap();
    assert_eq!(page.status, 200);
    // The URL keeps its scheme: the page is the https one.
    assert_eq!(page.final_url.as_str(), "https://other.test/page");
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

#[tokio::test]
async fn a_body_below_the_minimum_rate_is_cut_long_before_the_deadline() {
    let (web, _) = fetcher().await;
    let mut cfg = web.config();
    cfg.total_timeout = Duration::from_secs(20);
    cfg.min_rate_bytes_per_s = 4096;
    cfg.min_rate_window = Duration::from_millis(300);
    let f = Fetcher::new(cfg.clone()).unwrap();
    let t = Instant::now();
    assert_eq!(
        f.fetch(&url("http://stall.test/")).await.unwrap_err(),
        FetchError::Timeout(TimeoutPhase::Slow)
    );
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "the rate window is 300 ms, took {:?}",
        t.elapsed()
    );
    // A body that keeps its rate is read to the end.
    assert!(f
        .fetch(&url("http://big.test/stream"))
        .await
        .is_err_and(|e| matches!(e, FetchError::TooLarge { .. })));
    // Without the check only the deadline cuts it.
    cfg.total_timeout = Duration::from_millis(700);
    cfg.min_rate_bytes_per_s = 0;
    let f = Fetcher::new(cfg).unwrap();
    assert_eq!(
        f.fetch(&url("http://stall.test/")).await.unwrap_err(),
        FetchError::Timeout(TimeoutPhase::Total)
    );
}

#[tokio::test]
async fn retry_after_is_read_and_the_host_waits_for_it() {
    let (_web, f) = fetcher().await;
    let err = f.fetch(&url("http://throttle.test/a")).await.unwrap_err();
    assert_eq!(
        err,
        FetchError::RetryAfter {
            status: 429,
            after: Duration::from_secs(1)
        }
    );
    assert_eq!(err.label(), "status_429");
    assert_eq!(err.retry(), Retry::After(Duration::from_secs(1)));
    let host = url("http://throttle.test/").host_key();
    assert!(f.host_status(&host).ready_in > Duration::from_millis(500));
    let t = Instant::now();
    let _ = f.fetch(&url("http://throttle.test/b")).await;
    assert!(
        t.elapsed() >= Duration::from_millis(500),
        "the next request waited for Retry-After"
    );
}
