//! The fault hosts: the URLs regular pages link to on each, and their
//! answers (redirect chains and loops, 404/410/500/503, slow, stalled and
//! reset responses, non-HTML types, oversized and malformed pages, gzip, an
//! infinite calendar, session-id variants and near-duplicate mirrors).

use std::fmt::Write as _;
use std::io::Write as _;

use bytes::Bytes;

use crate::config::FaultKind;
use crate::html::Dress;
use crate::response::{Action, Response};
use crate::urls::parse_path;
use crate::web::{is_mirror, Web};

impl Web {
    /// The URL a regular page uses to link to fault host `fault`.
    pub(crate) fn fault_url(&self, fault: u16, n: u32) -> String {
        let Some(spec) = self.faults.get(fault as usize) else {
            return "/".into();
        };
        let host = &spec.host;
        match spec.kind {
            FaultKind::RedirectChain => format!("http://{host}/go/{}/{n}", 1 + n % 5),
            FaultKind::RedirectLoop => format!("http://{host}/loop/a/{n}"),
            FaultKind::NotFound
            | FaultKind::Gone
            | FaultKind::ServerError
            | FaultKind::Unavailable
            | FaultKind::Reset => {
                format!("http://{host}/item-{n}.html")
            }
            FaultKind::NonHtml => {
                let ext = ["pdf", "jpg", "zip", "html"][(n % 4) as usize];
                format!("http://{host}/files/file-{n}.{ext}")
            }
            FaultKind::Oversized => format!("http://{host}/big/{n}.html"),
            FaultKind::Calendar => {
                format!("http://{host}/calendar/{}/{}/", 2000 + n % 30, 1 + n % 12)
            }
            FaultKind::SessionId => format!(
                "http://{host}/?sid={:016x}",
                crate::rng::hash3(self.seed, u64::from(n), 0x5e, 1)
            ),
            _ => {
                // Mirrors: a page of the mirrored host.
                let h = self.mirror_of[fault as usize];
                let hst = &self.hosts.hosts[h as usize];
                let l = n % hst.len;
                format!(
                    "http://{host}{}",
                    crate::urls::page_path(&self.topics, self.seed, hst, l)
                )
            }
        }
    }

    pub(crate) fn render_fault(&self, fault: u16, path: &str, query: &str) -> Response {
        let kind = self.faults[fault as usize].kind;
        if path == "/robots.txt" {
            let body = if kind == FaultKind::RobotsForbidden {
                "User-agent: *\nDisallow: /\n"
            } else {
                "User-agent: *\nDisallow:\n"
            };
            return Response::new(200, "text/plain; charset=utf-8", body);
        }
        let num = |s: &str| s.trim_end_matches(".html").parse::<u32>().ok();
        let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
        match kind {
            FaultKind::RedirectChain => match segs.as_slice() {
                ["go", k, n] => match (num(k), num(n)) {
                    (Some(0), Some(n)) => match self.page_url(n) {
                        Some(u) => Response::redirect(301, &u),
                        None => Response::not_found(),
                    },
                    (Some(k), Some(n)) => {
                        let status = [301, 302, 307, 308][(k % 4) as usize];
                        let host = &self.faults[fault as usize].host;
                        let loc = if k % 2 == 0 {
                            format!("/go/{}/{n}", k - 1)
                        } else {
                            format!("http://{host}/go/{}/{n}", k - 1)
                        };
                        Response::redirect(status, &loc)
                    }
                    _ => Response::not_found(),
                },
                _ => Response::not_found(),
            },
            FaultKind::RedirectLoop => match segs.as_slice() {
                ["loop", "a", n] => Response::redirect(302, &format!("/loop/b/{n}")),
                ["loop", "b", n] => Response::redirect(302, &format!("/loop/a/{n}")),
                _ => Response::not_found(),
            },
            FaultKind::NotFound => Response::not_found(),
            FaultKind::Gone => Response::html(410, "<html><body><h1>Gone</h1></body></html>\n"),
            FaultKind::ServerError => Response::server_error(),
            FaultKind::Unavailable => Response::unavailable(120),
            FaultKind::Reset => Response::reset(),
            FaultKind::NonHtml => non_html(path),
            FaultKind::Oversized => {
                if segs.first() != Some(&"big") {
                    return Response::not_found();
                }
                let body = self.oversized.get_or_init(|| self.oversized_body()).clone();
                Response::html(200, body)
            }
            FaultKind::Calendar => calendar(&segs),
            _ if is_mirror(kind) => self.render_mirror(fault, kind, path, query),
            _ => Response::not_found(),
        }
    }

