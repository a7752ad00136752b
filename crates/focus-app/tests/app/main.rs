//! End-to-end tests of the composed crawlers (one module per crawler or
//! path), over real loopback HTTP.
//!
//! They are one test binary rather than one per file: the workspace links
//! one binary instead of nine, and tests that mostly wait (on robots.txt
//! `Crawl-delay` hosts, politeness intervals, nginx) share the cores with
//! tests that compute instead of leaving one core idle at the end of each
//! file. `tests/stop_request.rs` stays a binary of its own: a stop is for
//! the whole process (`focus_app::request_stop`), and it would stop every
//! crawl here.

mod common;
mod nginx;

mod bingo;
mod collection_synth;
mod context_graph;
mod dead_links;
mod fault_isolation;
mod mirror_https;
mod nginx_site;
mod stream_crawl;
mod user_web;
mod websim_crawl;
mod websim_text;
