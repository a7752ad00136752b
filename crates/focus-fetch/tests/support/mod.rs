//! A loopback test server producing every fault class the fetcher must
//! handle, dispatching on the Host header; plus a raw listener that resets
//! connections and a TLS listener with a certificate generated in the test.

#![allow(dead_code, unreachable_pub)]

use std::convert::Infallible;
use std::future::Future as _;
use std::io::Write as _;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use focus_fetch::{ConnectTo, FetchConfig};
use http::{Request, Response, StatusCode};
use http_body::{Body, Frame};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

/// A response body that can be complete, chunked, or stall mid-stream.
pub enum TestBody {
    Full(Option<Bytes>),
    Chunks {
        chunk: Bytes,
        remaining: usize,
    },
    Stall {
        first: Option<Bytes>,
        sleep: Pin<Box<tokio::time::Sleep>>,
    },
}

impl Body for TestBody {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            TestBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            TestBody::Chunks { chunk, remaining } => {
                if *remaining == 0 {
                    Poll::Ready(None)
                } else {
                    *remaining -= 1;
                    Poll::Ready(Some(Ok(Frame::data(chunk.clone()))))
                }
            }
            TestBody::Stall { first, sleep } => {
                if let Some(b) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(b))));
                }
                sleep.as_mut().poll(cx).map(|()| None)
            }
        }
    }
}

fn html(body: &str) -> Response<TestBody> {
    Response::builder()
        .header("content-type", "text/html; charset=utf-8")
        .body(TestBody::Full(Some(Bytes::from(body.to_owned()))))
        .unwrap()
}

fn status(code: u16) -> Response<TestBody> {
    Response::builder()
        .status(code)
        .body(TestBody::Full(Some(Bytes::from_static(b"error"))))
        .unwrap()
}

fn redirect(to: &str) -> Response<TestBody> {
    Response::builder()
        .status(302)
        .header("location", to)
        .body(TestBody::Full(None))
        .unwrap()
}

/// 1 GiB of zeros, gzip-compressed (about 1 MiB), built once.
pub fn gzip_bomb() -> Bytes {
    static BOMB: OnceLock<Bytes> = OnceLock::new();
    BOMB.get_or_init(|| {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..1024 {
            gz.write_all(&zeros).unwrap();
        }
        Bytes::from(gz.finish().unwrap())
    })
    .clone()
}

async fn route(req: Request<Incoming>) -> Result<Response<TestBody>, Infallible> {
    let host = req
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("")
        .to_owned();
    let path = req.uri().path().to_owned();
    let resp = match (host.as_str(), path.as_str()) {
        ("robots.test", "/robots.txt") => Response::builder()
            .body(TestBody::Full(Some(Bytes::from_static(
                b"User-agent: *\nDisallow: /private\nAllow: /private/open\n",
            ))))
            .unwrap(),
        ("robots500.test", "/robots.txt") => status(500),
        (_, "/robots.txt") => status(404),
        ("redirect.test", p) if p.starts_with("/r/") => {
            let n: u32 = p[3..].parse().unwrap_or(0);
            if n == 0 {
                html("<title>landed</title>")
            } else {
                redirect(&format!("/r/{}", n - 1))
            }
        }
        ("redirect.test", "/loop/a") => redirect("/loop/b"),
        ("redirect.test", "/loop/b") => redirect("http://redirect.test/loop/a"),
        ("throttle.test", _) => Response::builder()
            .status(429)
            .header("retry-after", "1")
            .body(TestBody::Full(Some(Bytes::from_static(b"slow down"))))
            .unwrap(),
        ("status.test", p) => status(p.trim_start_matches('/').parse().unwrap_or(500)),
        ("slow.test", _) => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            html("late")
        }
        ("stall.test", _) => Response::builder()
            .header("content-type", "text/html")
            .body(TestBody::Stall {
                first: Some(Bytes::from_static(b"<html><body>first part")),
                sleep: Box::pin(tokio::time::sleep(Duration::from_secs(30))),
            })
            .unwrap(),
        ("types.test", "/img.png") => Response::builder()
            .header("content-type", "image/png")
            .body(TestBody::Full(Some(Bytes::from_static(b"\x89PNG"))))
            .unwrap(),
        ("types.test", "/doc.pdf") => Response::builder()
            .header("content-type", "application/pdf")
            .body(TestBody::Full(Some(Bytes::from_static(b"%PDF-1.4"))))
            .unwrap(),
        ("big.test", "/declared") => Response::builder()
            .header("content-type", "text/html")
            .header("content-length", "100000000")
            .body(TestBody::Chunks {
                chunk: Bytes::from(vec![b'a'; 1 << 20]),
                remaining: 100,
            })
            .unwrap(),
        ("big.test", "/stream") => Response::builder()
            .header("content-type", "text/html")
            .body(TestBody::Chunks {
                chunk: Bytes::from(vec![b'a'; 64 << 10]),
                remaining: 1000,
            })
            .unwrap(),
        ("bomb.test", _) => Response::builder()
            .header("content-type", "text/html")
            .header("content-encoding", "gzip")
            .body(TestBody::Full(Some(gzip_bomb())))
            .unwrap(),
        ("br.test", _) => {
            let mut enc = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
            enc.write_all(b"<title>brotli</title>").unwrap();
            Response::builder()
                .header("content-type", "text/html")
                .header("content-encoding", "br")
                .body(TestBody::Full(Some(Bytes::from(enc.into_inner()))))
                .unwrap()
        }
        ("charset.test", "/latin1") => Response::builder()
            .header("content-type", "text/html; charset=ISO-8859-1")
            .body(TestBody::Full(Some(Bytes::from_static(b"caf\xe9"))))
            .unwrap(),
        ("charset.test", "/meta") => Response::builder()
            .header("content-type", "text/html")
            .body(TestBody::Full(Some(Bytes::from_static(
                b"<meta charset=\"windows-1252\"><p>na\xefve",
            ))))
            .unwrap(),
        ("xrobots.test", _) => Response::builder()
            .header("content-type", "text/html")
            .header("x-robots-tag", "noindex, nofollow")
            .body(TestBody::Full(Some(Bytes::from_static(b"hidden"))))
            .unwrap(),
        (_, "/" | "/page") => html(&format!(
            "<title>{host}</title><p>{}</p>",
            "word ".repeat(4000)
        )),
        _ => status(404),
    };
    Ok(resp)
}

