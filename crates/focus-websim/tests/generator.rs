//! Determinism, configuration files, ground truth, seeds and samples of the
//! generator (small web, no network).

use std::collections::HashSet;

use focus_websim::{LinkTarget, Site, TopicRole, Web, WebConfig};

fn fixture(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/websim/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

#[test]
fn fixtures_match_the_built_in_configurations() {
    assert_eq!(
        WebConfig::from_toml("default.toml", &fixture("default.toml")).unwrap(),
        WebConfig::default()
    );
    assert_eq!(
        WebConfig::from_toml("small.toml", &fixture("small.toml")).unwrap(),
        WebConfig::small()
    );
    assert!(WebConfig::from_toml("bad", "pages = \"many\"").is_err());
    assert!(WebConfig::from_toml("bad", "no_such_key = 1").is_err());
}

#[test]
fn same_seed_gives_byte_identical_pages_and_other_seeds_differ() {
    let a = Web::new(WebConfig::small(), 7).unwrap();
    let b = Web::new(WebConfig::small(), 7).unwrap();
    let c = Web::new(WebConfig::small(), 8).unwrap();
    assert_eq!(a.page_count(), b.page_count());
    let mut differs = 0;
    for pid in (0..a.page_count()).step_by(97) {
        let url = a.page_url(pid).unwrap();
        assert_eq!(Some(url.clone()), b.page_url(pid));
        let (host, path) = url
            .strip_prefix("http://")
            .unwrap()
            .split_once('/')
            .unwrap();
        let ra = a.render(host, &format!("/{path}"));
        let rb = b.render(host, &format!("/{path}"));
        assert_eq!(ra.status, 200, "{url}");
        assert_eq!(ra.body, rb.body, "{url}");
        if c.page_html(pid) != a.page_html(pid) {
            differs += 1;
        }
    }
    assert!(differs > 0);
}

#[test]
fn urls_round_trip_and_truth_is_a_leaf() {
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let tax = web.taxonomy();
    for pid in (0..web.page_count()).step_by(13) {
        let url = web.page_url(pid).unwrap();
        assert_eq!(web.page_id(&url), Some(pid), "{url}");
        let t = web.truth(&url).unwrap();
        assert!(tax.is_leaf(t));
        assert_eq!(web.truth_of(pid), Some(t));
    }
    assert_eq!(web.truth("http://no.such.host/"), None);
    let shares: f64 = tax.leaves().iter().map(|l| web.truth_share(*l)).sum();
    assert!((shares - 1.0).abs() < 1e-9);
    assert!(tax
        .children(focus_core::TopicId::ROOT)
        .iter()
        .all(|c| web.truth_share(*c) > 0.0));
}

#[test]
fn urls_and_host_names_do_not_name_topics() {
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let tax = web.taxonomy();
    let names: Vec<String> = tax
        .ids()
        .filter(|t| t.0 != 0)
        .flat_map(|t| {
            tax.name(t)
                .split('_')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|n| n.len() > 3)
        .collect();
    for pid in (0..web.page_count()).step_by(11) {
        let url = web.page_url(pid).unwrap();
        // The top-level domain (com, net, info, ...) is drawn independently
        // of the topic; everything else must not name a topic.
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').unwrap();
        let host = [".co.uk", ".com", ".net", ".org", ".info", ".biz", ".de"]
            .iter()
            .find_map(|t| host.strip_suffix(t))
            .unwrap_or(host);
        let tokens: Vec<&str> = host
            .split(|c: char| !c.is_ascii_alphanumeric())
            .chain(path.split(|c: char| !c.is_ascii_alphanumeric()))
            .collect();
        for n in &names {
            assert!(!tokens.contains(&n.as_str()), "{url} names {n}");
        }
    }
}

#[test]
fn seeds_are_on_topic_distinct_and_disjoint_from_samples() {
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let tax = web.taxonomy();
    for leaf in tax.leaves() {
        let role = web
            .config()
            .topics
            .iter()
            .find(|t| tax.find(&t.path) == Some(leaf))
            .unwrap()
            .role;
        if role == TopicRole::Structural {
            continue;
        }
        let seeds = web.seed_urls(leaf, 10);
        assert!(!seeds.is_empty(), "{}", tax.path(leaf));
        let set: HashSet<&String> = seeds.iter().collect();
        assert_eq!(set.len(), seeds.len());
        for s in &seeds {
            assert_eq!(web.truth(s), Some(leaf));
        }
        for p in web.sample(leaf, 30) {
            assert_eq!(p.topic, leaf);
            assert!(!set.contains(&p.url), "sample {} is a seed", p.url);
        }
        assert_eq!(web.seed_urls(leaf, 10), seeds);
    }
}

#[test]
fn examples_are_written_in_the_example_set_format() {
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let n = web.write_examples(dir.path(), 3).unwrap();
    assert!(n >= 3 * 30);
    let leaf = web
        .taxonomy()
        .find("business/investment/mutual_funds")
        .unwrap();
    let folder = dir.path().join("business/investment/mutual_funds");
    let files: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
    assert_eq!(files.len(), 3);
    for f in files {
        let f = f.unwrap();
        let name = f.file_name().to_string_lossy().to_string();
        assert!(
            name.starts_with("page-")
                && std::path::Path::new(&name)
                    .extension()
                    .is_some_and(|e| e == "html")
        );
        let id: u32 = name[5..name.len() - 5].parse().unwrap();
        assert_eq!(web.truth_of(id), Some(leaf));
        assert!(std::fs::read_to_string(f.path())
            .unwrap()
            .contains("<title>"));
    }
}

#[test]
fn every_fault_host_is_reachable_from_the_seeds() {
    let web = Web::new(WebConfig::small(), 1).unwrap();
    let tax = web.taxonomy();
    let mut seen = vec![false; web.page_count() as usize];
    let mut queue = std::collections::VecDeque::new();
    for leaf in tax.leaves() {
        for s in web.seed_urls(leaf, 2) {
            let p = web.page_id(&s).unwrap();
            if !seen[p as usize] {
                seen[p as usize] = true;
                queue.push_back(p);
            }
        }
    }
    let mut faults = HashSet::new();
    while let Some(p) = queue.pop_front() {
        for l in web.out_links(p) {
            match l.target {
                LinkTarget::Page(t) => {
                    if !seen[t as usize] {
                        seen[t as usize] = true;
                        queue.push_back(t);
                    }
                }
                LinkTarget::Fault { fault, .. } => {
                    faults.insert(fault);
                }
                LinkTarget::Dead { .. } => {}
            }
        }
    }
    assert_eq!(faults.len(), web.faults().len());
    let reached = seen.iter().filter(|s| **s).count();
    assert!(
        reached as f64 > 0.9 * f64::from(web.page_count()),
        "{reached}"
    );
}

#[test]
fn impossible_configurations_are_errors_not_panics() {
    let mut c = WebConfig::small();
    c.universal_share = 2.0;
    assert!(Web::new(c, 1).is_err());
    let mut c = WebConfig::small();
    c.pages = 5;
    assert!(Web::new(c, 1).is_err());
    let mut c = WebConfig::small();
    for t in &mut c.topics {
        t.weight = 0.0;
    }
    assert!(Web::new(c, 1).is_err());
    let mut c = WebConfig::small();
    c.topics[0].path = "bad name/x".into();
    assert!(Web::new(c, 1).is_err());
    let mut c = WebConfig::small();
    c.faults.push(c.faults[0].clone());
    assert!(Web::new(c, 1).is_err());
    // Odd requests are answered, never panic.
    let web = Web::new(WebConfig::small(), 1).unwrap();
    for (h, p) in [
        ("", ""),
        ("x", "/"),
        (web.search_host(), "/backlinks?url=%zz&max=abc"),
        ("www.corvane-9001.com", "/go/x/y"),
        ("www.abrine-9014.net", "/calendar/99999999999/1/"),
    ] {
        let _ = web.render(h, p);
    }
    let url = web.page_url(3).unwrap();
    let host = url
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    for p in [
        "/../../etc/passwd",
        "/a-999999999.html",
        "//",
        "/x-1/y-2/z-3.html?q",
        "/-1/",
    ] {
        assert_eq!(web.render(host, p).status, 404, "{p}");
    }
}

#[test]
fn every_page_is_reachable_from_its_host_home() {
    let web = Web::new(WebConfig::small(), 2).unwrap();
    // Host boundaries: a page's host is the prefix of its URL.
    let host_of = |pid: u32| {
        let url = web.page_url(pid).unwrap();
        url.strip_prefix("http://")
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_string()
    };
    let mut pid = 0u32;
    let mut hosts = 0;
    while pid < web.page_count() {
        let host = host_of(pid);
        assert!(
            web.page_url(pid).unwrap().ends_with(&format!("{host}/")),
            "host starts at its home"
        );
        let mut seen = HashSet::from([pid]);
        let mut stack = vec![pid];
        while let Some(p) = stack.pop() {
            for l in web.out_links(p) {
                if let LinkTarget::Page(t) = l.target {
                    if host_of(t) == host && seen.insert(t) {
                        stack.push(t);
                    }
                }
            }
        }
        let mut next = pid + 1;
        while next < web.page_count() && host_of(next) == host {
            assert!(
                seen.contains(&next),
                "{} unreachable from its home",
                web.page_url(next).unwrap()
            );
            next += 1;
        }
        hosts += 1;
        pid = next;
    }
    assert_eq!(hosts, web.host_count());
}