    fn render_mirror(&self, fault: u16, kind: FaultKind, path: &str, query: &str) -> Response {
        let h = self.mirror_of[fault as usize];
        let host = &self.hosts.hosts[h as usize];
        let Some(l) = parse_path(&self.topics, self.seed, host, path) else {
            return Response::not_found();
        };
        let mut dress = Dress::default();
        if kind == FaultKind::SessionId {
            let sid = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("sid="))
                .and_then(|s| u64::from_str_radix(s, 16).ok())
                .unwrap_or(0);
            dress.sid = Some(crate::rng::mix64(sid ^ self.seed));
        }
        if kind == FaultKind::Mirror {
            dress.mirror_of = Some(&host.name);
        }
        let html = self.render_page(h, l, dress);
        match kind {
            FaultKind::Slow => Response {
                action: Action::Delay(self.config.slow_ms),
                ..Response::html(200, html)
            },
            FaultKind::Stall => {
                let sent = html.len().min(512);
                Response {
                    action: Action::Stall {
                        sent,
                        ms: self.config.stall_ms,
                    },
                    ..Response::html(200, html)
                }
            }
            FaultKind::Malformed => Response::html(200, malform(&html))
                .with_header("content-type", "text/html; charset=bogus-8"),
            FaultKind::Gzip => {
                let mut enc =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                let body = enc.write_all(html.as_bytes()).and_then(|()| enc.finish());
                match body {
                    Ok(b) => Response::html(200, b)
                        .with_header("content-encoding", "gzip")
                        .with_header("vary", "Accept-Encoding"),
                    Err(_) => Response::html(500, "gzip failed"),
                }
            }
            _ => Response::html(200, html),
        }
    }

    fn oversized_body(&self) -> Bytes {
        let target = self.config.oversized_bytes.max(1024);
        let mut s = String::with_capacity(target + 256);
        s.push_str("<!DOCTYPE html><html><head><title>Complete archive</title></head><body><h1>Complete archive</h1>\n");
        let mut i = 0u32;
        while s.len() < target {
            let pid = i % self.hosts.pages.max(1);
            let _ = write!(s, "<p>Entry {i}: ");
            if let Some(url) = self.page_url(pid) {
                let _ = write!(s, "<a href=\"{url}\">archived entry {i}</a> ");
            }
            s.push_str(
                "lorem archive data repeated for the complete listing of every record.</p>\n",
            );
            i += 1;
        }
        s.push_str("</body></html>\n");
        Bytes::from(s)
    }
}

fn non_html(path: &str) -> Response {
    let ext = path.rsplit('.').next().unwrap_or("");
    match ext {
        "pdf" => Response::new(200, "application/pdf", Bytes::from_static(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")),
        "jpg" => Response::new(200, "image/jpeg", Bytes::from_static(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9")),
        "zip" => Response::new(200, "application/zip", Bytes::from_static(b"PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")),
        "html" => Response::new(200, "application/octet-stream", Bytes::from_static(b"\x00\x01\x02binary\x00data\xff\xfe")),
        _ => Response::not_found(),
    }
}

fn calendar(segs: &[&str]) -> Response {
    let p = |s: &str| s.parse::<u32>().ok();
    let (y, m, d) = match segs {
        ["calendar", y, m] => (p(y), p(m), None),
        ["calendar", y, m, d] => (p(y), p(m), p(d)),
        _ => return Response::not_found(),
    };
    let (Some(y), Some(m)) = (y, m) else {
        return Response::not_found();
    };
    if !(1..=12).contains(&m) || y > 99_999 {
        return Response::not_found();
    }
    let (py, pm) = if m == 1 {
        (y.saturating_sub(1), 12)
    } else {
        (y, m - 1)
    };
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    let mut s = format!("<!DOCTYPE html><html><head><title>Events calendar {y}-{m:02}</title></head><body><h1>Events {y}-{m:02}</h1>\n");
    let _ = write!(s, "<p><a href=\"/calendar/{py}/{pm}/\">Previous month</a> | <a href=\"/calendar/{ny}/{nm}/\">Next month</a></p>\n<ul>\n");
    if let Some(d) = d {
        let _ = writeln!(
            s,
            "<p>No events on {y}-{m:02}-{d:02}.</p><a href=\"/calendar/{y}/{m}/{}/\">Next day</a>",
            d % 28 + 1
        );
    } else {
        for day in 1..=28 {
            let _ = writeln!(s, "<li><a href=\"/calendar/{y}/{m}/{day}/\">{day}</a></li>");
        }
    }
    s.push_str("</ul></body></html>\n");
    Response::html(200, s)
}

/// Break an HTML page the way real pages are broken.
fn malform(html: &str) -> String {
    let mut s = html
        .replace("</p>", "")
        .replace("</li>", "")
        .replace("</ul>", "<ul>")
        .replace("<h2>", "<h2><b><i>")
        .replace("</h2>", "</b></h2>")
        .replacen("<a href=\"", "<a href=", 3)
        .replacen("\">", " >", 3);
    s = s.replace(
        "<body>",
        "<body><table><tr><td><div><font size=2>&nbsp &copy <<>",
    );
    s.push_str("<!-- unterminated comment <a href=\"/hidden.html\">x</a>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_is_infinite_and_bounded_per_page() {
        let r = calendar(&["calendar", "2026", "12"]);
        let body = String::from_utf8_lossy(&r.body).to_string();
        assert!(body.contains("/calendar/2027/1/"));
        assert!(body.contains("/calendar/2026/11/"));
        assert_eq!(calendar(&["calendar", "2026", "13"]).status, 404);
    }
}
