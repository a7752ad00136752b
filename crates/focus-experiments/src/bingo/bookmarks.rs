//! The inputs of a BINGO! crawl as files: a browser's bookmarks export
//! (Netscape format) whose nested folders are the topic paths, and the
//! one-URL-a-line lists of an example set's `urls.txt` and a seeds file.

use std::fmt::Write as _;

/// One URL a line.
pub(super) fn lines(urls: &[String]) -> String {
    urls.iter().fold(String::new(), |mut acc, u| {
        let _ = writeln!(acc, "{u}");
        acc
    })
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A browser's bookmarks export (Netscape format) holding each
/// `(topic path, URLs)` as nested folders, one per path segment.
pub(super) fn bookmarks_html(folders: &[(&str, &[String])]) -> String {
    let mut html =
        String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n");
    for (path, urls) in folders {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        for (depth, s) in segments.iter().enumerate() {
            let pad = "    ".repeat(depth + 1);
            let _ = writeln!(html, "{pad}<DT><H3>{}</H3>\n{pad}<DL><p>", escape(s));
        }
        let pad = "    ".repeat(segments.len() + 1);
        for u in *urls {
            let _ = writeln!(html, "{pad}<DT><A HREF=\"{}\">{}</A>", escape(u), escape(u));
        }
        for depth in (0..segments.len()).rev() {
            let _ = writeln!(html, "{}</DL><p>", "    ".repeat(depth + 1));
        }
    }
    html.push_str("</DL><p>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_app::OTHERS;
    use focus_core::TopicId;

    #[test]
    fn the_bookmarks_file_nests_a_topic_path_and_reads_back() {
        let topic = vec![
            "http://a.test/x?a=1&b=2".to_owned(),
            "http://b.test/".to_owned(),
        ];
        let far = vec!["http://c.test/".to_owned()];
        let html = bookmarks_html(&[("recreation/outdoors/cycling", &topic), (OTHERS, &far)]);
        let set = focus_examples::parse_bookmarks(
            &html,
            &["recreation/outdoors/cycling".to_owned()],
            &focus_examples::LoadOptions::default(),
        )
        .unwrap();
        let cycling = set.taxonomy.find("recreation/outdoors/cycling").unwrap();
        let others = set.taxonomy.find(OTHERS).unwrap();
        let urls = |t: TopicId| -> Vec<String> {
            set.urls()
                .filter(|(e, _)| e.topic == t)
                .map(|(_, u)| u.as_str().to_owned())
                .collect()
        };
        assert_eq!(urls(cycling), ["http://a.test/x?a=1&b=2", "http://b.test/"]);
        assert_eq!(urls(others), ["http://c.test/"]);
        assert_eq!(set.taxonomy.good_topics(), [cycling]);
    }
}
