//! Where a BINGO! crawl's topic tree, training pages, seeds and OTHERS
//! class come from: a bookmarks file (folders = topics), an example set
//! (of any web, or of the corpus), or a served site (the websim, a corpus)
//! whose `--good` topics get pages sampled from them and whose other
//! top-level categories give the far-away pages of OTHERS (the paper took
//! about 50 pages of Yahoo's top-level categories). The negatives are an
//! `others` folder or the topics not crawled for. The seeds are `--seeds`,
//! or else the bookmarks of the user's topics (and a served site's seed
//! pages): BINGO!'s bookmarks are its seeds as well as its training data.

use focus_cli::{BingoPlan, TopicSource};
use focus_core::{CanonicalUrl, Canonicalizer, Taxonomy, TopicId};
use focus_crawl::Truth;
use focus_examples::{Example, ExampleContent, ExampleSet, LoadOptions};
use focus_fetch::Fetcher;
use focus_websim::Site;

use super::{Model, OTHERS};
use crate::setup::{web_fetcher, websim_good, AppError, Served};
use crate::user_input::read_seeds;

/// Training pages sampled per topic of a served site (a handful of
/// bookmarks, as the paper's users had).
pub(crate) const TRAINING_PAGES: usize = 10;

/// What a BINGO! crawl starts from.
pub(crate) struct Start {
    /// The topic tree (good marks on the user's topics) and its training
    /// pages (URLs, files or texts), the `others` topic among them.
    pub(crate) set: ExampleSet,
    /// Where both phases start.
    pub(crate) seeds: Vec<CanonicalUrl>,
    /// How the web is fetched.
    pub(crate) fetcher: Fetcher,
    /// Evaluation-only truth (a served site's).
    pub(crate) truth: Option<Truth>,
}

/// The user's topics: the good ones (pages below them count as theirs).
pub(crate) fn user_topics(taxonomy: &Taxonomy) -> Vec<TopicId> {
    taxonomy.good_topics()
}

/// Per user topic: (path, training pages of `before`, of `after`).
pub(crate) fn training_sizes(before: &Model, after: &Model) -> Vec<(String, usize, usize)> {
    let under = |m: &Model, g: TopicId| {
        m.examples
            .iter()
            .filter(|e| m.taxonomy.is_ancestor_or_self(g, e.topic))
            .count()
    };
    user_topics(&before.taxonomy)
        .into_iter()
        .map(|g| {
            (
                before.taxonomy.path(g).to_owned(),
                under(before, g),
                under(after, g),
            )
        })
        .collect()
}

/// The start of the crawl `plan` describes (`served` is the websim or the
/// corpus when the plan names one).
pub(crate) fn topic_tree(
    plan: &BingoPlan,
    served: Option<&Served>,
    canon: &Canonicalizer,
) -> Result<Start, AppError> {
    let crawl = &plan.crawl;
    if let Some(served) = served {
        return on_site(plan, served, canon);
    }
    let input = |e: focus_examples::ExamplesError| AppError::Input(e.to_string());
    let opts = LoadOptions::default();
    let (set, seeds_file) = match (&plan.bookmarks, &crawl.source) {
        (Some(file), source) => {
            let mut set =
                focus_examples::load_bookmarks(file, source.good(), &opts).map_err(input)?;
            if source.good().is_empty() {
                mark_all_but_others(&mut set.taxonomy)?;
            }
            (set, source.seeds_file().map(std::path::Path::to_path_buf))
        }
        (None, TopicSource::Examples { dir, good, seeds }) => (
            focus_examples::load(dir, good, &opts).map_err(input)?,
            Some(seeds.clone()),
        ),
        (None, _) => {
            return Err(AppError::Input(
                "no topics: give --bookmarks FILE or --examples DIR".into(),
            ))
        }
    };
    has_negatives(&set)?;
    let seeds = start_seeds(seeds_file.as_deref(), None, &set, canon)?;
    if seeds.is_empty() {
        return Err(AppError::Input(
            "no seed URL among the user's topics".into(),
        ));
    }
    Ok(Start {
        set,
        seeds,
        fetcher: web_fetcher(crawl)?,
        truth: None,
    })
}

