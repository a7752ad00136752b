//! Reproduction of the 1999 papers' experiments on the websim
//! (`cargo xtask repro chakrabarti`): Figures 3–5 (unfocused, hard and soft
//! crawls on a cooperative and a competitive topic), Figures 6–7 (URL and
//! server overlap of two soft crawls from disjoint random halves of the
//! seeds), Figure 9 (link distance of the top authorities' hosts from the
//! seeds) and the VLDB paper's Figure 6 (coverage of a reference crawl by a
//! test crawl from a disjoint start set). Writes SVGs and a markdown report.
//!
//! Every crawl goes through [`crate::run`], exactly as the binaries do; the
//! figures are computed from the crawls' own outputs (`pages.jsonl`,
//! `authorities.tsv` and the store's link graph).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use focus_cli::{Baseline, CrawlPlan, TopicSource};
use focus_core::{CanonicalUrl, Canonicalizer};
use focus_eval::{histogram, line_chart, link_distances, overlap_curve, HarvestTracker, Series};
use focus_store::Store;
use focus_websim::{Web, WebConfig};

use crate::{run, AppError, Personality};

/// Seeds drawn from the websim per topic; the two disjoint halves of the
/// overlap experiments take `SEEDS / 2` each.
const SEEDS: usize = 12;
/// Moving-average window of the harvest curves.
const WINDOW: usize = 100;
/// Points on the overlap and coverage curves.
const CURVE_STEP: usize = 100;
/// The VLDB paper's relevance threshold for the coverage experiment:
/// log R(u) > −1.
const COVERAGE_LOG_R: f64 = -1.0;

/// The two topics of the papers' robustness figures: cycling (a
/// cooperative community) and mutual funds (a competitive one).
const TOPICS: [(&str, &str); 2] = [
    ("recreation/outdoors/cycling", "cycling"),
    ("business/investment/mutual_funds", "mutual funds"),
];

/// Settings of one reproduction run.
#[derive(Debug, Clone)]
pub struct ReproConfig {
    /// Where SVGs and the report go (`docs/results`).
    pub out: PathBuf,
    /// Scratch directory for the crawls' own outputs.
    pub work: PathBuf,
    /// Pages per crawl.
    pub pages: u64,
    /// Seed of the websim and of every crawl.
    pub seed: u64,
}

/// One fetched page, as read back from `pages.jsonl`.
#[derive(Debug, Clone)]
struct Fetched {
    url: String,
    parent: Option<String>,
    relevance: f64,
    truth: bool,
}

/// What one crawl left behind.
#[derive(Debug)]
struct Crawl {
    pages: Vec<Fetched>,
    dir: PathBuf,
}

impl Crawl {
    fn harvest(&self) -> f64 {
        ratio(
            self.pages.iter().filter(|p| p.truth).count(),
            self.pages.len(),
        )
    }

    fn harvest_last(&self, n: usize) -> f64 {
        let tail = &self.pages[self.pages.len().saturating_sub(n)..];
        ratio(tail.iter().filter(|p| p.truth).count(), tail.len())
    }

    fn relevant_urls(&self) -> Vec<String> {
        self.pages
            .iter()
            .filter(|p| p.truth)
            .map(|p| p.url.clone())
            .collect()
    }

    fn urls(&self) -> Vec<String> {
        self.pages.iter().map(|p| p.url.clone()).collect()
    }

    /// (pages, harvest) of the pages reached through a same-host link and
    /// of those reached through a cross-host link.
    fn by_link_kind(&self) -> [(usize, f64); 2] {
        let mut n = [(0usize, 0usize); 2];
        for p in &self.pages {
            let Some(parent) = &p.parent else { continue };
            let k = usize::from(host_of(parent) != host_of(&p.url));
            n[k].0 += 1;
            n[k].1 += usize::from(p.truth);
        }
        n.map(|(all, rel)| (all, ratio(rel, all)))
    }

