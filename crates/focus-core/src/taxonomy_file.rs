//! The taxonomy file format (documented in `docs/formats.md`).
//!
//! One topic per line: `NAME PARENT [good]`, whitespace-separated. `PARENT`
//! is another topic's name, or `-` for a child of the root. Names are unique
//! in a file and made of letters, digits, `_`, `-` and `.`. `#` starts a
//! comment; blank lines are ignored; lines may come in any order.
//!
//! ```text
//! # name         parent       mark
//! business       -
//! investment     business
//! mutual_funds   investment   good
//! ```
//!
//! Errors name the file and the line: syntax, a duplicate name, an unknown
//! parent, a cycle, and two good topics on one root-to-leaf path.

use std::collections::HashMap;
use std::fmt;

use crate::taxonomy::{Taxonomy, TaxonomyError, TopicId};

/// A taxonomy file error, pointing at `file:line`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {kind}")]
pub struct TaxonomyFileError {
    /// The name of the file (as the caller gave it).
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub kind: FileErrorKind,
}

/// What is wrong on a line of a taxonomy file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileErrorKind {
    /// The line is not `NAME PARENT [good]`.
    Syntax(String),
    /// The name was already declared on another line.
    Duplicate {
        /// The repeated name.
        name: String,
        /// The line of the first declaration.
        first_line: usize,
    },
    /// The parent is never declared.
    UnknownParent(String),
    /// Following parents from this topic never reaches the root.
    Cycle(String),
    /// The tree itself refused the line (e.g. nested good topics).
    Tree(TaxonomyError),
}

impl fmt::Display for FileErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(msg) => write!(f, "syntax error: {msg}"),
            Self::Duplicate { name, first_line } => {
                write!(f, "topic `{name}` is already declared on line {first_line}")
            }
            Self::UnknownParent(p) => write!(f, "unknown parent `{p}`"),
            Self::Cycle(name) => write!(f, "topic `{name}` is part of a parent cycle"),
            Self::Tree(e) => write!(f, "{e}"),
        }
    }
}

struct Entry<'a> {
    name: &'a str,
    parent: Option<&'a str>,
    good: bool,
    line: usize,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Parses a taxonomy file's `text`; `file` names it in errors.
pub fn parse_taxonomy(file: &str, text: &str) -> Result<Taxonomy, TaxonomyFileError> {
    let err = |line: usize, kind: FileErrorKind| TaxonomyFileError {
        file: file.to_owned(),
        line,
        kind,
    };

    let mut entries: Vec<Entry<'_>> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let (name, parent, good) = match fields.as_slice() {
            [n, p] => (*n, *p, false),
            [n, p, m] if m.eq_ignore_ascii_case("good") => (*n, *p, true),
            [_, _, m] => {
                return Err(err(
                    line,
                    FileErrorKind::Syntax(format!("unknown mark `{m}` (expected `good`)")),
                ))
            }
            _ => {
                return Err(err(
                    line,
                    FileErrorKind::Syntax("expected `NAME PARENT [good]`".to_owned()),
                ))
            }
        };
        for n in [name, parent] {
            if n != "-" && !valid_name(n) {
                return Err(err(
                    line,
                    FileErrorKind::Syntax(format!("invalid topic name `{n}`")),
                ));
            }
        }
        if name == "-" {
            return Err(err(
                line,
                FileErrorKind::Syntax("`-` is not a topic name".to_owned()),
            ));
        }
        if let Some(&first) = by_name.get(name) {
            return Err(err(
                line,
                FileErrorKind::Duplicate {
                    name: name.to_owned(),
                    first_line: entries[first].line,
                },
            ));
        }
        by_name.insert(name, entries.len());
        entries.push(Entry {
            name,
            parent: (parent != "-").then_some(parent),
            good,
            line,
        });
    }

    for e in &entries {
        if let Some(p) = e.parent {
            if !by_name.contains_key(p) {
                return Err(err(e.line, FileErrorKind::UnknownParent(p.to_owned())));
            }
        }
    }

    // Insert topics parent-first; whatever never becomes insertable is on a cycle.
    let mut taxonomy = Taxonomy::new();
    let mut inserted: HashMap<&str, TopicId> = HashMap::new();
    let mut progress = true;
    while progress && inserted.len() < entries.len() {
        progress = false;
        for e in &entries {
            if inserted.contains_key(e.name) {
                continue;
            }
            let parent_id = match e.parent {
                None => Some(TopicId::ROOT),
                Some(p) => inserted.get(p).copied(),
            };
            if let Some(pid) = parent_id {
                let id = taxonomy
                    .add_child(pid, e.name)
                    .map_err(|t| err(e.line, FileErrorKind::Tree(t)))?;
                inserted.insert(e.name, id);
                progress = true;
            }
        }
    }
    if let Some(e) = entries.iter().find(|e| !inserted.contains_key(e.name)) {
        return Err(err(e.line, FileErrorKind::Cycle(e.name.to_owned())));
    }

    // Good marks last, in file order, so the error names the later line.
    let mut good: Vec<&Entry<'_>> = entries.iter().filter(|e| e.good).collect();
    good.sort_by_key(|e| e.line);
    for e in good {
        taxonomy
            .mark_good(inserted[e.name])
            .map_err(|t| err(e.line, FileErrorKind::Tree(t)))?;
    }
    Ok(taxonomy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mark;

    #[test]
    fn parses_a_documented_example_in_any_order() {
        let text = "# demo\nmutual_funds investment good\nbusiness -\ninvestment business\n\nstocks investment # leaf\n";
        let t = parse_taxonomy("demo.tax", text).unwrap();
        let mf = t.find("business/investment/mutual_funds").unwrap();
        assert_eq!(t.mark(mf), Mark::Good);
        assert_eq!(t.leaves().len(), 2);
    }

    #[test]
    fn unknown_parent_names_file_and_line() {
        let e = parse_taxonomy("x.tax", "a -\nb nope\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.to_string(), "x.tax:2: unknown parent `nope`");
    }

    #[test]
    fn cycles_name_file_and_line() {
        let e = parse_taxonomy("c.tax", "root -\na b\nb a\n").unwrap_err();
        assert!(matches!(e.kind, FileErrorKind::Cycle(_)));
        assert_eq!((e.file.as_str(), e.line), ("c.tax", 2));
    }

    #[test]
    fn two_good_topics_on_one_path_name_the_later_line() {
        let e = parse_taxonomy("g.tax", "a - good\nb a\nc b good\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(matches!(
            e.kind,
            FileErrorKind::Tree(TaxonomyError::NestedGood { .. })
        ));
        assert!(e.to_string().starts_with("g.tax:3:"));
    }

    #[test]
    fn syntax_and_duplicates() {
        assert_eq!(parse_taxonomy("s", "a - bad\n").unwrap_err().line, 1);
        assert_eq!(parse_taxonomy("s", "a\n").unwrap_err().line, 1);
        assert_eq!(parse_taxonomy("s", "a -\n\na -\n").unwrap_err().line, 3);
        assert!(parse_taxonomy("s", "a/b -\n").is_err());
    }
}