/// Checks that the topic tree has pages outside the user's topics for the
/// SVMs to learn against: an `others` topic, or topics not marked good
/// (an example set of many categories); logs what was skipped.
fn has_negatives(set: &ExampleSet) -> Result<(), AppError> {
    for s in &set.skipped {
        tracing::warn!("skipped {}: {}", s.origin, s.reason);
    }
    let goods = set.taxonomy.good_topics();
    let outside = set.examples.iter().any(|e| {
        !goods
            .iter()
            .any(|&g| set.taxonomy.is_ancestor_or_self(g, e.topic))
    });
    if outside {
        return Ok(());
    }
    Err(AppError::Input(format!(
        "every training page is in a topic crawled for: add a folder named {OTHERS} with pages \
         far from every topic (BINGO!'s OTHERS class: the paper used about 50 pages of Yahoo's \
         top-level categories)"
    )))
}

/// Where the crawl starts: the seeds `file`, or else the served site's
/// seed pages of its good topics (if any) and the bookmarks of the user's
/// topics.
fn start_seeds(
    file: Option<&std::path::Path>,
    site: Option<(&Served, &[TopicId])>,
    set: &ExampleSet,
    canon: &Canonicalizer,
) -> Result<Vec<CanonicalUrl>, AppError> {
    if let Some(file) = file {
        return read_seeds(file, canon);
    }
    let given = match site {
        Some((served, good)) => served.seeds(good, None, canon)?,
        None => Vec::new(),
    };
    Ok(with_bookmarks(given, set))
}

/// The crawl's seeds: `given` and the training URLs of the user's topics
/// (BINGO!'s bookmarks are its seeds as well as its training data), each
/// once, in that order.
fn with_bookmarks(given: Vec<CanonicalUrl>, set: &ExampleSet) -> Vec<CanonicalUrl> {
    let goods = set.taxonomy.good_topics();
    let mut seeds = given;
    for (_, u) in set.urls().filter(|(e, _)| {
        goods
            .iter()
            .any(|&g| set.taxonomy.is_ancestor_or_self(g, e.topic))
    }) {
        if !seeds.contains(u) {
            seeds.push(u.clone());
        }
    }
    seeds
}

/// Marks every top-level topic but `others` good (a bookmarks file
/// crawled without `--good`).
fn mark_all_but_others(taxonomy: &mut Taxonomy) -> Result<(), AppError> {
    let tops: Vec<TopicId> = taxonomy.children(TopicId::ROOT).to_vec();
    for t in tops {
        if taxonomy.path(t) != OTHERS {
            taxonomy
                .mark_good(t)
                .map_err(|e| AppError::Input(e.to_string()))?;
        }
    }
    Ok(())
}

fn on_site(plan: &BingoPlan, served: &Served, canon: &Canonicalizer) -> Result<Start, AppError> {
    let crawl = &plan.crawl;
    let good = match &crawl.source {
        TopicSource::Websim { good, .. } => websim_good(good),
        source => source.good().to_vec(),
    };
    let site_good = served.good_topics(&good)?;
    let set = if let TopicSource::Corpus {
        examples: Some(dir),
        ..
    } = &crawl.source
    {
        // The user's example set of the corpus (its folders named as the
        // corpus's topics) instead of sampled pages.
        let set = focus_examples::load(dir, &good, &LoadOptions::default())
            .map_err(|e| AppError::Input(e.to_string()))?;
        has_negatives(&set)?;
        set
    } else {
        sampled(plan, served, &site_good, canon)?
    };
    let seeds = start_seeds(
        crawl.source.seeds_file(),
        Some((served, &site_good)),
        &set,
        canon,
    )?;
    Ok(Start {
        seeds,
        fetcher: served.fetcher(crawl)?,
        truth: Some(served.truth(&site_good, crawl.max_pages)),
        set,
    })
}