    fn hosts(&self) -> Vec<String> {
        self.pages.iter().map(|p| host_of(&p.url)).collect()
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

fn host_of(url: &str) -> String {
    url.split('/').nth(2).unwrap_or_default().to_owned()
}

fn input(e: impl std::fmt::Display) -> AppError {
    AppError::Input(e.to_string())
}

fn write(path: &Path, body: &str) -> Result<(), AppError> {
    std::fs::write(path, body).map_err(|e| input(format!("{}: {e}", path.display())))
}

fn read_pages(dir: &Path) -> Result<Vec<Fetched>, AppError> {
    let path = dir.join("pages.jsonl");
    let text =
        std::fs::read_to_string(&path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(input)?;
        out.push(Fetched {
            url: v["url"].as_str().unwrap_or_default().to_owned(),
            parent: v["parent"].as_str().map(str::to_owned),
            relevance: v["relevance"].as_f64().unwrap_or(0.0),
            truth: v["relevant_true"].as_bool().unwrap_or(false),
        });
    }
    Ok(out)
}

async fn crawl(
    cfg: &ReproConfig,
    name: &str,
    good: &str,
    seeds: &Path,
    personality: Personality,
    baseline: Option<Baseline>,
) -> Result<Crawl, AppError> {
    let dir = cfg.work.join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(input)?;
    }
    let plan = CrawlPlan {
        source: TopicSource::Websim {
            good: vec![good.to_owned()],
            seeds: Some(seeds.to_path_buf()),
            pages: None,
        },
        connect_to: vec![],
        max_pages: cfg.pages,
        time_limit: None,
        concurrency: focus_cli::DEFAULT_CONCURRENCY,
        out: dir.clone(),
        seed: cfg.seed,
        resume: false,
        baseline,
    };
    let summary = run(&plan, personality).await?;
    tracing::info!(
        "{name}: {} pages, true harvest {:.3}",
        summary.pages_fetched,
        summary.harvest_rate_true.unwrap_or(0.0)
    );
    Ok(Crawl {
        pages: read_pages(&dir)?,
        dir,
    })
}

/// Shortest link distance from the seeds to each host, over the link graph
/// the crawl recorded (fetched pages and the links they carry).
fn host_distances(dir: &Path, seeds: &[CanonicalUrl]) -> Result<HashMap<String, usize>, AppError> {
    let store = Store::open(&dir.join("store")).map_err(input)?;
    let mut host_of_id: HashMap<u64, String> = HashMap::new();
    for page in store.pages() {
        let p = page.map_err(input)?;
        host_of_id.insert(p.id, host_of(&p.url));
    }
    let mut edges: HashMap<u64, Vec<u64>> = HashMap::new();
    for link in store.links_with_urls() {
        let (from, to, url) = link.map_err(input)?;
        edges.entry(from).or_default().push(to);
        host_of_id.entry(to).or_insert_with(|| host_of(&url));
    }
    let seed_ids: Vec<u64> = seeds.iter().map(|s| s.page_id().0).collect();
    let mut by_host: HashMap<String, usize> = HashMap::new();
    for (id, d) in link_distances(&edges, &seed_ids) {
        if let Some(h) = host_of_id.get(&id) {
            let e = by_host.entry(h.clone()).or_insert(d);
            *e = (*e).min(d);
        }
    }
    Ok(by_host)
}

fn top_authority_hosts(dir: &Path, n: usize) -> Result<Vec<String>, AppError> {
    let path = dir.join("authorities.tsv");
    let text =
        std::fs::read_to_string(&path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut seen = HashSet::new();
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(host_of)
        .filter(|h| seen.insert(h.clone()))
        .take(n)
        .collect())
}

fn points(curve: &[(usize, f64)]) -> Vec<(f64, f64)> {
    curve.iter().map(|&(t, y)| (t as f64, y)).collect()
}

fn last(curve: &[(usize, f64)]) -> f64 {
    curve.last().map_or(0.0, |p| p.1)
}

/// Fraction of `reference` found by the test crawl's first t fetches.
fn coverage_curve(reference: &HashSet<String>, test: &[String], step: usize) -> Vec<(usize, f64)> {
    let mut found = HashSet::new();
    let mut out = Vec::new();
    for (t, x) in test.iter().enumerate() {
        if reference.contains(x) {
            found.insert(x.clone());
        }
        if (t + 1) % step.max(1) == 0 || t + 1 == test.len() {
            out.push((t + 1, ratio(found.len(), reference.len())));
        }
    }
    out
}

/// Everything measured on one topic.
struct TopicResult {
    label: String,
    share: f64,
    harvest: [(String, f64, f64, f64); 3],
    soft_links: [(usize, f64); 2],
    url_overlap: f64,
    relevant_overlap: (f64, f64),
    server_overlap: (f64, f64),
    coverage_urls: f64,
    coverage_servers: f64,
    distances: BTreeMap<usize, usize>,
    unreached: usize,
}

async fn topic(
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
        Personality::Soft,
        Some(Baseline::Random),
    )
    .await?;
    let hard = crawl(
        cfg,
        &format!("{slug}-hard"),
        path,
        all,
        Personality::Hard,
        None,
    )
    .await?;
    let soft = crawl(
        cfg,
        &format!("{slug}-soft"),
        path,
        all,
        Personality::Soft,
        None,
    )
    .await?;
    let a = crawl(
        cfg,
        &format!("{slug}-soft-a"),
        path,
        &seed_files["a"],
        Personality::Soft,
        None,
    )
    .await?;
    let b = crawl(
        cfg,
        &format!("{slug}-soft-b"),
        path,
        &seed_files["b"],
        Personality::Soft,
        None,
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

fn report(cfg: &ReproConfig, results: &[TopicResult]) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Chakrabarti et al. 1999 on the websim\n\n\
         Generated by `cargo xtask repro chakrabarti` (websim seed {}, {} pages per crawl, \
         {SEEDS} seeds per topic from `Web::seed_urls`; the overlap crawls start from \
         disjoint halves of them). Harvest is ground truth from the websim; R is the \
         crawler's own naive-Bayes relevance. The websim is synthetic: these numbers say \
         how the crawlers behave on its calibrated link and text model, not on the web.\n",
        cfg.seed, cfg.pages
    );
    let _ = writeln!(
        md,
        "## Figures 3–5: unfocused, hard and soft focus\n\n\
         Paper: the unfocused crawl's relevance \"goes quickly toward zero\"; focused crawls \
         keep \"between a third and half of all page fetches\" relevant, and their pages \
         show \"a very sharp peak at the highest possible relevance\" (Fig. 5).\n\n\
         | topic | share of web | crawl | harvest (all) | harvest (last 1,000) | pages with R > 0.9 |\n\
         |---|---|---|---|---|---|"
    );
    for r in results {
        for (name, all, last, peak) in &r.harvest {
            let _ = writeln!(
                md,
                "| {} | {:.3} | {name} | {all:.3} | {last:.3} | {peak:.3} |",
                r.label, r.share
            );
        }
    }
    let _ = writeln!(
        md,
        "\nWhere the soft crawl's pages came from (its links ranked only by the parent's \
         relevance, as the 1999 rule has it):\n\n\
         | topic | pages via same-host links | their harvest | pages via cross-host links | their harvest |\n\
         |---|---|---|---|---|"
    );
    for r in results {
        let [(same, hs), (cross, hc)] = r.soft_links;
        let _ = writeln!(md, "| {} | {same} | {hs:.3} | {cross} | {hc:.3} |", r.label);
    }
    let _ = writeln!(
        md,
        "\nCurves: `fig3-4-harvest-*.svg`; histograms: `fig5-relevance-*.svg`.\n\n\
         ## Figures 6–7 and VLDB Figure 6: robustness to the start set\n\n\
         Paper: URL overlap of two soft crawls from disjoint seed samples grew to 90 % \
         (cycling) and over 60 % (mutual funds); server overlap grows steadily; a test crawl \
         from a disjoint start set collected 83 % of the reference crawl's relevant URLs and \
         90 % of its servers within an hour (VLDB).\n\n\
         | topic | URL overlap | relevant-URL overlap (A→B, B→A) | server overlap (A→B, B→A) | coverage of A's relevant URLs by B | of A's servers |\n\
         |---|---|---|---|---|---|"
    );
    for r in results {
        let _ = writeln!(
            md,
            "| {} | {:.3} | {:.3}, {:.3} | {:.3}, {:.3} | {:.3} | {:.3} |",
            r.label,
            r.url_overlap,
            r.relevant_overlap.0,
            r.relevant_overlap.1,
            r.server_overlap.0,
            r.server_overlap.1,
            r.coverage_urls,
            r.coverage_servers
        );
    }
    let _ = writeln!(
        md,
        "\nCoverage counts a reference page as relevant when log R > {COVERAGE_LOG_R} (the VLDB \
         paper's threshold). Curves: `fig6-7-overlap-*.svg`, `vldb-fig6-coverage-*.svg`.\n\n\
         ## Figure 9: how remote are the best resources?\n\n\
         Paper: many of the 100 most popular servers lie far from the seeds, \"up to 10 links \
         and beyond\"; for mutual funds a peak near 10 links.\n\n\
         | topic | hosts at distance d (d: count) | not reached in the crawl graph |\n|---|---|---|"
    );
    for r in results {
        let hist: Vec<String> = r
            .distances
            .iter()
            .map(|(d, n)| format!("{d}: {n}"))
            .collect();
        let _ = writeln!(
            md,
            "| {} | {} | {} |",
            r.label,
            hist.join(", "),
            r.unreached
        );
    }
    let _ = writeln!(
        md,
        "\nDistances are shortest paths over the soft crawl's recorded link graph from its \
         seeds to any page of the host (`fig9-distance-*.svg`)."
    );
    md
}

