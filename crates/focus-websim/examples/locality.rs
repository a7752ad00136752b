//! Topical locality of one topic's out-links, split by same-host and
//! cross-host links: the share that lands on the same topic, and how many
//! distinct pages those links reach (co-cited targets are few, off-topic
//! ones many). Ground truth: for analysis, never for crawlers.
//!
//! `cargo run --release -p focus-websim --example locality -- recreation/outdoors/cycling [seed]`

use std::collections::HashSet;

use focus_websim::{LinkTarget, Web, WebConfig, WebsimError};

fn host(url: &str) -> &str {
    url.split('/').nth(2).unwrap_or("")
}

fn main() -> Result<(), WebsimError> {
    let mut args = std::env::args().skip(1);
    let topic = args
        .next()
        .unwrap_or_else(|| "recreation/outdoors/cycling".to_owned());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let web = Web::new(WebConfig::default(), seed)?;
    let tax = web.taxonomy();
    let (mut pages, mut same, mut same_on, mut cross, mut cross_on) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut on_targets, mut off_targets) = (HashSet::new(), HashSet::new());
    for pid in 0..web.page_count() {
        let Some(t) = web.truth_of(pid) else { continue };
        if tax.path(t) != topic {
            continue;
        }
        pages += 1;
        let Some(url) = web.page_url(pid) else {
            continue;
        };
        for link in web.out_links(pid) {
            let LinkTarget::Page(q) = link.target else {
                continue;
            };
            let Some(target) = web.page_url(q) else {
                continue;
            };
            let on = web.truth_of(q) == Some(t);
            if host(&target) == host(&url) {
                same += 1;
                same_on += u64::from(on);
            } else {
                cross += 1;
                cross_on += u64::from(on);
                if on {
                    on_targets.insert(q);
                } else {
                    off_targets.insert(q);
                }
            }
        }
    }
    let share = |a: u64, b: u64| a as f64 / b.max(1) as f64;
    println!("{topic} (seed {seed}): {pages} pages");
    println!(
        "same-host links: {same}, on topic {:.3}",
        share(same_on, same)
    );
    println!(
        "cross-host links: {cross}, on topic {:.3}; distinct targets on topic {} ({:.2} links each), off topic {} ({:.2} links each)",
        share(cross_on, cross),
        on_targets.len(),
        share(cross_on, on_targets.len() as u64),
        off_targets.len(),
        share(cross - cross_on, off_targets.len() as u64),
    );
    Ok(())
}
