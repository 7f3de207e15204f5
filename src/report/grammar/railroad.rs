//! The railroad diagrams of the writing grammar with the input's path marked: each part of a
//! [`Rail`] says whether the input went through it and where it stopped. One marked tree for
//! every front end: the inspector draws it in box-drawing characters, the classroom page as
//! SVG; neither decides a mark.
//!
//! The path is the writing grammar's production path ([`Writing::production_path`]): the
//! productions the input matched, outermost first, or when the grammar stopped, those it was
//! inside where it stopped.

use serde::Serialize;

use crate::url::writing::{Rail, Writing};

/// A part of a railroad diagram with its marks. `on`: the input's path runs through it;
/// `stop`: the grammar stopped inside this production. The rails between parts carry marks of
/// their own, named for where they run. Serialised with a `type` of `term`, `production`,
/// `seq`, `optional`, `repeat` or `choice`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Marked {
    /// A terminal, written as it is.
    Term { text: &'static str, on: bool },
    /// A production, by the standard's name, with its short label.
    Production {
        name: &'static str,
        label: &'static str,
        on: bool,
        stop: bool,
    },
    /// Items one after the other; `links[k]` is the rail between item `k` and item `k + 1`.
    Seq {
        on: bool,
        items: Vec<Marked>,
        links: Vec<bool>,
    },
    /// An optional part: the rail into it (`enter`), round it (`bypass`), down into it
    /// (`branch`), back up from it (`back`) and on out of it (`out`).
    Optional {
        enter: bool,
        bypass: bool,
        branch: bool,
        back: bool,
        out: bool,
        inner: Box<Marked>,
    },
    /// One or more times: the rail in (`on`), and the rails out and round again (`out`).
    Repeat {
        on: bool,
        out: bool,
        body: Box<Marked>,
    },
    /// Alternatives: the rail in (`enter`) and out (`out`) of the whole.
    Choice {
        enter: bool,
        out: bool,
        alts: Vec<Alternative>,
    },
}

/// One alternative of a [`Marked::Choice`]: whether the input took it, and whether the path
/// leaves it on the far side (`exit`: not when the grammar stopped inside).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Alternative {
    pub taken: bool,
    pub exit: bool,
    pub node: Marked,
}

/// A diagram of the input's path: the production it draws and its marked rail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarkedDiagram {
    pub name: &'static str,
    pub rail: Marked,
}

/// What the input went through: the productions on its path, and whether it stopped in them.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    /// Outermost first: those matched, or when the grammar stopped, those it was inside.
    pub productions: &'a [&'static str],
    /// The grammar stopped: the stopping point lies inside every production on the path.
    pub stopped: bool,
}

