//! The default web's contents: its topic taxonomy with each topic's role
//! and its fault hosts (`WebConfig::default`; `fixtures/websim/default.toml`
//! mirrors them).

use super::{FaultKind, FaultSpec, TopicRole, TopicSpec};

fn t(path: &str, role: TopicRole) -> TopicSpec {
    TopicSpec {
        path: path.to_string(),
        weight: 1.0,
        role,
        host_topic: None,
        hub_of: None,
        home_topic: None,
        section_topic: None,
        person_topic: None,
    }
}

pub(super) fn default_topics() -> Vec<TopicSpec> {
    use TopicRole::{Cooperative, Hub, Normal, Structural, Universal};
    let normal = [
        "arts/music/jazz",
        "arts/music/classical",
        "arts/music/rock",
        "arts/film/reviews",
        "arts/film/festivals",
        "arts/visual/painting",
        "arts/visual/photography",
        "business/investment/stocks",
        "business/shopping/electronics",
        "business/shopping/books",
        "computers/software/open_source",
        "computers/internet/web_design",
        "computers/internet/search_engines",
        "computers/hardware/components",
        "computers/hardware/laptops",
        "health/medicine/cardiology",
        "health/medicine/oncology",
        "health/fitness/running",
        "health/fitness/yoga",
        "health/nutrition/diets",
        "health/nutrition/supplements",
        "recreation/outdoors/hiking",
        "recreation/outdoors/climbing",
        "recreation/travel/guides",
        "recreation/travel/hotels",
        "science/physics/optics",
        "science/physics/particle_physics",
        "science/biology/genetics",
        "science/biology/ecology",
        "science/research/conferences",
        "society/news/world",
        "society/government/agencies",
        "society/government/elections",
        "sports/team/football",
        "sports/team/basketball",
        "sports/individual/tennis",
        "sports/individual/golf",
    ];
    let mut v: Vec<TopicSpec> = normal.iter().map(|p| t(p, Normal)).collect();
    v.push(t("recreation/outdoors/cycling", Cooperative));
    v.push(t("arts/music/opera", Cooperative));
    let mut funds = t("business/investment/mutual_funds", TopicRole::Competitive);
    funds.weight = 1.6;
    funds.host_topic = Some("business/companies/corporate_info".into());
    v.push(funds);
    let mut insurance = t("business/finance/insurance", TopicRole::Competitive);
    insurance.weight = 1.2;
    insurance.host_topic = Some("business/companies/corporate_info".into());
    v.push(insurance);
    let mut dirs = t("business/investment/directories", Hub);
    dirs.weight = 1.0;
    dirs.hub_of = Some("business/investment".into());
    v.push(dirs);
    let mut linkpages = t("recreation/outdoors/link_lists", Hub);
    linkpages.weight = 0.5;
    linkpages.hub_of = Some("recreation".into());
    v.push(linkpages);
    let mut papers = t("science/research/papers", TopicRole::Context);
    papers.weight = 1.5;
    papers.home_topic = Some("society/education/universities".into());
    papers.section_topic = Some("society/education/departments".into());
    papers.person_topic = Some("society/education/people".into());
    v.push(papers);
    for p in [
        "business/companies/corporate_info",
        "society/education/universities",
        "society/education/departments",
        "society/education/people",
    ] {
        v.push(t(p, Structural));
    }
    for p in ["computers/software/downloads", "society/news/weather"] {
        v.push(t(p, Universal));
    }
    v
}

pub(super) fn default_faults() -> Vec<FaultSpec> {
    use FaultKind::{
        Calendar, Gone, Gzip, Malformed, Mirror, NonHtml, NotFound, Oversized, RedirectChain,
        RedirectLoop, Reset, RobotsForbidden, ServerError, SessionId, Slow, Stall, Unavailable,
    };
    [
        ("www.corvane-9001.com", RedirectChain),
        ("www.halberd-9002.net", RedirectLoop),
        ("www.pellworth-9003.org", NotFound),
        ("www.quillan-9004.com", Gone),
        ("www.rastoke-9005.net", ServerError),
        ("www.sabrel-9006.org", Unavailable),
        ("www.tevrin-9007.com", Slow),
        ("www.ulmara-9008.net", Stall),
        ("www.vestry-9009.org", Reset),
        ("www.wendol-9010.com", NonHtml),
        ("www.xarith-9011.net", Oversized),
        ("www.yorvik-9012.org", Malformed),
        ("www.zandor-9013.com", Gzip),
        ("www.abrine-9014.net", Calendar),
        ("www.bexley-9015.org", SessionId),
        ("www.caddow-9016.com", Mirror),
        ("www.dunmore-9017.net", RobotsForbidden),
    ]
    .into_iter()
    .map(|(host, kind)| FaultSpec {
        host: host.to_string(),
        kind,
    })
    .collect()
}
