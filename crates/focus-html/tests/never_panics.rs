//! The analyser never panics: arbitrary bytes (lossily decoded), arbitrary
//! tag soup, 100,000-deep nesting, 100,000 unclosed tags, and a 20 MB page.

use focus_core::Canonicalizer;
use focus_html::analyze;
use proptest::prelude::*;

fn run(html: &str) -> focus_html::Document {
    let c = Canonicalizer::default();
    analyze(
        html,
        &c.canonicalize("http://fuzz.example/a/b").unwrap(),
        &c,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4000)) {
        let _ = run(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn tag_soup(parts in prop::collection::vec(prop_oneof![
        Just("<a href='x'>".to_owned()), Just("</a>".to_owned()), Just("<script>".to_owned()), Just("</script>".to_owned()),
        Just("<nav>".to_owned()), Just("</nav>".to_owned()), Just("<base href='//b.example/'>".to_owned()), Just("<title>".to_owned()),
        Just("<!--".to_owned()), Just("<frame src=f>".to_owned()), Just("&amp;".to_owned()), Just("<h1>".to_owned()), Just("</h1>".to_owned()),
        "[a-z <>/=\"']{0,12}",
    ], 0..200)) {
        let d = run(&parts.concat());
        prop_assert!(d.links.iter().all(|l| l.url.as_str().starts_with("http")));
    }
}

#[test]
fn deep_unclosed_and_huge_documents() {
    let deep = format!(
        "{}text{}",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    assert_eq!(run(&deep).text, "text");
    let unclosed = "<b><i><a href=/x>link ".repeat(100_000);
    assert_eq!(run(&unclosed).links.len(), 100_000);
    let huge = format!(
        "<html><body>{}</body></html>",
        "<p>word <a href='/p'>anchor</a> more words here</p>".repeat(400_000)
    );
    assert!(huge.len() > 20_000_000);
    let d = run(&huge);
    assert_eq!(d.links.len(), 400_000);
}
