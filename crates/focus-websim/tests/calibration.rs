//! The default web falls in every calibration range of the websim issue
//! (statistics on page samples and the generated graph, no HTTP).

use focus_websim::stats::{calibrate, StatsOptions};
use focus_websim::{Web, WebConfig};

#[test]
fn default_web_is_calibrated() {
    let web = Web::new(WebConfig::default(), 1).unwrap();
    let c = calibrate(&web, &StatsOptions::default());
    println!("{}", c.render());
    assert!(c.all_ok(), "out of range:\n{}", c.render());
    // The figures the issue names are all present.
    for name in [
        "same-host share of links",
        "links per page, median",
        "links per page, p90",
        "host size max / median",
        "page length (words), median",
        "page length, p90 / p10",
        "radius-1 lift, lowest topic",
        "radius-1 lift, highest topic",
        "co-citation lift (cross-host links)",
        "topic pages 2-5 links from seeds, min",
        "BFS harvest / share, lowest topic",
        "naive Bayes leaf accuracy",
    ] {
        assert!(c.get(name).is_some(), "missing figure {name}");
    }
}

#[test]
fn calibration_reports_out_of_range_figures() {
    // A web with almost no navigation structure: tiny hosts break the
    // host-size figure, and stats must say so.
    let mut config = WebConfig::small();
    config.host_size_sigma = 0.0;
    let web = Web::new(config, 1).unwrap();
    let opts = StatsOptions {
        sample_pages: 2000,
        length_pages: 200,
        bfs_topics: 0,
        train_per_leaf: 0,
        ..StatsOptions::default()
    };
    let c = calibrate(&web, &opts);
    assert!(!c.all_ok());
    assert!(c.render().contains("OUT OF RANGE"));
}
