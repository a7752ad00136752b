//! One topic of the reproduction: its seeds and their disjoint halves, the
//! five crawls (unfocused, hard, soft, and soft from each half), the SVG
//! figures drawn from them, and the [`TopicResult`] the report tabulates.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use focus_cli::Crawler;
use focus_core::{CanonicalUrl, Canonicalizer};
use focus_eval::{histogram, line_chart, overlap_curve, HarvestTracker, Series};
use focus_websim::Web;

use super::crawls::{crawl, top_authority_hosts, Crawl};
use super::measures::{coverage_curve, host_distances, host_of, last, points, ratio};
use super::{input, write, ReproConfig, COVERAGE_LOG_R, CURVE_STEP, SEEDS, WINDOW};
use focus_app::AppError;

/// Everything measured on one topic.
pub(super) struct TopicResult {
    pub(super) label: String,
    pub(super) share: f64,
    pub(super) harvest: [(String, f64, f64, f64); 3],
    pub(super) soft_links: [(usize, f64); 2],
    pub(super) url_overlap: f64,
    pub(super) relevant_overlap: (f64, f64),
    pub(super) server_overlap: (f64, f64),
    pub(super) coverage_urls: f64,
    pub(super) coverage_servers: f64,
    pub(super) distances: BTreeMap<usize, usize>,
    pub(super) unreached: usize,
}

