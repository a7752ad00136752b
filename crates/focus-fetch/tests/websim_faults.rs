//! The fetcher against the websim's fault hosts over real loopback HTTP:
//! every fault class of the synthetic web is handled, typed and counted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use focus_core::Canonicalizer;
use focus_fetch::{Body, ConnectTo, FetchConfig, FetchError, Fetcher, TimeoutPhase};
use focus_websim::{FaultKind, Web, WebConfig};

#[tokio::test]
async fn every_websim_fault_class_is_handled() {
    let cfg = WebConfig {
        slow_ms: 2_000,
        stall_ms: 2_000,
        oversized_bytes: 3 << 20,
        ..WebConfig::small()
    };
    let web = Arc::new(Web::new(cfg, 7).unwrap());
    let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let mut fc = FetchConfig::loopback(vec![ConnectTo::parse(&server.connect_to()).unwrap()]);
    fc.first_byte_timeout = Duration::from_millis(400);
    fc.total_timeout = Duration::from_millis(800);
    fc.retries = 0;
    fc.max_html_bytes = 1 << 20;
    let fetcher = Fetcher::new(fc).unwrap();
    let canon = Canonicalizer::default();

    for fault in web.faults() {
        let path = match fault.kind {
            FaultKind::RedirectChain => "/go/3/0",
            FaultKind::RedirectLoop => "/loop/a/0",
            FaultKind::NonHtml => "/files/file-1.pdf",
            FaultKind::Oversized => "/big/1.html",
            FaultKind::Calendar => "/calendar/2020/1/",
            _ => "/",
        };
        let url = canon
            .canonicalize(&format!("http://{}{path}", fault.host))
            .unwrap();
        let started = Instant::now();
        let outcome = fetcher.fetch(&url).await;
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "{:?} took {took:?}",
            fault.kind
        );
        match (&fault.kind, &outcome) {
            (FaultKind::RedirectChain, Ok(p)) => assert!(p.redirects.len() >= 3),
            (FaultKind::RedirectLoop, Err(FetchError::RedirectLoop(_)))
            | (FaultKind::NonHtml, Err(FetchError::SkippedType(_)))
            | (FaultKind::Oversized, Err(FetchError::TooLarge { .. }))
            | (FaultKind::RobotsForbidden, Err(FetchError::DisallowedByRobots))
            | (
                FaultKind::Reset,
                Err(
                    FetchError::RobotsUnavailable { .. }
                    | FetchError::Protocol(_)
                    | FetchError::Connect(_),
                ),
            )
            | (
                FaultKind::Slow,
                Err(
                    FetchError::Timeout(TimeoutPhase::FirstByte)
                    | FetchError::RobotsUnavailable { .. },
                ),
            )
            | (
                FaultKind::Stall,
                Err(FetchError::Timeout(_) | FetchError::RobotsUnavailable { .. }),
            ) => {}
            (FaultKind::NotFound, Err(e)) => assert_eq!(e.status(), Some(404)),
            (FaultKind::Gone, Err(e)) => assert_eq!(e.status(), Some(410)),
            (FaultKind::ServerError, Err(e)) => assert_eq!(e.status(), Some(500)),
            (FaultKind::Unavailable, Err(e)) => assert_eq!(e.status(), Some(503)),
            (
                FaultKind::Gzip
                | FaultKind::Malformed
                | FaultKind::Mirror
                | FaultKind::SessionId
                | FaultKind::Calendar,
                Ok(p),
            ) => {
                assert!(
                    matches!(&p.body, Body::Text(t) if !t.is_empty()),
                    "{:?}",
                    fault.kind
                );
            }
            (kind, other) => panic!("{kind:?} on {url}: unexpected {other:?}"),
        }
    }
    let stats = fetcher.stats();
    assert!(stats.outcomes.values().sum::<u64>() >= web.faults().len() as u64);
    server.shutdown().await;
}
