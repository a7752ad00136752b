//! The connector under the pooled hyper client: curl-style connect-to
//! overrides, DNS, the SSRF guard, TCP with a connect timeout, and rustls
//! (ALPN h2 / http/1.1) for https.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

use crate::config::{ConnectTo, FetchConfig};

/// Why a connection could not be made.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConnectError {
    #[error("refusing non-public address {0} (SSRF guard; allow with allow_private)")]
    Ssrf(IpAddr),
    #[error("DNS: {0}")]
    Dns(String),
    #[error("connect: {0}")]
    Io(#[from] io::Error),
    #[error("connect timed out")]
    Timeout,
    #[error("TLS: {0}")]
    Tls(String),
    #[error("URL has no host")]
    NoHost,
}

/// The remote address of a response's connection (for (IP, path) dedup).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PeerAddr(pub(crate) SocketAddr);

/// Builds the rustls client configuration: webpki roots plus extra CAs.
pub(crate) fn tls_config(cfg: &FetchConfig) -> Result<rustls::ClientConfig, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(pem) = &cfg.extra_ca_pem {
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(|e| format!("extra CA PEM: {e}"))?;
            roots.add(cert).map_err(|e| format!("extra CA: {e}"))?;
            added += 1;
        }
        if added == 0 {
            return Err("extra CA PEM holds no certificate".to_owned());
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// True for addresses a crawler of the public web must not reach.
/// A name under the special-use `.invalid` domain (RFC 6761 §6.4), which
/// resolvers must answer at once with "no such name", whatever a
/// `connect_to` rule says.
pub(crate) fn is_reserved_invalid(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    host.eq_ignore_ascii_case("invalid")
        || host
            .len()
            .checked_sub(8)
            .and_then(|i| host.get(i..))
            .is_some_and(|t| t.eq_ignore_ascii_case(".invalid"))
}

pub(crate) fn is_non_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
                || (o[0] == 198 && (o[1] == 18 || o[1] == 19))
                || o[0] >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_non_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || s[0] == 0x2001 && s[1] == 0xdb8
        }
    }
}

/// The connector service handed to hyper-util's pooled client.
#[derive(Clone)]
pub(crate) struct Connector {
    rules: Arc<Vec<ConnectTo>>,
    allow_private: bool,
    connect_timeout: Duration,
    tls: TlsConnector,
}

impl Connector {
    pub(crate) fn new(cfg: &FetchConfig, tls: rustls::ClientConfig) -> Self {
        Self {
            rules: Arc::new(cfg.connect_to.clone()),
            allow_private: cfg.allow_private,
            connect_timeout: cfg.connect_timeout,
            tls: TlsConnector::from(Arc::new(tls)),
        }
    }

    async fn connect(self, uri: Uri) -> Result<Stream, ConnectError> {
        let host = uri
            .host()
            .ok_or(ConnectError::NoHost)?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let https = uri.scheme_str() == Some("https");
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        if is_reserved_invalid(&host) {
            return Err(ConnectError::Dns(format!(
                "{host}: a .invalid name never resolves (RFC 6761)"
            )));
        }
        let rule = self.rules.iter().find(|r| r.matches(&host, port));
        let (target_host, target_port, overridden, plain) = match rule {
            Some(r) => (r.to_host.clone(), r.to_port, true, r.plain),
            None => (host.clone(), port, false, false),
        };
        let addrs: Vec<SocketAddr> = tokio::time::timeout(
            self.connect_timeout,
            tokio::net::lookup_host((target_host.as_str(), target_port)),
        )
        .await
        .map_err(|_| ConnectError::Timeout)?
        .map_err(|e| ConnectError::Dns(format!("{target_host}: {e}")))?
        .collect();
        let first = addrs
            .first()
            .copied()
            .ok_or_else(|| ConnectError::Dns(format!("{target_host}: no address")))?;
        // The operator chose the override target; everything else is checked.
        if !overridden && !self.allow_private {
            if let Some(bad) = addrs.iter().find(|a| is_non_public(a.ip())) {
                return Err(ConnectError::Ssrf(bad.ip()));
            }
        }
        let tcp = tokio::time::timeout(self.connect_timeout, TcpStream::connect(first))
            .await
            .map_err(|_| ConnectError::Timeout)??;
        tcp.set_nodelay(true)?;
        if !https || plain {
            return Ok(Stream::Plain(TokioIo::new(tcp), first));
        }
        let name = ServerName::try_from(host).map_err(|e| ConnectError::Tls(e.to_string()))?;
        let tls = tokio::time::timeout(self.connect_timeout, self.tls.connect(name, tcp))
            .await
            .map_err(|_| ConnectError::Timeout)?
            .map_err(|e| ConnectError::Tls(e.to_string()))?;
        Ok(Stream::Tls(Box::new(TokioIo::new(tls)), first))
    }
}

impl tower_service::Service<Uri> for Connector {
    type Response = Stream;
    type Error = ConnectError;
    type Future = Pin<Box<dyn Future<Output = Result<Stream, ConnectError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        Box::pin(self.clone().connect(uri))
    }
}

/// A plain or TLS connection.
pub(crate) enum Stream {
    Plain(TokioIo<TcpStream>, SocketAddr),
    Tls(Box<TokioIo<TlsStream<TcpStream>>>, SocketAddr),
}

impl Connection for Stream {
    fn connected(&self) -> Connected {
        match self {
            Stream::Plain(_, addr) => Connected::new().extra(PeerAddr(*addr)),
            Stream::Tls(s, addr) => {
                let c = Connected::new().extra(PeerAddr(*addr));
                if s.inner().get_ref().1.alpn_protocol() == Some(b"h2") {
                    c.negotiated_h2()
                } else {
                    c
                }
            }
        }
    }
}

impl Read for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s, _) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s, _) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl Write for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s, _) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s, _) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s, _) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s, _) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s, _) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s, _) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_names_are_reserved() {
        for h in ["invalid", "a.invalid", "www.Shop-3.INVALID", "x.invalid."] {
            assert!(is_reserved_invalid(h), "{h}");
        }
        for h in ["invalid.org", "notinvalid", "a.invalidx", "example.test"] {
            assert!(!is_reserved_invalid(h), "{h}");
        }
    }

    #[test]
    fn non_public_ranges() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.1.1",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_non_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "8.8.8.8", "2606:4700::1111"] {
            assert!(!is_non_public(ip.parse().unwrap()), "{ip}");
        }
    }
}
