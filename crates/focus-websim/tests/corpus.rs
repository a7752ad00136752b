//! The Wikispeedia replay (`Corpus::load` on `../shared/corpora/wikispeedia`):
//! pages, labels, links placed as anchors, services and truth, through
//! `render` and over real loopback HTTP. Skips with a message when the
//! corpus folder is absent (it is not part of this repository).

use std::path::PathBuf;
use std::sync::Arc;

use focus_websim::{Corpus, Site, WIKISPEEDIA_HOST};

fn corpus_dir() -> Option<PathBuf> {
    Corpus::beside_checkout(env!("CARGO_MANIFEST_DIR"), "wikispeedia")
        .map_err(|why| eprintln!("skipped: {why}"))
        .ok()
}

#[test]
fn wikispeedia_replays_as_one_site() {
    let Some(dir) = corpus_dir() else { return };
    let c = Corpus::load(&dir).unwrap();
    assert_eq!(c.page_count(), 4598);
    assert_eq!(c.host_count(), 1);
    assert!(c.link_count() > 119_000, "{} links", c.link_count());
    let birds = c.find_topic("subject.Science.Biology.Birds").unwrap();
    assert_eq!(c.taxonomy().path(birds), "Science/Biology/Birds");
    assert_eq!(c.find_topic("Science/Biology/Birds"), Some(birds));
    assert_eq!(c.truth_count(birds), 161);
    assert_eq!(
        c.taxonomy().leaves().len() + 6,
        129,
        "129 categories, 6 of them inner nodes"
    );

    let url = format!("http://{WIKISPEEDIA_HOST}/wiki/Bird");
    assert_eq!(c.truth_topics(&url), vec![birds]);
    assert_eq!(c.truth_relevant(&url, &[birds]), Some(true));
    let r = c.render(WIKISPEEDIA_HOST, "/wiki/Bird");
    assert_eq!(r.status, 200);
    let html = String::from_utf8_lossy(&r.body).into_owned();
    assert!(html.contains("<title>Bird - Wikipedia for Schools</title>"));
    assert!(html.contains("<nav class=\"site-nav\""));
    assert!(html.contains("<footer class=\"site-footer\">"));
    // The label line of the source text is not on the page.
    assert!(!html.contains("Related subjects"));
    // Every out-link of the article is an anchor, most on a mention in the text.
    let pid = c.page_id(&url).unwrap();
    let targets = c.out_links(pid);
    assert!(targets.len() > 20);
    for &t in targets {
        let path = c
            .page_url(t)
            .unwrap()
            .replace(&format!("http://{WIKISPEEDIA_HOST}"), "");
        assert!(
            html.contains(&format!("href=\"{path}\"")),
            "{path} not linked"
        );
    }
    let related = html.split("Related articles").nth(1).unwrap_or("");
    assert!(related.matches("<li>").count() < targets.len() / 2);

    // Escapes in any spelling find the page; unknown paths are 404.
    let aland = c.render(WIKISPEEDIA_HOST, "/wiki/%c3%85land");
    assert_eq!(aland.status, 200);
    assert_eq!(
        c.render(WIKISPEEDIA_HOST, "/wiki/No_such_article").status,
        404
    );
    assert_eq!(c.render(WIKISPEEDIA_HOST, "/robots.txt").status, 200);
    assert_eq!(c.render(WIKISPEEDIA_HOST, "/about.html").status, 200);
    assert!(c
        .truth_topics(&format!("http://{WIKISPEEDIA_HOST}/about.html"))
        .is_empty());

    // Services: search finds the article by its title, backlinks are pages linking to it.
    let hits = c.search("bird", 5);
    assert!(hits.contains(&url), "{hits:?}");
    let back = c.backlinks(&url, 1000);
    assert!(back.len() > 50);
    for b in back.iter().take(5) {
        let src = c.page_id(b).unwrap();
        assert!(c.out_links(src).contains(&pid));
    }
    // A topic is queried by the words of its name that most pages lack;
    // `IT`'s one word is in most pages, so its subtopics' names stand in.
    assert_eq!(c.topic_query(birds), "birds");
    let it = c.find_topic("IT").unwrap();
    let query = c.topic_query(it);
    assert!(
        query.contains("software") && query.contains("cryptography"),
        "{query}"
    );
    assert!(
        !query
            .split(' ')
            .any(|w| w == "it" || w == "the" || w == "and"),
        "{query}"
    );
    let it_pages = c.search(&query, 7);
    let in_it = it_pages
        .iter()
        .filter(|u| c.truth_relevant(u, &[it]) == Some(true))
        .count();
    assert!(in_it >= 4, "{in_it} of {it_pages:?} in IT");
    // Seeds are the most linked-to pages of a topic; samples avoid them.
    let seeds = c.seed_urls(birds, 3);
    assert_eq!(seeds.len(), 3);
    let sample = c.sample(birds, 50);
    assert_eq!(sample.len(), 50);
    assert!(sample
        .iter()
        .all(|p| !seeds.contains(&p.url) && p.topic == birds));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wikispeedia_is_served_over_loopback() {
    let Some(dir) = corpus_dir() else { return };
    let c = Arc::new(Corpus::load(&dir).unwrap());
    let server = focus_websim::serve(c.clone(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let addr = server.addr();
    let get = |host: &'static str, path: &'static str| async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    };
    let page = get(WIKISPEEDIA_HOST, "/wiki/Bird").await;
    assert!(page.starts_with("HTTP/1.1 200"));
    assert!(page.contains("<h1>Bird</h1>"));
    let search = get("search.websim", "/search?q=chemical+element&max=3").await;
    assert!(search.starts_with("HTTP/1.1 200"));
    assert_eq!(search.matches("http://wikispeedia.test/wiki/").count(), 3);
    server.shutdown().await;
}