/// Runs every experiment and writes `chakrabarti.md` and the SVGs to
/// `cfg.out`. Returns the report.
pub async fn chakrabarti(cfg: &ReproConfig) -> Result<String, AppError> {
    std::fs::create_dir_all(&cfg.out).map_err(input)?;
    let web = Web::new(WebConfig::default(), cfg.seed).map_err(input)?;
    let mut results = Vec::new();
    for (path, label) in TOPICS {
        results.push(topic(cfg, &web, path, label).await?);
    }
    let md = report(cfg, &results);
    write(&cfg.out.join("chakrabarti.md"), &md)?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, parent: Option<&str>, truth: bool) -> Fetched {
        Fetched {
            url: url.into(),
            parent: parent.map(Into::into),
            relevance: 0.0,
            truth,
        }
    }

    #[test]
    fn coverage_counts_reference_items_found_by_t() {
        let reference: HashSet<String> = ["a", "b", "c", "d"].map(String::from).into();
        let test: Vec<String> = ["x", "a", "a", "b", "y"].map(String::from).into();
        assert_eq!(
            coverage_curve(&reference, &test, 2),
            vec![(2, 0.25), (4, 0.5), (5, 0.5)]
        );
    }

    #[test]
    fn link_kinds_split_by_the_parents_host() {
        let c = Crawl {
            pages: vec![
                page("http://a.test/", None, true),
                page("http://a.test/1", Some("http://a.test/"), true),
                page("http://a.test/2", Some("http://a.test/"), false),
                page("http://b.test/", Some("http://a.test/1"), false),
            ],
            dir: PathBuf::new(),
        };
        assert_eq!(c.by_link_kind(), [(2, 0.5), (1, 0.0)]);
        assert_eq!(c.hosts(), ["a.test", "a.test", "a.test", "b.test"]);
        assert!((c.harvest() - 0.5).abs() < 1e-12);
        assert!(
            c.harvest_last(2).abs() < 1e-12,
            "the last two are irrelevant"
        );
    }
}
