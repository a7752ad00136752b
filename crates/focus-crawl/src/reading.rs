//! Reading one page's HTML as the crawl reads it: analyse (html5ever),
//! featurise with the anchor texts that cite it, classify, fingerprint its
//! own words. Public so that a program outside the crawl (a benchmark's
//! peer crawler doing our per-page work) reads pages exactly as the crawl
//! does. Pure CPU work: must not touch the fetcher, the frontier or the
//! store.

use focus_classify::{Classifier, Featurizer, Judgement};
use focus_core::{CanonicalUrl, Canonicalizer};
use focus_fetch::Fingerprint;
use focus_html::Document;
use focus_text::SparseVec;

/// A page's HTML, read as the crawl reads it.
pub struct Reading {
    /// The analysed document: title, main text, links with anchor texts.
    pub doc: Document,
    /// The term counts the classifier judged (the page's words and, with
    /// the anchors' space on, the anchors citing it).
    pub counts: SparseVec,
    /// The classifier's judgement of the page's words and citing anchors.
    pub judgement: Judgement,
    /// The fingerprint of its title and main text; `None` when it has no
    /// text of its own.
    pub fingerprint: Option<Fingerprint>,
}

/// Reads `html`, fetched from `url` and linked to with the anchor texts
/// `cited`, as the crawl reads every page it fetches.
pub fn read_page(
    html: &str,
    url: &CanonicalUrl,
    cited: &[String],
    featurizer: &Featurizer,
    classifier: &dyn Classifier,
    canon: &Canonicalizer,
) -> Reading {
    let doc = focus_html::analyze(html, url, canon);
    let counts = featurizer.cited(&doc, cited);
    let judgement = classifier.classify(&counts);
    // The page's own words (title and main text, without the site's
    // navigation and footer), so a mirror in another template or a
    // session-id variant is recognised as the page it repeats.
    let fingerprint = (!doc.text.trim().is_empty())
        .then(|| Fingerprint::of(&format!("{}\n{}", doc.title, doc.text)));
    Reading {
        doc,
        counts,
        judgement,
        fingerprint,
    }
}

#[cfg(test)]
mod tests {
    use focus_classify::Spaces;
    use focus_text::SparseVec;

    use super::*;

    /// Relevance is the number of distinct features the page gave it, so a
    /// test sees what the classifier was shown.
    struct Counting;

    impl Classifier for Counting {
        fn classify(&self, counts: &SparseVec) -> Judgement {
            Judgement {
                relevance: counts.len() as f64,
                best: None,
                scores: Vec::new(),
            }
        }
    }

    fn read_with(featurizer: &Featurizer, html: &str, cited: &[String]) -> Reading {
        let canon = Canonicalizer::default();
        let url = canon.canonicalize("http://a.example/p").unwrap();
        read_page(html, &url, cited, featurizer, &Counting, &canon)
    }

    fn read(html: &str, cited: &[String]) -> Reading {
        read_with(&Featurizer::default(), html, cited)
    }

    #[test]
    fn the_classifier_sees_the_page_and_the_anchors_citing_it() {
        let html = "<html><head><title>Opera</title></head><body><p>Verdi wrote \
                    operas for La Scala.</p><a href=\"/q\">libretto</a></body></html>";
        let arias = ["baritone arias".to_owned()];
        let alone = read(html, &[]);
        assert_eq!(alone.doc.title, "Opera");
        assert_eq!(alone.doc.links.len(), 1);
        assert!(alone.judgement.relevance > 0.0);
        // The default features are the page's own words only.
        assert_eq!(
            read(html, &arias).judgement.relevance,
            alone.judgement.relevance
        );
        let anchors = Featurizer::default().with_spaces(Spaces {
            anchors: true,
            ..Spaces::default()
        });
        assert!(
            read_with(&anchors, html, &arias).judgement.relevance
                > read_with(&anchors, html, &[]).judgement.relevance,
            "with the anchors' space on, the citing anchors' words are features too"
        );
    }

    #[test]
    fn the_fingerprint_is_of_the_pages_own_words() {
        let page = |nav: &str| {
            format!(
                "<html><head><title>Opera</title></head><body><nav>{nav}</nav>\
                 <p>Verdi wrote operas for La Scala in Milan.</p></body></html>"
            )
        };
        let a = read(&page("home"), &[]).fingerprint;
        let b = read(&page("home about contact"), &[]).fingerprint;
        assert!(a.is_some());
        assert_eq!(a.map(|f| f.content), b.map(|f| f.content));
        let empty = read(
            "<html><head><title>x</title></head><body></body></html>",
            &[],
        );
        assert!(empty.fingerprint.is_none(), "no text, no fingerprint");
    }
}