async fn serve_conn<IO>(io: IO)
where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(io, service_fn(route))
        .await;
}

/// The running servers and the connect-to rules that reach them.
pub struct TestWeb {
    pub http: SocketAddr,
    pub reset: SocketAddr,
    pub tls: SocketAddr,
    pub ca_pem: Vec<u8>,
}

impl TestWeb {
    pub fn connect_to(&self) -> Vec<ConnectTo> {
        vec![
            ConnectTo::parse(&format!("reset.test::127.0.0.1:{}", self.reset.port())).unwrap(),
            ConnectTo::parse(&format!("secure.test:443:127.0.0.1:{}", self.tls.port())).unwrap(),
            ConnectTo::parse(&format!("::127.0.0.1:{}", self.http.port())).unwrap(),
        ]
    }

    /// A loopback fetcher config with short deadlines for tests.
    pub fn config(&self) -> FetchConfig {
        let mut cfg = FetchConfig::loopback(self.connect_to());
        cfg.extra_ca_pem = Some(self.ca_pem.clone());
        cfg.first_byte_timeout = Duration::from_millis(400);
        cfg.total_timeout = Duration::from_millis(600);
        cfg.retries = 1;
        cfg.retry_backoff = Duration::from_millis(5);
        cfg.max_html_bytes = 1 << 20;
        cfg
    }
}

/// Starts every server on 127.0.0.1 ephemeral ports.
pub async fn start() -> TestWeb {
    let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let http_addr = http.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((s, _)) = http.accept().await {
            tokio::spawn(serve_conn(TokioIo::new(s)));
        }
    });

    // Reads nothing and drops the socket: the kernel answers with a reset.
    let reset = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let reset_addr = reset.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((s, _)) = reset.accept().await {
            drop(s);
        }
    });

    let cert = rcgen::generate_simple_self_signed(vec!["secure.test".to_owned()]).unwrap();
    let ca_pem = cert.cert.pem().into_bytes();
    let key = rustls::pki_types::PrivateKeyDer::try_from(cert.signing_key.serialize_der()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut server_cfg = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.cert.der().clone()], key)
        .unwrap();
    server_cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(server_cfg));
    let tls = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let tls_addr = tls.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((s, _)) = tls.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                if let Ok(stream) = acceptor.accept(s).await {
                    serve_conn(TokioIo::new(stream)).await;
                }
            });
        }
    });

    TestWeb {
        http: http_addr,
        reset: reset_addr,
        tls: tls_addr,
        ca_pem,
    }
}

/// A status code for tests.
pub fn code(s: u16) -> StatusCode {
    StatusCode::from_u16(s).unwrap()
}
