//! A delaying proxy: [`delay_proxy`] forwards every request to one upstream
//! server after the delay a [`Latency`] draws for its URL and relays the
//! answer unchanged, so a stock server's pages (nginx serving `websim
//! export`, say) arrive with the answer times of a server across the
//! internet. The peer benchmark crawls through it (`cargo xtask bench
//! --peers`, "With latency").

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{Either, Empty, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};

use crate::latency::Latency;
use crate::server::{accept_until_stopped, bind, ServerHandle};
use crate::WebsimError;

/// The proxy's client to the upstream server (connections kept and reused).
type Upstream = Client<HttpConnector, Empty<Bytes>>;

/// An answer: the upstream's, streamed through, or the proxy's own 502.
type Answer = hyper::Response<Either<Incoming, Full<Bytes>>>;

/// Serve on `addr` (`127.0.0.1:0` for any free port), on the current
/// tokio runtime, a proxy that answers each request with `upstream`'s
/// answer to it (method, path, query and headers, the `Host` header
/// included, passed on as they came; a request body is not) after the
/// delay `latency` draws for its `Host` and path. An upstream that cannot
/// be reached is answered 502.
pub async fn delay_proxy(
    upstream: SocketAddr,
    addr: SocketAddr,
    latency: Latency,
) -> Result<ServerHandle, WebsimError> {
    let listener = bind(addr).map_err(WebsimError::Server)?;
    let client: Upstream = Client::builder(TokioExecutor::new()).build_http();
    accept_until_stopped(listener, move |stream| {
        let client = client.clone();
        async move {
            let svc = service_fn(move |req| forward(client.clone(), upstream, latency, req));
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), svc)
                .await;
        }
    })
}

async fn forward(
    client: Upstream,
    upstream: SocketAddr,
    latency: Latency,
    req: hyper::Request<Incoming>,
) -> Result<Answer, http::Error> {
    let pq = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let host = req
        .headers()
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let wait = latency.of(host, pq);
    let mut onward = hyper::Request::builder()
        .method(req.method())
        .uri(format!("http://{upstream}{pq}"));
    for (name, value) in req.headers() {
        onward = onward.header(name, value);
    }
    let onward = onward.body(Empty::new())?;
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
    match client.request(onward).await {
        Ok(resp) => Ok(resp.map(Either::Left)),
        Err(e) => hyper::Response::builder()
            .status(http::StatusCode::BAD_GATEWAY)
            .body(Either::Right(Full::new(Bytes::from(format!(
                "upstream {upstream}: {e}\n"
            ))))),
    }
}
