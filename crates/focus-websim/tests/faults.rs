//! Every fault class answers as documented in docs/websim.md, through
//! `Web::render` (no network), and the keyword search service finds pages.

use std::io::Read as _;

use focus_websim::{FaultKind, Web, WebConfig};

fn web() -> Web {
    let mut c = WebConfig::small();
    c.oversized_bytes = 100_000;
    Web::new(c, 1).unwrap()
}

fn host(web: &Web, k: FaultKind) -> String {
    web.faults()
        .iter()
        .find(|f| f.kind == k)
        .unwrap()
        .host
        .clone()
}

fn body(r: &focus_websim::Response) -> String {
    String::from_utf8_lossy(&r.body).to_string()
}

#[test]
fn redirect_chain_ends_on_a_real_page_and_loop_loops() {
    let web = web();
    let h = host(&web, FaultKind::RedirectChain);
    let mut path = "/go/3/42".to_string();
    let mut host_now = h.clone();
    let mut hops = 0;
    loop {
        let r = web.render(&host_now, &path);
        if r.status == 200 {
            break;
        }
        assert!([301, 302, 307, 308].contains(&r.status), "{}", r.status);
        let loc = r.header("location").unwrap().to_string();
        if let Some(rest) = loc.strip_prefix("http://") {
            let (hh, p) = rest.split_once('/').unwrap();
            host_now = hh.to_string();
            path = format!("/{p}");
        } else {
            path = loc;
        }
        hops += 1;
        assert!(hops < 10);
    }
    assert_eq!(hops, 4);
    assert_eq!(
        format!("http://{host_now}{path}"),
        web.page_url(42).unwrap()
    );
    let l = host(&web, FaultKind::RedirectLoop);
    let a = web.render(&l, "/loop/a/9");
    assert_eq!(a.header("location"), Some("/loop/b/9"));
    assert_eq!(
        web.render(&l, "/loop/b/9").header("location"),
        Some("/loop/a/9")
    );
    assert_eq!(web.truth(&format!("http://{l}/loop/a/9")), None);
}

#[test]
fn status_faults_types_and_sizes() {
    let web = web();
    assert_eq!(
        web.render(&host(&web, FaultKind::NotFound), "/item-1.html")
            .status,
        404
    );
    assert_eq!(
        web.render(&host(&web, FaultKind::Gone), "/item-1.html")
            .status,
        410
    );
    assert_eq!(
        web.render(&host(&web, FaultKind::ServerError), "/item-1.html")
            .status,
        500
    );
    let r = web.render(&host(&web, FaultKind::Unavailable), "/item-1.html");
    assert_eq!((r.status, r.header("retry-after")), (503, Some("120")));
    assert_eq!(
        web.render(&host(&web, FaultKind::Reset), "/x").action,
        focus_websim::Action::Reset
    );
    let nh = host(&web, FaultKind::NonHtml);
    assert_eq!(
        web.render(&nh, "/files/file-1.pdf").header("content-type"),
        Some("application/pdf")
    );
    assert_eq!(
        web.render(&nh, "/files/file-1.jpg").header("content-type"),
        Some("image/jpeg")
    );
    assert_eq!(
        web.render(&nh, "/files/file-1.html").header("content-type"),
        Some("application/octet-stream")
    );
    let big = web.render(&host(&web, FaultKind::Oversized), "/big/1.html");
    assert!(big.body.len() >= 100_000);
    let robots = web.render(&host(&web, FaultKind::RobotsForbidden), "/robots.txt");
    assert!(body(&robots).contains("Disallow: /\n"));
}

#[test]
fn mirrors_gzip_malformed_sessions_and_calendar() {
    let web = web();
    // Mirror-type hosts serve the pages of a real host under its paths.
    let m = host(&web, FaultKind::Mirror);
    let home = web.render(&m, "/");
    assert_eq!(home.status, 200);
    assert!(body(&home).contains("Mirror of"));
    assert!(web.truth(&format!("http://{m}/")).is_some());

    let g = host(&web, FaultKind::Gzip);
    let r = web.render(&g, "/");
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    let mut html = String::new();
    flate2::read::GzDecoder::new(&r.body[..])
        .read_to_string(&mut html)
        .unwrap();
    assert!(html.contains("</html>"));

    let bad = body(&web.render(&host(&web, FaultKind::Malformed), "/"));
    assert!(bad.contains("<!-- unterminated"));

    let s = host(&web, FaultKind::SessionId);
    let a = body(&web.render(&s, "/?sid=0000000000000001"));
    let b = body(&web.render(&s, "/?sid=0000000000000002"));
    assert_ne!(a, b, "fresh session ids on every visit");
    assert!(a.contains("?sid="));
    assert_eq!(a.split("?sid=").next(), b.split("?sid=").next());
    assert_eq!(
        web.truth(&format!("http://{s}/?sid=1")),
        web.truth(&format!("http://{s}/?sid=2"))
    );

    let c = host(&web, FaultKind::Calendar);
    let r = body(&web.render(&c, "/calendar/2031/12/"));
    assert!(r.contains("/calendar/2032/1/"));
    assert_eq!(web.truth(&format!("http://{c}/calendar/2031/12/")), None);
}

