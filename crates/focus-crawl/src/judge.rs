//! One fetched page becomes a judgement: read it ([`crate::reading`]) and
//! collect its out-links (pure CPU work, run on rayon by the pipeline).
//! Must not touch the frontier or the store: the engine applies judgements.

use std::collections::HashSet;
use std::time::{SystemTime, UNIX_EPOCH};

use focus_classify::Judgement;
use focus_core::{CanonicalUrl, Canonicalizer, PageId};
use focus_fetch::{Body, FetchOutcome, Fingerprint, Retry};
use focus_frontier::Candidate;
use focus_store::PageRecord;

use crate::apprentice::{link_features, Citing};
use crate::parts::Analysis;
use crate::reading::{read_page, Reading};

/// A fetched page, judged: its store record, its distinct followable links,
/// each link's features for the link model (empty when the crawl keeps
/// none), the classifier's judgement (`None` when there was no text to
/// judge) and its text's fingerprint (`None` without text), which the
/// apply step checks for duplicates in the crawl's order; whether a failed
/// fetch is worth another attempt; and, for a redirected fetch, the id of
/// the URL it ended on.
pub(crate) struct Judged {
    pub(crate) record: PageRecord,
    pub(crate) retry: Retry,
    pub(crate) final_id: Option<PageId>,
    pub(crate) links: Vec<(PageId, CanonicalUrl)>,
    pub(crate) link_features: Vec<Box<[u32]>>,
    /// Each link's anchor text, beside `links` (a policy's never-follow
    /// rule reads it, and [`crate::cited`] keeps it).
    pub(crate) link_anchors: Vec<String>,
    pub(crate) judgement: Option<Judgement>,
    /// The page's similarity to the good topics (0 unless the policy asks
    /// for it and the crawl has a similarity judge).
    pub(crate) similarity: f64,
    pub(crate) follow: bool,
    pub(crate) fingerprint: Option<Fingerprint>,
    /// The pages linking to this one, when the crawl asked for them
    /// ([`crate::parents`]; asked in pop order, after judging).
    pub(crate) parents: Option<Vec<CanonicalUrl>>,
    /// The page's title, main text and out-links' anchor texts, when the
    /// crawl keeps text.
    pub(crate) text: Option<(String, String, Vec<String>)>,
    /// The anchor texts of the links to it that it was judged with.
    pub(crate) cited: Vec<String>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The record of a page before anything is known about it.
pub(crate) fn blank_record(c: &Candidate) -> PageRecord {
    PageRecord {
        url: c.url.to_string(),
        id: c.id.0,
        attempt: c.numtries.saturating_add(1),
        retry: false,
        final_url: None,
        // Its place in the crawl is known when it is applied.
        seq: 0,
        status: 0,
        error: None,
        relevance: 0.0,
        class: None,
        depth: c.depth,
        parent: c.parent.map(|p| p.0),
        fetched_at_ms: now_ms(),
        bytes: 0,
        fingerprint: None,
        content_hash: None,
        duplicate: None,
        link_features: Vec::new(),
    }
}

/// A page that produced no judgement: its HTTP status (0 when none), why,
/// and whether another attempt may do better.
pub(crate) fn failed(c: &Candidate, status: u16, error: String, retry: Retry) -> Judged {
    let mut record = blank_record(c);
    record.status = status;
    record.error = Some(error);
    Judged {
        record,
        retry,
        final_id: None,
        links: Vec::new(),
        link_features: Vec::new(),
        link_anchors: Vec::new(),
        judgement: None,
        similarity: 0.0,
        follow: false,
        fingerprint: None,
        parents: None,
        text: None,
        cited: Vec::new(),
    }
}

/// Analyses and classifies one fetch outcome (CPU work, run on rayon) of
/// a URL that the anchor texts `cited` link to.
pub(crate) fn judge(
    c: &Candidate,
    cited: &[String],
    outcome: &FetchOutcome,
    analysis: &Analysis,
    canon: &Canonicalizer,
) -> Judged {
    let page = match outcome {
        Err(e) => return failed(c, e.status().unwrap_or(0), e.label(), e.retry()),
        Ok(p) => p,
    };
    let redirected = page.final_url != c.url;
    let final_id = redirected.then(|| page.final_url.page_id());
    let Body::Text(html) = &page.body else {
        let mut j = failed(c, page.status, "not_text".into(), Retry::Never);
        j.record.bytes = page.wire_bytes;
        j.record.final_url = redirected.then(|| page.final_url.to_string());
        j.final_id = final_id;
        return j;
    };
    let mut record = blank_record(c);
    record.final_url = redirected.then(|| page.final_url.to_string());
    record.status = page.status;
    record.bytes = page.wire_bytes;
    let Reading {
        doc,
        counts,
        judgement,
        fingerprint,
    } = read_page(
        html,
        &page.final_url,
        cited,
        &analysis.featurizer,
        analysis.classifier.as_ref(),
        canon,
    );
    let similarity = analysis
        .similarity
        .as_ref()
        .map_or(0.0, |s| s.relevance(&counts));
    record.relevance = judgement.relevance;
    record.class = judgement.best.map(|b| analysis.taxonomy.path(b).to_owned());
    record.content_hash = fingerprint.map(|f| f.content);
    record.fingerprint = fingerprint.map(|f| f.simhash);
    let follow = !(doc.meta_robots.nofollow || page.robots.nofollow);
    let text = analysis.keep_text.then(|| {
        let anchors = doc.links.iter().map(|l| &l.anchor_text);
        let anchors = anchors.filter(|a| !a.is_empty()).cloned().collect();
        (doc.title.clone(), doc.text.clone(), anchors)
    });
    let mut seen = HashSet::new();
    let kept: Vec<_> = doc
        .links
        .into_iter()
        .filter(|l| !l.nofollow && l.url.page_id() != c.id)
        .filter(|l| seen.insert(l.url.page_id()))
        .collect();
    let link_features = if analysis.link_features {
        let citing = Citing {
            url: &page.final_url,
            relevance: judgement.relevance,
            class: judgement.best,
        };
        kept.iter()
            .map(|l| {
                link_features(
                    &analysis.featurizer,
                    analysis.classifier.as_ref(),
                    &citing,
                    l,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let (links, link_anchors) = kept
        .into_iter()
        .map(|l| ((l.url.page_id(), l.url), l.anchor_text))
        .unzip();
    Judged {
        record,
        retry: Retry::Never,
        final_id,
        links,
        link_features,
        link_anchors,
        judgement: Some(judgement),
        similarity,
        follow,
        fingerprint,
        parents: None,
        text,
        // Set by `judge_guarded` for every outcome.
        cited: Vec::new(),
    }
}

/// [`judge`], with a panic in the parser or the classifier (a bug that bad
/// input triggered) turned into a failed page instead of a dead crawl.
pub(crate) fn judge_guarded(
    c: &Candidate,
    cited: &[String],
    outcome: &FetchOutcome,
    analysis: &Analysis,
    canon: &Canonicalizer,
) -> Judged {
    let mut judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        judge(c, cited, outcome, analysis, canon)
    }))
    .unwrap_or_else(|_| {
        tracing::error!(url = %c.url, "analysis panicked; the page is recorded as failed");
        failed(c, 0, "analysis_panicked".into(), Retry::Never)
    });
    // Kept whatever the outcome: a URL put back for another attempt keeps
    // its anchors.
    judged.cited = cited.to_vec();
    judged
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use focus_classify::{Classifier, Judgement};
    use focus_core::Taxonomy;
    use focus_fetch::{FetchConfig, FetchError, Fetched, Fetcher, RobotsDirectives};
    use focus_text::{SparseVec, TextConfig};

    use super::*;
    use focus_classify::Featurizer;

    /// Judges every page relevant, or panics when the page says "boom".
    struct Fragile {
        boom: SparseVec,
    }

    impl Classifier for Fragile {
        fn classify(&self, counts: &SparseVec) -> Judgement {
            assert!(
                counts.dot(&self.boom) == 0.0,
                "classifier bug triggered by input"
            );
            Judgement {
                relevance: 0.75,
                best: None,
                scores: Vec::new(),
            }
        }
    }

    fn analysis_parts() -> Analysis {
        let featurizer = Featurizer::new(TextConfig::default());
        Analysis {
            fetcher: Fetcher::new(FetchConfig::default()).unwrap(),
            classifier: Arc::new(Fragile {
                boom: featurizer.text("boom"),
            }),
            taxonomy: Taxonomy::new(),
            featurizer,
            link_features: true,
            parents: None,
            similarity: None,
            keep_text: false,
        }
    }

    fn page(url: &CanonicalUrl, html: &str) -> Fetched {
        Fetched {
            url: url.clone(),
            final_url: url.clone(),
            redirects: Vec::new(),
            status: 200,
            content_type: "text/html".into(),
            body: Body::Text(html.into()),
            charset: None,
            robots: RobotsDirectives::default(),
            wire_bytes: html.len() as u64,
            decoded_bytes: html.len() as u64,
            remote_addr: None,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn a_page_is_judged_and_its_links_kept_once_each() {
        let (analysis, canon) = (analysis_parts(), Canonicalizer::default());
        let url = canon.canonicalize("http://a.test/x.html").unwrap();
        let c = Candidate::new(url.clone(), 2, None, 1.0);
        let html = r#"<html><title>wheels</title><body><p>bicycle wheels and spokes</p>
            <a href="/y.html">y</a><a href="/y.html">y again</a><a href="x.html">self</a>
            <a href="http://b.test/" rel="nofollow">b</a></body></html>"#;
        let j = judge_guarded(&c, &[], &Ok(page(&url, html)), &analysis, &canon);
        assert_eq!(j.record.status, 200);
        assert_eq!(j.record.error, None);
        assert_eq!(j.record.depth, 2);
        assert!((j.record.relevance - 0.75).abs() < 1e-12);
        let links: Vec<String> = j.links.iter().map(|(_, u)| u.to_string()).collect();
        assert_eq!(links, vec!["http://a.test/y.html".to_owned()]);
        assert!(j.follow);
        let fp = j.fingerprint.expect("a page with text has a fingerprint");
        assert_eq!(j.record.fingerprint, Some(fp.simhash));
        assert_eq!(j.record.content_hash, Some(fp.content));
    }

    /// Its relevance is the share of the page's features that are "wheels".
    struct Wheels(SparseVec);

    impl Classifier for Wheels {
        fn classify(&self, counts: &SparseVec) -> Judgement {
            Judgement {
                relevance: counts.dot(&self.0) / counts.entries().iter().map(|e| e.1).sum::<f64>(),
                best: None,
                scores: Vec::new(),
            }
        }
    }

    #[test]
    fn the_similarity_is_the_second_judges_relevance_of_the_same_words_or_zero() {
        let canon = Canonicalizer::default();
        let url = canon.canonicalize("http://a.test/x.html").unwrap();
        let c = Candidate::new(url.clone(), 0, None, 1.0);
        let html = "<p>wheels wheels spokes rims</p><a href='/y'>y</a>";
        let mut analysis = analysis_parts();
        let none = judge_guarded(&c, &[], &Ok(page(&url, html)), &analysis, &canon);
        assert_eq!(none.similarity, 0.0, "no similarity judge, no similarity");
        let wheels = analysis.featurizer.text("wheels");
        analysis.similarity = Some(Arc::new(Wheels(wheels)));
        let j = judge_guarded(&c, &[], &Ok(page(&url, html)), &analysis, &canon);
        assert!((j.similarity - 0.5).abs() < 1e-12, "{}", j.similarity);
        // The classifier's own judgement does not move.
        assert_eq!(j.record.relevance, none.record.relevance);
        let failed = judge_guarded(&c, &[], &Err(FetchError::Status(404)), &analysis, &canon);
        assert_eq!(failed.similarity, 0.0);
    }

    #[test]
    fn the_fingerprint_ignores_the_site_template() {
        let (analysis, canon) = (analysis_parts(), Canonicalizer::default());
        let judge_at = |u: &str, html: &str| {
            let url = canon.canonicalize(u).unwrap();
            let c = Candidate::new(url.clone(), 0, None, 1.0);
            judge_guarded(&c, &[], &Ok(page(&url, html)), &analysis, &canon).fingerprint
        };
        let body = "<title>wheels</title><p>bicycle wheels and spokes, trued by hand</p>";
        let a = judge_at(
            "http://a.test/x.html",
            &format!("<nav>Home | About a.test</nav>{body}<footer>(c) a</footer>"),
        );
        let b = judge_at(
            "http://mirror.test/x.html",
            &format!("<header>Mirror site menu</header>{body}"),
        );
        assert!(a.is_some());
        assert_eq!(a, b);
        assert_eq!(
            judge_at("http://a.test/e.html", "<nav>only a menu</nav>"),
            None
        );
    }

    #[test]
    fn a_panic_while_judging_becomes_a_failed_page() {
        let (analysis, canon) = (analysis_parts(), Canonicalizer::default());
        let url = canon.canonicalize("http://a.test/boom.html").unwrap();
        let c = Candidate::new(url.clone(), 0, None, 1.0);
        let html = "<html><body><p>boom boom boom</p><a href='/z'>z</a></body></html>";
        let j = judge_guarded(&c, &[], &Ok(page(&url, html)), &analysis, &canon);
        assert_eq!(j.record.error.as_deref(), Some("analysis_panicked"));
        assert!(j.judgement.is_none() && j.links.is_empty() && !j.follow);
    }

    #[test]
    fn a_fetch_error_is_recorded_with_its_label() {
        let (analysis, canon) = (analysis_parts(), Canonicalizer::default());
        let url = canon.canonicalize("http://a.test/").unwrap();
        let c = Candidate::new(url, 0, None, 1.0);
        let j = judge_guarded(
            &c,
            &[],
            &Err(FetchError::DisallowedByRobots),
            &analysis,
            &canon,
        );
        assert_eq!(j.record.error, Some(FetchError::DisallowedByRobots.label()));
        assert!(j.judgement.is_none());
        assert_eq!(j.retry, Retry::Never);
        let cited = ["Bicycle racing".to_owned()];
        let j = judge_guarded(&c, &cited, &Err(FetchError::Status(503)), &analysis, &canon);
        assert_eq!(j.retry, Retry::Later);
        assert_eq!(j.cited, cited, "put back with the anchors it had");
        assert_eq!(j.record.attempt, 1);
    }

    #[test]
    fn a_redirected_fetch_records_where_it_ended_and_its_links_are_the_final_pages() {
        let (analysis, canon) = (analysis_parts(), Canonicalizer::default());
        let asked = canon.canonicalize("http://a.test/moved.html").unwrap();
        let landed = canon.canonicalize("http://a.test/new/page.html").unwrap();
        let c = Candidate::new(asked.clone(), 0, None, 1.0);
        let mut fetched = page(&asked, "<p>wheels</p><a href='next.html'>next</a>");
        fetched.final_url = landed.clone();
        let j = judge_guarded(&c, &[], &Ok(fetched), &analysis, &canon);
        assert_eq!(j.record.url, asked.to_string());
        assert_eq!(j.record.final_url.as_deref(), Some(landed.as_str()));
        assert_eq!(j.final_id, Some(landed.page_id()));
        let links: Vec<String> = j.links.iter().map(|(_, u)| u.to_string()).collect();
        assert_eq!(links, vec!["http://a.test/new/next.html".to_owned()]);
    }
}