impl<'a> Path<'a> {
    /// The writing grammar's path for its verdict on an input.
    pub fn of(writing: &'a Writing) -> Path<'a> {
        Path {
            productions: &writing.production_path,
            stopped: !writing.valid,
        }
    }

    fn took(&self, rail: &Rail) -> bool {
        match rail {
            Rail::Term(_) => false,
            Rail::Production { name, .. } => self.productions.contains(name),
            Rail::Seq(items) | Rail::Choice(items) => items.iter().any(|r| self.took(r)),
            Rail::Optional(inner) | Rail::Repeat(inner) => self.took(inner),
        }
    }
}

/// The diagrams that show the input's path ([`super::diagrams`]), marked.
pub fn marked_diagrams(writing: &Writing) -> Vec<MarkedDiagram> {
    let path = Path::of(writing);
    super::diagrams(writing)
        .into_iter()
        .map(|(name, rail)| MarkedDiagram {
            name,
            rail: mark(&rail, path, true),
        })
        .collect()
}

/// `rail` with its marks; `on` says whether the input's path runs through this part.
pub fn mark(rail: &Rail, path: Path<'_>, on: bool) -> Marked {
    match rail {
        Rail::Term(text) => Marked::Term { text, on },
        Rail::Production { name, label } => {
            let taken = path.productions.contains(name);
            Marked::Production {
                name,
                label,
                on: taken,
                stop: taken && path.stopped,
            }
        }
        Rail::Seq(items) => {
            let on = on && path.took(rail);
            // Where the grammar stopped inside item k, the items before it matched: the
            // failure's path names only the productions still open, so a production before k
            // is on (an optional one may have been skipped: left alone).
            let stopped_in = path
                .stopped
                .then(|| items.iter().position(|r| path.took(r)))
                .flatten();
            // Nothing after the stop is on the path.
            let reached = |k: usize| on && stopped_in.is_none_or(|s| k <= s);
            let marked = items
                .iter()
                .enumerate()
                .map(|(k, r)| match r {
                    Rail::Production { name, label } if on && stopped_in.is_some_and(|s| k < s) => {
                        Marked::Production {
                            name,
                            label,
                            on: true,
                            stop: false,
                        }
                    }
                    _ => mark(r, path, reached(k)),
                })
                .collect();
            Marked::Seq {
                on,
                items: marked,
                links: (1..items.len()).map(reached).collect(),
            }
        }
        Rail::Optional(inner) => {
            let taken = path.took(inner);
            Marked::Optional {
                enter: on,
                bypass: on && !taken,
                branch: on && taken,
                // Stopped inside: the path does not come back out.
                back: on && taken && !path.stopped,
                out: on && !(taken && path.stopped),
                inner: Box::new(mark(inner, path, on && taken)),
            }
        }
        Rail::Repeat(body) => Marked::Repeat {
            on,
            // Stopped inside: no way out and no way round.
            out: on && !(path.stopped && path.took(body)),
            body: Box::new(mark(body, path, on)),
        },
        Rail::Choice(alts) => Marked::Choice {
            enter: on,
            // Stopped inside an alternative: the path does not leave it.
            out: on && !(path.stopped && path.took(rail)),
            alts: alts
                .iter()
                .map(|a| {
                    let taken = on && path.took(a);
                    Alternative {
                        taken,
                        exit: taken && !path.stopped,
                        node: mark(a, path, taken),
                    }
                })
                .collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Report;

    /// The labels of the productions and terminals of `node`: those on the path, and those
    /// where the grammar stopped.
    fn labels(node: &Marked, on: &mut Vec<&'static str>, stops: &mut Vec<&'static str>) {
        match node {
            Marked::Term { text, on: true } => on.push(text),
            Marked::Term { .. } => {}
            Marked::Production {
                label, stop: true, ..
            } => stops.push(label),
            Marked::Production {
                label, on: true, ..
            } => on.push(label),
            Marked::Production { .. } => {}
            Marked::Seq { items, .. } => items.iter().for_each(|i| labels(i, on, stops)),
            Marked::Optional { inner, .. } => labels(inner, on, stops),
            Marked::Repeat { body, .. } => labels(body, on, stops),
            Marked::Choice { alts, .. } => alts.iter().for_each(|a| labels(&a.node, on, stops)),
        }
    }

    /// Each diagram of `input`'s path: its production, the labels on the path, and the ones
    /// where the grammar stopped.
    fn paths(input: &str) -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
        let report = Report::new(input, None);
        marked_diagrams(&report.writing)
            .into_iter()
            .map(|d| {
                let (mut on, mut stops) = (Vec::new(), Vec::new());
                labels(&d.rail, &mut on, &mut stops);
                (d.name, on, stops)
            })
            .collect()
    }

    #[test]
    fn a_valid_url_is_marked_along_the_branch_it_took() {
        let paths = paths("https://example.com/a?q");
        assert_eq!(
            paths[0],
            (
                "absolute-URL-with-fragment string",
                vec!["scheme", ":", "//host:port/path", "?", "query"],
                vec![]
            ),
            "{paths:#?}"
        );
        // No stop anywhere, and the fragment is bypassed.
        assert!(paths.iter().all(|(_, _, stops)| stops.is_empty()));
        let report = Report::new("https://example.com/a?q", None);
        let Marked::Seq { items, links, .. } = &marked_diagrams(&report.writing)[0].rail else {
            panic!("a sequence");
        };
        assert!(links.iter().all(|&l| l), "{links:?}");
        assert!(matches!(
            items[4],
            Marked::Optional {
                bypass: true,
                branch: false,
                ..
            }
        ));
        assert!(matches!(
            items[3],
            Marked::Optional {
                bypass: false,
                branch: true,
                back: true,
                out: true,
                ..
            }
        ));
    }

    #[test]
    fn an_opaque_path_takes_the_other_branch() {
        let paths = paths("mailto:a@example.com");
        assert_eq!(paths[0].1, ["scheme", ":", "opaque path"], "{paths:#?}");
        assert!(paths[0].2.is_empty());
    }

    #[test]
    fn an_invalid_url_stops_in_the_host_and_goes_no_further() {
        let report = Report::new("https://[::1", None);
        let diagrams = marked_diagrams(&report.writing);
        let paths = paths("https://[::1");
        // The scheme matched before the stop though the failure's path does not name it; the
        // authority is where it stopped, and in its own diagram the host.
        assert_eq!(
            paths[0],
            (
                "absolute-URL-with-fragment string",
                vec!["scheme", ":"],
                vec!["//host:port/path"]
            ),
            "{paths:#?}"
        );
        assert!(
            paths
                .iter()
                .any(|(_, on, stops)| on == &["//"] && stops == &["host"]),
            "{paths:#?}"
        );
        // After the stop, the rails are off: the links after it, and the query's and the
        // fragment's bypasses.
        let Marked::Seq { items, links, .. } = &diagrams[0].rail else {
            panic!("a sequence");
        };
        assert_eq!(links, &[true, true, false, false]);
        for optional in &items[3..] {
            assert!(
                matches!(
                    optional,
                    Marked::Optional {
                        enter: false,
                        bypass: false,
                        ..
                    }
                ),
                "{optional:?}"
            );
        }
        // The choice it stopped in is not left.
        assert!(matches!(
            items[2],
            Marked::Choice {
                enter: true,
                out: false,
                ..
            }
        ));
    }

    /// The page reads the tree as JSON: the shape its drawing code walks.
    #[test]
    fn the_tree_serialises_with_its_type() {
        let report = Report::new("https://[::1", None);
        let text = serde_json::to_string(&marked_diagrams(&report.writing)).expect("JSON");
        assert!(
            text.contains(r#"{"type":"production","name":"valid host string","label":"host","on":true,"stop":true}"#),
            "{text}"
        );
        assert!(
            text.contains(r#""type":"choice","enter":true,"out":false,"alts":[{"taken""#),
            "{text}"
        );
    }
}