#[test]
fn robots_and_search_service() {
    let web = web();
    let url = web.page_url(0).unwrap();
    let h = url
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let r = web.render(h, "/robots.txt");
    assert!(r.status == 200 || r.status == 404);
    // Search by the words of a page's title finds that page.
    let pid = 1234;
    let html = web.page_html(pid).unwrap();
    let title = html
        .split("<title>")
        .nth(1)
        .unwrap()
        .split("</title>")
        .next()
        .unwrap()
        .to_lowercase();
    let hits = web.search(&title, 1000);
    assert!(!hits.is_empty());
    let r = web.render(
        web.search_host(),
        &format!("/search?q={}&max=5", title.replace(' ', "+")),
    );
    assert_eq!(r.status, 200);
    assert!(body(&r).lines().count() <= 5);
    assert_eq!(web.render(web.search_host(), "/search").status, 400);
}

/// `links.dead_cross_host`: that share of cross-host content links is
/// dead, half 404 on a live host and half on a `.invalid` name; with the
/// default 0 the web is unchanged.
#[test]
fn dead_links_404_or_name_a_host_that_does_not_exist() {
    use focus_websim::LinkTarget;
    let live = web();
    let mut c = WebConfig::small();
    c.oversized_bytes = 100_000;
    c.links.dead_cross_host = 0.8;
    let dead = Web::new(c, 1).unwrap();
    let (mut cross, mut gone, mut missing) = (0u32, 0u32, 0u32);
    for pid in 0..dead.page_count() {
        let before = live.out_links(pid);
        let after = dead.out_links(pid);
        assert_eq!(before.len(), after.len(), "links are killed, not removed");
        for (b, a) in before.iter().zip(&after) {
            match a.target {
                LinkTarget::Dead { was, host_gone } => {
                    assert_eq!(b.target, LinkTarget::Page(was));
                    assert!(!a.nav, "navigation links stay alive");
                    cross += 1;
                    if host_gone {
                        gone += 1;
                    } else {
                        missing += 1;
                    }
                }
                t => {
                    assert_eq!(t, b.target);
                    if let LinkTarget::Page(p) = t {
                        let other = live
                            .page_url(p)
                            .zip(live.page_url(pid))
                            .is_some_and(|(x, y)| x.split('/').nth(2) != y.split('/').nth(2));
                        cross += u32::from(other && !a.nav);
                    }
                }
            }
        }
    }
    let share = f64::from(gone + missing) / f64::from(cross);
    assert!((0.75..0.85).contains(&share), "{share}");
    assert!(gone > missing / 2 && missing > gone / 2, "{gone} {missing}");

    // Rendered: the dead links' URLs answer 404 or name a .invalid host.
    let pid = (0..dead.page_count())
        .find(|&p| {
            let l = dead.out_links(p);
            l.iter().any(|x| {
                matches!(
                    x.target,
                    LinkTarget::Dead {
                        host_gone: true,
                        ..
                    }
                )
            }) && l.iter().any(|x| {
                matches!(
                    x.target,
                    LinkTarget::Dead {
                        host_gone: false,
                        ..
                    }
                )
            })
        })
        .unwrap();
    let url = dead.page_url(pid).unwrap();
    let (host, path) = url[7..].split_once('/').unwrap();
    let html = body(&dead.render(host, &format!("/{path}")));
    let hrefs: Vec<&str> = html
        .split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|h| h.starts_with("http://"))
        .collect();
    assert!(hrefs.iter().any(|h| h.contains(".invalid/")), "{hrefs:?}");
    let not_found = hrefs
        .iter()
        .filter(|h| !h.contains(".invalid/"))
        .filter(|h| {
            let (host, path) = h[7..].split_once('/').unwrap();
            dead.render(host, &format!("/{path}")).status == 404
        })
        .count();
    let want = dead
        .out_links(pid)
        .iter()
        .filter(|x| {
            matches!(
                x.target,
                LinkTarget::Dead {
                    host_gone: false,
                    ..
                }
            )
        })
        .count();
    assert_eq!(not_found, want);
}

#[test]
fn broken_pages_sit_on_healthy_hosts_and_answer_as_their_kind() {
    use focus_websim::{Action, PageFault};
    let mut c = WebConfig::small();
    c.page_faults = 0.1;
    let web = Web::new(c, 1).unwrap();
    let healthy = self::web();
    let mut by_kind = std::collections::HashMap::new();
    let pages = 5_000;
    for pid in 0..pages {
        let url = web.page_url(pid).unwrap();
        let (host, path) = {
            let rest = url.strip_prefix("http://").unwrap();
            let i = rest.find('/').unwrap();
            (&rest[..i], &rest[i..])
        };
        let r = web.render(host, path);
        match web.page_fault(&url) {
            None => {
                assert_eq!(r.status, 200, "{url}");
                assert_eq!(r.action, Action::Respond);
                // A healthy page is the same page as on a web without faults.
                assert_eq!(r.body, healthy.render(host, path).body);
            }
            Some(kind) => {
                *by_kind.entry(kind).or_insert(0u32) += 1;
                assert!(
                    !path.ends_with('/') || path.len() > 1,
                    "never a home page: {url}"
                );
                match kind {
                    PageFault::ServerError => assert_eq!(r.status, 500),
                    PageFault::Unavailable => {
                        assert_eq!(r.status, 503);
                        assert_eq!(r.header("retry-after"), Some("1"));
                    }
                    PageFault::Trickle => assert!(matches!(r.action, Action::Stall { .. })),
                    PageFault::Reset => assert_eq!(r.action, Action::Reset),
                }
            }
        }
    }
    let broken: u32 = by_kind.values().sum();
    let share = f64::from(broken) / f64::from(pages);
    assert!((0.08..0.11).contains(&share), "{share}");
    assert_eq!(by_kind.len(), 4, "every kind occurs: {by_kind:?}");
    // Off by default: the default web's pages all answer.
    assert!((0..pages).all(|p| healthy.page_fault(&healthy.page_url(p).unwrap()).is_none()));
}
