//! Property tests of canonicalisation and the taxonomy file parser: no input
//! panics, canonical form is a fixed point, and equivalent spellings share an id.

use focus_core::{parse_taxonomy, Canonicalizer};
use proptest::prelude::*;

fn url_strategy() -> impl Strategy<Value = String> {
    let scheme = prop_oneof!["http", "HTTP", "https", "HtTpS"];
    let host = "[a-zA-Z][a-zA-Z0-9-]{0,10}(\\.[a-zA-Z]{2,5}){1,2}";
    let port = prop_oneof![
        Just(String::new()),
        Just(":80".to_owned()),
        Just(":443".to_owned()),
        (1u16..).prop_map(|p| format!(":{p}"))
    ];
    let segment = "([a-zA-Z0-9._~-]|%[0-9a-fA-F]{2}|\\.\\.|\\.){0,8}";
    let path = prop::collection::vec(segment, 0..5).prop_map(|v| format!("/{}", v.join("/")));
    let query = prop_oneof![
        Just(String::new()),
        "\\?[a-z]{1,4}=[a-z0-9%]{0,6}(&[a-zA-Z]{1,8}=[a-z0-9]{0,4}){0,3}"
    ];
    let frag = prop_oneof![Just(String::new()), "#[a-z]{0,5}"];
    (scheme, host, port, path, query, frag)
        .prop_map(|(s, h, p, pa, q, f)| format!("{s}://{h}{p}{pa}{q}{f}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,300}") {
        let c = Canonicalizer::default();
        let _ = c.canonicalize(&s);
        if let Ok(base) = c.canonicalize("http://a.example/dir/x") {
            let _ = c.join(&base, &s);
        }
    }

    #[test]
    fn canonicalisation_is_idempotent(u in url_strategy()) {
        let c = Canonicalizer::default();
        if let Ok(once) = c.canonicalize(&u) {
            let twice = c.canonicalize(once.as_str()).unwrap();
            prop_assert_eq!(once.as_str(), twice.as_str());
            prop_assert_eq!(once.page_id(), twice.page_id());
        }
    }

    #[test]
    fn equivalent_spellings_share_a_page_id(u in url_strategy()) {
        let c = Canonicalizer::default();
        if let Ok(canon) = c.canonicalize(&u) {
            // Re-spell: upper-case the scheme and host, add the default port and a fragment,
            // and escape an unreserved character of the path.
            let url = canon.as_url();
            let port = if url.scheme() == "http" { 80 } else { 443 };
            let path = url.path().replacen('a', "%61", 1);
            let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
            let respelled = format!(
                "{}://{}:{}{}{}#frag",
                url.scheme().to_uppercase(),
                url.host_str().unwrap().to_uppercase(),
                url.port().unwrap_or(port),
                path,
                query
            );
            let other = c.canonicalize(&respelled).unwrap();
            prop_assert_eq!(canon.page_id(), other.page_id());
        }
    }

    #[test]
    fn taxonomy_parser_never_panics(s in "([a-c -]{0,12}( good)?\n){0,8}") {
        let _ = parse_taxonomy("prop.tax", &s);
    }
}
