//! Helpers of the nginx integration test (`nginx_site.rs`): the
//! generated web ([`site`]), the nginx process and its access log
//! ([`server`]), and a raw HTTP client for checking nginx alone ([`http`]).

pub(crate) mod http;
pub(crate) mod server;
pub(crate) mod site;
