//! Print the calibration figures of the default web (`small` for the small
//! web, `seed=N` for another seed) or, with `toml`, the default configuration.
//!
//! `cargo run --release -p focus-websim --example calib`

fn main() -> Result<(), focus_websim::WebsimError> {
    let args: Vec<String> = std::env::args().collect();
    let cfg = if args.iter().any(|a| a == "small") {
        focus_websim::WebConfig::small()
    } else {
        focus_websim::WebConfig::default()
    };
    if args.iter().any(|a| a == "toml") {
        print!("{}", cfg.to_toml());
        return Ok(());
    }
    let seed = args
        .iter()
        .find_map(|a| a.strip_prefix("seed=")?.parse().ok())
        .unwrap_or(1);
    let t = std::time::Instant::now();
    let web = focus_websim::Web::new(cfg, seed)?;
    eprintln!("built in {:?}", t.elapsed());
    let c = focus_websim::stats::calibrate(&web, &focus_websim::stats::StatsOptions::default());
    print!("{}", c.render());
    eprintln!("total {:?}", t.elapsed());
    Ok(())
}
