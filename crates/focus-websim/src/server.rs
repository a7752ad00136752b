//! The HTTP/1.1 server: one loopback listener (large accept backlog) whose
//! connections are served by hyper; each request is dispatched on its `Host`
//! header to [`Site::render`], and the response's [`Action`] (delay, stall,
//! reset) is carried out here, after the web's [`Latency`] when one is set.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Frame;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

use crate::latency::Latency;
use crate::response::Action;
use crate::site::Site;
use crate::WebsimError;

/// Accept backlog of the listener.
const BACKLOG: i32 = 4096;

/// A response body: whole, or a first chunk followed by a stall and an abort.
enum WBody {
    Full(Option<Bytes>),
    Stall {
        first: Option<Bytes>,
        sleep: Pin<Box<tokio::time::Sleep>>,
        done: bool,
    },
}

impl http_body::Body for WBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        match self.get_mut() {
            WBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            WBody::Stall { first, sleep, done } => {
                if let Some(b) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(b))));
                }
                if *done {
                    return Poll::Ready(None);
                }
                match sleep.as_mut().poll(cx) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(()) => {
                        *done = true;
                        Poll::Ready(Some(Err(std::io::Error::other("stalled response aborted"))))
                    }
                }
            }
        }
    }
}

/// A running server; dropping it leaves the server running until the
/// runtime ends, [`ServerHandle::shutdown`] stops it.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl ServerHandle {
    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The curl-style connect-to override sending every host and port here
    /// (`::127.0.0.1:PORT`).
    pub fn connect_to(&self) -> String {
        format!("::{}:{}", self.addr.ip(), self.addr.port())
    }

    /// Stop accepting, drop open connections and wait for the server task.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

pub(crate) fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        None,
    )?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    socket.set_nonblocking(true)?;
    TcpListener::from_std(socket.into())
}

async fn answer<S: Site + ?Sized>(
    web: Arc<S>,
    latency: Latency,
    req: hyper::Request<hyper::body::Incoming>,
) -> Result<hyper::Response<WBody>, std::io::Error> {
    let host = req
        .headers()
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().host().map(str::to_string))
        .unwrap_or_default();
    let pq = req
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let head = req.method() == http::Method::HEAD;
    let wait = latency.of(&host, &pq);
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
    let resp = web.render(&host, &pq);
    let mut builder = hyper::Response::builder().status(resp.status);
    for (k, v) in &resp.headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    builder = builder.header("server", "websim");
    let body = match resp.action {
        Action::Reset => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionReset,
                "reset",
            ))
        }
        Action::Delay(ms) => {
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            WBody::Full(Some(resp.body))
        }
        Action::Stall { sent, ms } => {
            builder = builder.header("content-length", resp.body.len());
            WBody::Stall {
                first: Some(resp.body.slice(..sent.min(resp.body.len()))),
                sleep: Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms))),
                done: false,
            }
        }
        Action::Respond => WBody::Full(Some(resp.body)),
    };
    let body = if head { WBody::Full(None) } else { body };
    builder.body(body).map_err(std::io::Error::other)
}

/// Serve `web` (the synthetic web, a replayed corpus or any [`Site`]) on
/// `addr` (use `127.0.0.1:0` for any free port) on the current tokio
/// runtime, answering at loopback speed.
pub async fn serve<S: Site + ?Sized + 'static>(
    web: Arc<S>,
    addr: SocketAddr,
) -> Result<ServerHandle, WebsimError> {
    serve_with(web, addr, Latency::NONE).await
}

/// [`serve`], each answer after the delay `latency` draws for its URL
/// (before the site's own action: a fault host's delay or stall comes on
/// top).
pub async fn serve_with<S: Site + ?Sized + 'static>(
    web: Arc<S>,
    addr: SocketAddr,
    latency: Latency,
) -> Result<ServerHandle, WebsimError> {
    let listener = bind(addr).map_err(WebsimError::Server)?;
    accept_until_stopped(listener, move |stream| {
        let web = web.clone();
        async move {
            let svc = service_fn(move |req| answer(web.clone(), latency, req));
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), svc)
                .await;
        }
    })
}

/// Accept connections on `listener` until [`ServerHandle::shutdown`], each
/// served by `conn` on a task of its own (the websim's server and the
/// delaying proxy).
pub(crate) fn accept_until_stopped<F, Fut>(
    listener: TcpListener,
    conn: F,
) -> Result<ServerHandle, WebsimError>
where
    F: Fn(TcpStream) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let addr = listener.local_addr().map_err(WebsimError::Server)?;
    let (stop, mut stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let mut conns = JoinSet::new();
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                accepted = listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    let _ = stream.set_nodelay(true);
                    conns.spawn(conn(stream));
                    while conns.try_join_next().is_some() {}
                }
            }
        }
        conns.abort_all();
        while conns.join_next().await.is_some() {}
    });
    Ok(ServerHandle {
        addr,
        stop: Some(stop),
        task,
    })
}