pub(super) async fn topic(
    cfg: &ReproConfig,
    web: &Web,
    path: &str,
    label: &str,
) -> Result<TopicResult, AppError> {
    let canon = Canonicalizer::default();
    let id = web
        .taxonomy()
        .find(path)
        .ok_or_else(|| input(format!("the websim has no topic {path}")))?;
    let slug = label.replace(' ', "_");
    let seeds = web.seed_urls(id, SEEDS);
    // Disjoint random halves (the paper's two ~30 % samples).
    let mut order: Vec<(u64, &String)> = seeds
        .iter()
        .map(|s| {
            (
                focus_core::PageId::of_canonical(&format!("{}{s}", cfg.seed)).0,
                s,
            )
        })
        .collect();
    order.sort();
    let half = seeds.len() / 2;
    let files = [
        ("all", seeds.iter().collect::<Vec<_>>()),
        ("a", order.iter().take(half).map(|p| p.1).collect()),
        ("b", order.iter().skip(half).map(|p| p.1).collect()),
    ];
    std::fs::create_dir_all(&cfg.work).map_err(input)?;
    let mut seed_files = HashMap::new();
    for (name, list) in &files {
        let f = cfg.work.join(format!("{slug}-seeds-{name}.txt"));
        let body = list.iter().fold(String::new(), |mut acc, s| {
            let _ = writeln!(acc, "{s}");
            acc
        });
        write(&f, &body)?;
        seed_files.insert(*name, f);
    }
    let all = &seed_files["all"];
    let unfocused = crawl(
        cfg,
        &format!("{slug}-unfocused"),
        path,
        all,
        Crawler::Random,
    )
    .await?;
    let hard = crawl(cfg, &format!("{slug}-hard"), path, all, Crawler::Hard).await?;
    let soft = crawl(
        cfg,
        &format!("{slug}-soft"),
        path,
        all,
        super::crawls::PAPER_SOFT,
    )
    .await?;
    let a = crawl(
        cfg,
        &format!("{slug}-soft-a"),
        path,
        &seed_files["a"],
        super::crawls::PAPER_SOFT,
    )
    .await?;
    let b = crawl(
        cfg,
        &format!("{slug}-soft-b"),
        path,
        &seed_files["b"],
        super::crawls::PAPER_SOFT,
    )
    .await?;

    // Figures 3–4: harvest curves (moving average of ground truth).
    let runs = [("unfocused", &unfocused), ("hard", &hard), ("soft", &soft)];
    let series: Vec<Series> = runs
        .iter()
        .map(|(name, c)| {
            let truth: Vec<f64> = c
                .pages
                .iter()
                .map(|p| if p.truth { 1.0 } else { 0.0 })
                .collect();
            Series {
                name: (*name).to_owned(),
                points: HarvestTracker::moving(&truth, WINDOW)
                    .into_iter()
                    .enumerate()
                    .map(|(i, y)| ((i + 1) as f64, y))
                    .collect(),
            }
        })
        .collect();
    write(
        &cfg.out.join(format!("fig3-4-harvest-{slug}.svg")),
        &line_chart(
            &format!("{label}: harvest rate (moving average of {WINDOW}, ground truth)"),
            "pages fetched",
            "relevant fraction",
            &series,
        ),
    )?;
    // Figure 5: relevance histograms (estimated R, ten bins).
    let hist: Vec<Series> = runs
        .iter()
        .map(|(name, c)| {
            let mut bins = [0usize; 10];
            for p in &c.pages {
                bins[((p.relevance * 10.0) as usize).min(9)] += 1;
            }
            Series {
                name: (*name).to_owned(),
                points: bins
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| (i as f64 / 10.0 + 0.05, n as f64))
                    .collect(),
            }
        })
        .collect();
    write(
        &cfg.out.join(format!("fig5-relevance-{slug}.svg")),
        &histogram(
            &format!("{label}: pages by estimated relevance R"),
            "relevance",
            &hist,
        ),
    )?;

    // Figures 6–7: URL and server overlap of the disjoint-seed crawls.
    let url_curve = overlap_curve(&a.urls(), &b.urls(), CURVE_STEP);
    let (ha, hb) = (a.hosts(), b.hosts());
    let server_ab = overlap_curve(&ha, &hb, CURVE_STEP);
    let server_ba = overlap_curve(&hb, &ha, CURVE_STEP);
    write(
        &cfg.out.join(format!("fig6-7-overlap-{slug}.svg")),
        &line_chart(
            &format!("{label}: overlap of two soft crawls from disjoint seed halves"),
            "pages fetched by each crawl",
            "overlap",
            &[
                Series {
                    name: "URLs |U1∩U2|/|U1|".into(),
                    points: points(&url_curve),
                },
                Series {
                    name: "servers |S1∩S2|/|S1|".into(),
                    points: points(&server_ab),
                },
                Series {
                    name: "servers |S1∩S2|/|S2|".into(),
                    points: points(&server_ba),
                },
            ],
        ),
    )?;
    let (ra, rb): (HashSet<String>, HashSet<String>) = (
        a.relevant_urls().into_iter().collect(),
        b.relevant_urls().into_iter().collect(),
    );
    let common = ra.intersection(&rb).count();

    // VLDB Figure 6: coverage of reference crawl A by test crawl B.
    let threshold = COVERAGE_LOG_R.exp();
    let ref_urls: HashSet<String> = a
        .pages
        .iter()
        .filter(|p| p.relevance > threshold)
        .map(|p| p.url.clone())
        .collect();
    let ref_hosts: HashSet<String> = ref_urls.iter().map(|u| host_of(u)).collect();
    let cov_urls = coverage_curve(&ref_urls, &b.urls(), CURVE_STEP);
    let cov_hosts = coverage_curve(&ref_hosts, &hb, CURVE_STEP);
    write(
        &cfg.out.join(format!("vldb-fig6-coverage-{slug}.svg")),
        &line_chart(
            &format!("{label}: coverage of a reference crawl by a crawl from disjoint seeds"),
            "pages fetched by the test crawl",
            "fraction of the reference crawl's relevant",
            &[
                Series {
                    name: "URLs".into(),
                    points: points(&cov_urls),
                },
                Series {
                    name: "servers".into(),
                    points: points(&cov_hosts),
                },
            ],
        ),
    )?;

    // Figure 9: link distance from the seeds to the top authorities' hosts.
    let seed_urls: Vec<CanonicalUrl> = seeds
        .iter()
        .filter_map(|s| canon.canonicalize(s).ok())
        .collect();
    let dist = host_distances(&soft.dir, &seed_urls)?;
    let mut distances: BTreeMap<usize, usize> = BTreeMap::new();
    let mut unreached = 0;
    for h in top_authority_hosts(&soft.dir, 100)? {
        match dist.get(&h) {
            Some(&d) => *distances.entry(d).or_insert(0) += 1,
            None => unreached += 1,
        }
    }
    write(
        &cfg.out.join(format!("fig9-distance-{slug}.svg")),
        &histogram(
            &format!("{label}: link distance from the seeds to the top authorities' hosts"),
            "links from the seed set",
            &[Series {
                name: "hosts".into(),
                points: distances
                    .iter()
                    .map(|(&d, &n)| (d as f64, n as f64))
                    .collect(),
            }],
        ),
    )?;

    let h = |name: &str, c: &Crawl| {
        (
            name.to_owned(),
            c.harvest(),
            c.harvest_last(1000),
            c.pages.iter().filter(|p| p.relevance > 0.9).count() as f64
                / c.pages.len().max(1) as f64,
        )
    };
    Ok(TopicResult {
        label: label.to_owned(),
        share: web.truth_share(id),
        harvest: [
            h("unfocused", &unfocused),
            h("hard", &hard),
            h("soft", &soft),
        ],
        soft_links: soft.by_link_kind(),
        url_overlap: last(&url_curve),
        relevant_overlap: (ratio(common, ra.len()), ratio(common, rb.len())),
        server_overlap: (last(&server_ab), last(&server_ba)),
        coverage_urls: last(&cov_urls),
        coverage_servers: last(&cov_hosts),
        distances,
        unreached,
    })
}