/// BINGO!'s OTHERS on a served site: `n` pages of the top-level
/// categories that hold none of `topics`, spread evenly over them and
/// sampled as the site samples examples; `None` when every top-level
/// category holds one of `topics`.
pub fn far_away_pages(site: &dyn Site, topics: &[TopicId], n: usize) -> Option<Vec<String>> {
    let tax = site.taxonomy();
    let far: Vec<TopicId> = tax
        .children(TopicId::ROOT)
        .iter()
        .copied()
        .filter(|&t| !topics.iter().any(|&g| tax.is_ancestor_or_self(t, g)))
        .collect();
    if far.is_empty() {
        return None;
    }
    let per = n.div_ceil(far.len());
    Some(
        far.into_iter()
            .flat_map(|t| site.sample(t, per))
            .map(|p| p.url)
            .take(n)
            .collect(),
    )
}

/// Bookmarks sampled from a served site: [`TRAINING_PAGES`] of each good
/// topic, and `--others` pages of the top-level categories that hold no
/// good topic as `others`.
fn sampled(
    plan: &BingoPlan,
    served: &Served,
    site_good: &[TopicId],
    canon: &Canonicalizer,
) -> Result<ExampleSet, AppError> {
    let site = &served.site;
    let bad = |e: focus_core::TaxonomyError| AppError::Input(e.to_string());
    let mut set = ExampleSet {
        taxonomy: Taxonomy::new(),
        examples: Vec::new(),
        skipped: Vec::new(),
    };
    let push = |set: &mut ExampleSet, topic: TopicId, url: &str, origin: &str| {
        if let Ok(u) = canon.canonicalize(url) {
            set.examples.push(Example {
                topic,
                origin: origin.to_owned(),
                content: ExampleContent::Url(u),
            });
        }
    };
    for &g in site_good {
        let path = site.taxonomy().path(g);
        let id = set.taxonomy.add_path(path).map_err(bad)?;
        set.taxonomy.mark_good(id).map_err(bad)?;
        for p in site.sample(g, TRAINING_PAGES) {
            push(&mut set, id, &p.url, &format!("a sampled page of {path}"));
        }
    }
    // OTHERS: pages of the top-level categories that hold no user topic.
    let others = set.taxonomy.add_path(OTHERS).map_err(bad)?;
    let far = far_away_pages(site.as_ref(), site_good, plan.others).ok_or_else(|| {
        AppError::Input(
            "every top-level category holds a user topic: no far-away pages for OTHERS".into(),
        )
    })?;
    for url in far {
        push(&mut set, others, &url, "a far-away page");
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(paths: &[&str], good: &str) -> ExampleSet {
        let mut taxonomy = Taxonomy::new();
        let canon = Canonicalizer::default();
        let mut examples = Vec::new();
        for (i, p) in paths.iter().enumerate() {
            let topic = taxonomy.add_path(p).unwrap();
            examples.push(Example {
                topic,
                origin: String::new(),
                content: ExampleContent::Url(
                    canon.canonicalize(&format!("http://{i}.test/")).unwrap(),
                ),
            });
        }
        let g = taxonomy.find(good).unwrap();
        taxonomy.mark_good(g).unwrap();
        ExampleSet {
            taxonomy,
            examples,
            skipped: Vec::new(),
        }
    }

    #[test]
    fn negatives_are_an_others_folder_or_topics_not_crawled_for() {
        assert!(has_negatives(&set(&["db", "db/aries", OTHERS], "db")).is_ok());
        assert!(has_negatives(&set(&["db", "ir"], "db")).is_ok());
        let none = has_negatives(&set(&["db", "db/aries"], "db")).unwrap_err();
        assert!(none.to_string().contains(OTHERS), "{none}");
    }

    #[test]
    fn the_bookmarks_of_the_users_topics_join_the_seeds_once() {
        let s = set(&["db", "ir", OTHERS], "db");
        let canon = Canonicalizer::default();
        let given = vec![canon.canonicalize("http://seed.test/").unwrap()];
        let seeds: Vec<String> = with_bookmarks(given, &s)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(seeds, ["http://seed.test/", "http://0.test/"]);
    }
}
