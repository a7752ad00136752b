//! A raw HTTP/1.1 client over tokio TCP for the nginx self-check: one
//! request with a `Host` header, `Connection: close`, the response read
//! under a deadline. Nothing of the crawler's fetcher, so the check says
//! what nginx does and nothing else.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What came back (or as much as arrived before the deadline).
#[derive(Debug)]
pub(crate) struct Response {
    /// The status code of the status line.
    pub(crate) status: u16,
    /// Header fields, names in lower case.
    pub(crate) headers: Vec<(String, String)>,
    /// Body bytes received, de-chunked but still content-encoded, possibly
    /// cut by the deadline.
    pub(crate) body: Vec<u8>,
    /// Whether the server closed the connection before the deadline.
    pub(crate) complete: bool,
}

impl Response {
    /// The first value of a header.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (lossy).
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `METHOD path` for `host` to 127.0.0.1:`port` with `extra` header
/// lines, and reads the response until the server closes or `read_for`
/// passes.
pub(crate) async fn request(
    port: u16,
    method: &str,
    host: &str,
    path: &str,
    extra: &[&str],
    read_for: Duration,
) -> Response {
    let mut stream = tokio::time::timeout(
        Duration::from_secs(2),
        TcpStream::connect(("127.0.0.1", port)),
    )
    .await
    .expect("connect within 2 s")
    .expect("connect");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for line in extra {
        head.push_str(line);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();

    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let deadline = tokio::time::Instant::now() + read_for;
    let mut complete = false;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(0)) => {
                complete = true;
                break;
            }
            Ok(Ok(n)) => raw.extend_from_slice(&buf[..n]),
            Ok(Err(e)) => panic!("reading {host}{path}: {e}"),
            Err(_) => break,
        }
    }
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("{host}{path}: no complete header in {} bytes", raw.len()));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{host}{path}: bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = &raw[end + 4..];
    Response {
        status,
        body: if chunked {
            dechunk(body)
        } else {
            body.to_vec()
        },
        headers,
        complete,
    }
}

/// The data of a chunked body (as much of it as is whole).
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&raw[..eol])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok());
        let Some(size) = size.filter(|&n| n > 0) else {
            break;
        };
        let data = &raw[eol + 2..];
        if data.len() < size {
            out.extend_from_slice(data);
            break;
        }
        out.extend_from_slice(&data[..size]);
        raw = data.get(size + 2..).unwrap_or_default();
    }
    out
}
