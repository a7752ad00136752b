//! The HTTP server on loopback: 10,000 requests from 64 concurrent
//! keep-alive clients without an unconfigured error; Host-header dispatch;
//! reset, stall and slow faults over real connections; the services; the
//! delaying proxy in front of a server.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use focus_websim::{delay_proxy, serve, FaultKind, Latency, Web, WebConfig};
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;

fn small_web() -> Arc<Web> {
    let mut c = WebConfig::small();
    c.slow_ms = 50;
    c.stall_ms = 200;
    c.oversized_bytes = 64 * 1024;
    Arc::new(Web::new(c, 3).unwrap())
}

type Sender = http1::SendRequest<Empty<Bytes>>;

async fn connect(addr: std::net::SocketAddr) -> Sender {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    sender
}

async fn get(sender: &mut Sender, url: &str) -> Result<(u16, Bytes), String> {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let req = hyper::Request::get(format!("/{path}"))
        .header("host", host)
        .body(Empty::<Bytes>::new())
        .unwrap();
    sender.ready().await.map_err(|e| e.to_string())?;
    let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let body = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, body))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_requests_from_64_clients() {
    let web = small_web();
    let handle = serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    assert!(handle.connect_to().starts_with("::127.0.0.1:"));
    let addr = handle.addr();
    let n = web.page_count();
    let mut tasks = Vec::new();
    for client in 0..64u32 {
        let web = web.clone();
        tasks.push(tokio::spawn(async move {
            let mut sender = connect(addr).await;
            let mut ok = 0u32;
            for i in 0..157u32 {
                let pid = (client * 7919 + i * 104_729) % n;
                let url = web.page_url(pid).unwrap();
                let (status, body) = get(&mut sender, &url)
                    .await
                    .unwrap_or_else(|e| panic!("{url}: {e}"));
                assert_eq!(status, 200, "{url}");
                if i % 25 == 0 {
                    assert_eq!(body, web.page_html(pid).unwrap().as_bytes(), "{url}");
                }
                ok += 1;
            }
            ok
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += tokio::time::timeout(Duration::from_secs(120), t)
            .await
            .unwrap()
            .unwrap();
    }
    assert!(total >= 10_000);
    handle.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_level_faults_and_services_over_http() {
    let web = small_web();
    let handle = serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let addr = handle.addr();
    let host_of = |k: FaultKind| {
        web.faults()
            .iter()
            .find(|f| f.kind == k)
            .unwrap()
            .host
            .clone()
    };
    let page = web.page_url(5).unwrap();
    let path = page
        .split_once("://")
        .unwrap()
        .1
        .split_once('/')
        .unwrap()
        .1
        .to_string();

    // Reset: no response at all.
    let mut s = connect(addr).await;
    let r = get(
        &mut s,
        &format!("http://{}/item-1.html", host_of(FaultKind::Reset)),
    )
    .await;
    assert!(r.is_err(), "{r:?}");

    // Stall: headers, then a truncated body and an abort.
    let mut s = connect(addr).await;
    let mirror_host = host_of(FaultKind::Stall);
    let r = tokio::time::timeout(
        Duration::from_secs(10),
        get(&mut s, &format!("http://{mirror_host}/")),
    )
    .await
    .unwrap();
    assert!(r.is_err(), "stalled body must not complete: {r:?}");

    // Slow: answers eventually with a page.
    let mut s = connect(addr).await;
    let (status, body) = get(&mut s, &format!("http://{}/", host_of(FaultKind::Slow)))
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("<title>"));

    // Unknown host: 421; search host services.
    let (status, _) = get(&mut s, &format!("http://unknown.example/{path}"))
        .await
        .unwrap();
    assert_eq!(status, 421);
    let target = web
        .page_url(
            web.out_links(5)
                .iter()
                .find_map(|l| match l.target {
                    focus_websim::LinkTarget::Page(p) => Some(p),
                    _ => None,
                })
                .unwrap(),
        )
        .unwrap();
    let q = format!(
        "http://{}/backlinks?url={}&max=1000",
        web.search_host(),
        target
    );
    let (status, body) = get(&mut s, &q).await.unwrap();
    assert_eq!(status, 200);
    let body = String::from_utf8_lossy(&body).to_string();
    assert!(
        body.lines().any(|l| l == page),
        "{page} not among backlinks of {target}:\n{body}"
    );
    let (status, body) = get(
        &mut s,
        &format!(
            "http://{}/backlinks?url={}&max=2&format=json",
            web.search_host(),
            target
        ),
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    let list: Vec<String> = serde_json::from_slice(&body).unwrap();
    assert!(!list.is_empty() && list.len() <= 2);
    handle.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_delay_proxy_relays_each_answer_after_its_urls_delay() {
    let web = small_web();
    let upstream = serve(web.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let latency = Latency::one_server(60, 0.5, 9);
    let proxy = delay_proxy(upstream.addr(), "127.0.0.1:0".parse().unwrap(), latency)
        .await
        .unwrap();
    let mut direct = connect(upstream.addr()).await;
    let mut proxied = connect(proxy.addr()).await;
    for pid in [0, 7, 40] {
        let url = web.page_url(pid).unwrap();
        let (host, path) = url["http://".len()..].split_once('/').unwrap();
        let want = get(&mut direct, &url).await.unwrap();
        let started = std::time::Instant::now();
        let got = get(&mut proxied, &url).await.unwrap();
        let waited = started.elapsed();
        // The same answer, Host header passed on (the websim dispatches on it).
        assert_eq!(got, want, "{url}");
        assert_eq!(got.0, 200);
        let delay = latency.of(host, &format!("/{path}"));
        assert!(
            waited >= delay && waited < delay + Duration::from_secs(2),
            "{url}: waited {waited:?} for a delay of {delay:?}"
        );
    }
    // A missing page's 404 comes through as the upstream sent it.
    let host = web.page_url(0).unwrap()["http://".len()..]
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let missing = format!("http://{host}/no-such-page-here.html");
    assert_eq!(get(&mut proxied, &missing).await.unwrap().0, 404);
    // With the upstream gone, the proxy answers 502 rather than hanging.
    upstream.shutdown().await;
    let mut fresh = connect(proxy.addr()).await;
    let gone = tokio::time::timeout(Duration::from_secs(10), get(&mut fresh, &missing))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(gone.0, 502);
    proxy.shutdown().await;
}
