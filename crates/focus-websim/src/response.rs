//! [`Response`]: one answer of a web (the synthetic one or a replayed
//! corpus) as the server sends it, with the [`Action`] it takes besides
//! answering (a delay, a stall, a reset), and the answers every site gives
//! alike (not found, redirect, server error, unavailable).

use bytes::Bytes;

/// What the server must do besides sending the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Send the response at once.
    Respond,
    /// Wait this many milliseconds, then send the response.
    Delay(u64),
    /// Send the headers and the first `sent` body bytes, then stall for
    /// `ms` milliseconds and close the connection (a truncated body).
    Stall {
        /// Body bytes sent before the stall.
        sent: usize,
        /// Stall duration in milliseconds.
        ms: u64,
    },
    /// Close the connection without any response.
    Reset,
}

/// One answer of the web.
#[derive(Debug, Clone)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// Response headers (name, value).
    pub headers: Vec<(String, String)>,
    /// The body as sent (already gzip-encoded when `Content-Encoding` says so).
    pub body: Bytes,
    /// What the server does besides answering.
    pub action: Action,
}

impl Response {
    pub(crate) fn new(status: u16, content_type: &str, body: impl Into<Bytes>) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
            action: Action::Respond,
        }
    }

    pub(crate) fn html(status: u16, body: impl Into<Bytes>) -> Self {
        Self::new(status, "text/html; charset=utf-8", body)
    }

    /// A redirect (`status` 301, 302, ...) to `location`, with a body
    /// linking to it as servers write one.
    pub(crate) fn redirect(status: u16, location: &str) -> Self {
        Self::html(
            status,
            format!("<html><body><a href=\"{location}\">Moved</a></body></html>\n"),
        )
        .with_header("location", location)
    }

    pub(crate) fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn server_error() -> Self {
        Self::html(
            500,
            "<html><body><h1>Internal Server Error</h1></body></html>\n",
        )
    }

    /// 503 asking the client to come back after `retry_after` seconds.
    pub(crate) fn unavailable(retry_after: u32) -> Self {
        Self::html(
            503,
            "<html><body><h1>Service Unavailable</h1></body></html>\n",
        )
        .with_header("retry-after", retry_after.to_string())
    }

    /// The connection is closed without an answer.
    pub(crate) fn reset() -> Self {
        Self {
            action: Action::Reset,
            ..Self::not_found()
        }
    }

    pub(crate) fn not_found() -> Self {
        Self::html(
            404,
            "<html><head><title>Not Found</title></head><body><h1>Not Found</h1></body></html>\n",
        )
    }
}
