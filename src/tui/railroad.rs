//! Railroad diagrams in box-drawing characters, from the library's marked tree
//! ([`Marked`]): the marks say which parts are on the input's path and where it stopped; this
//! only draws them.
//!
//! Every block keeps its rail on its first row, entering at the left and leaving at the right;
//! optional parts and alternatives hang below it.

use crate::report::grammar::railroad::Marked;

/// How a character is drawn: off the input's path, on it, or where the grammar stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Off,
    On,
    Stop,
}

/// A rendered diagram: rows of characters with their marks, all of one width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    pub rows: Vec<Vec<(char, Mark)>>,
}

impl Drawing {
    fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    fn text(s: &str, mark: Mark) -> Drawing {
        Drawing {
            rows: vec![s.chars().map(|c| (c, mark)).collect()],
        }
    }

    /// Pads every row to `width`, the rail row with `─`.
    fn pad(&mut self, width: usize, rail: Mark) {
        for (i, row) in self.rows.iter_mut().enumerate() {
            let fill = if i == 0 { '─' } else { ' ' };
            while row.len() < width {
                row.push((fill, rail));
            }
        }
    }

    /// The rows as plain text (for tests and the command line).
    pub fn lines(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&(c, _)| c)
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }
}

fn mark(on: bool) -> Mark {
    if on {
        Mark::On
    } else {
        Mark::Off
    }
}

/// A production's box, as every diagram draws it.
fn production_box(label: &str, m: Mark) -> Drawing {
    Drawing::text(&format!("┤{label}├"), m)
}

/// Draws a marked rail.
pub fn draw(node: &Marked) -> Drawing {
    match node {
        Marked::Term { text, on } => Drawing::text(&format!("({text})"), mark(*on)),
        Marked::Production {
            label, on, stop, ..
        } => production_box(label, if *stop { Mark::Stop } else { mark(*on) }),
        Marked::Seq { items, links, .. } => {
            let parts: Vec<Drawing> = items.iter().map(draw).collect();
            let height = parts.iter().map(|p| p.rows.len()).max().unwrap_or(1);
            let mut rows = vec![Vec::new(); height];
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    rows[0].push(('─', mark(links[k - 1])));
                    for row in rows.iter_mut().skip(1) {
                        row.push((' ', Mark::Off));
                    }
                }
                for (i, row) in rows.iter_mut().enumerate() {
                    match part.rows.get(i) {
                        Some(r) => row.extend_from_slice(r),
                        None => row.extend(std::iter::repeat_n((' ', Mark::Off), part.width())),
                    }
                }
            }
            Drawing { rows }
        }
        Marked::Optional {
            enter,
            bypass,
            branch,
            back,
            out,
            inner,
        } => {
            let inner = draw(inner);
            let w = inner.width();
            let (branch, back) = (mark(*branch), mark(*back));
            let mut rows = Vec::new();
            let mut top = vec![('┬', mark(*enter))];
            top.extend(std::iter::repeat_n(('─', mark(*bypass)), w + 2));
            top.push(('┬', mark(*out)));
            rows.push(top);
            for (i, r) in inner.rows.iter().enumerate() {
                let mut row = if i == 0 {
                    vec![('└', branch), ('─', branch)]
                } else {
                    vec![(' ', Mark::Off), (' ', Mark::Off)]
                };
                row.extend_from_slice(r);
                row.extend(if i == 0 {
                    [('─', back), ('┘', back)]
                } else {
                    [(' ', Mark::Off), (' ', Mark::Off)]
                });
                rows.push(row);
            }
            Drawing { rows }
        }
        Marked::Repeat { on, out, body } => {
            let inner = draw(body);
            let w = inner.width();
            let (m, out) = (mark(*on), mark(*out));
            let mut rows = Vec::new();
            for (i, r) in inner.rows.iter().enumerate() {
                let mut row = if i == 0 {
                    vec![('┬', m), ('─', m)]
                } else {
                    vec![('│', out), (' ', Mark::Off)]
                };
                row.extend_from_slice(r);
                row.extend(if i == 0 {
                    [('─', out), ('┬', out)]
                } else {
                    [(' ', Mark::Off), ('│', out)]
                });
                rows.push(row);
            }
            let mut back = vec![('└', out), ('◀', out)];
            back.extend(std::iter::repeat_n(('─', out), w + 1));
            back.push(('┘', out));
            rows.push(back);
            Drawing { rows }
        }
        Marked::Choice { enter, out, alts } => {
            let mut drawn: Vec<Drawing> = alts.iter().map(|a| draw(&a.node)).collect();
            let w = drawn.iter().map(Drawing::width).max().unwrap_or(0);
            for (d, alt) in drawn.iter_mut().zip(alts) {
                d.pad(w, mark(alt.exit));
            }
            let last = drawn.len().saturating_sub(1);
            let mut rows = Vec::new();
            for (k, (d, alt)) in drawn.iter().zip(alts).enumerate() {
                let (m, exit) = (mark(alt.taken), mark(alt.exit));
                for (i, r) in d.rows.iter().enumerate() {
                    let (left, right) = match (k, i) {
                        (0, 0) => ('┬', '┬'),
                        (_, 0) if k == last => ('└', '┘'),
                        (_, 0) => ('├', '┤'),
                        _ if k == last => (' ', ' '),
                        _ => ('│', '│'),
                    };
                    // The corners of the first row are where the path enters and leaves.
                    let (in_edge, out_edge) = if k > 0 && i == 0 {
                        (m, exit)
                    } else {
                        (mark(*enter), mark(*out))
                    };
                    let mut row = vec![(left, in_edge), (if i == 0 { '─' } else { ' ' }, m)];
                    row.extend_from_slice(r);
                    row.push((if i == 0 { '─' } else { ' ' }, exit));
                    row.push((right, out_edge));
                    rows.push(row);
                }
            }
            Drawing { rows }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::grammar::railroad::{mark as marked, Path};
    use crate::url::writing::diagram;

    #[test]
    fn an_absolute_url_diagram_marks_the_branch_taken() {
        let rail = diagram("absolute-URL-with-fragment string").expect("a diagram");
        let productions = [
            "URL-scheme string",
            "scheme-relative-special-URL string",
            "URL-query string",
        ];
        let path = Path {
            productions: &productions,
            stopped: false,
        };
        let drawing = draw(&marked(&rail, path, true));
        let lines = drawing.lines();
        assert!(
            lines[0].starts_with("┤scheme├─(:)─┬─┤//host:port/path├"),
            "{lines:#?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("└─(?)─┤query├─┘")),
            "{lines:#?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("┤opaque path├")),
            "{lines:#?}"
        );
        // The taken branch is on the path, the others are not; the query is on, the fragment
        // bypass is.
        let marks_of = |needle: &str| {
            let row = lines.iter().position(|l| l.contains(needle)).expect(needle);
            let col = lines[row].chars().position(|_| true).unwrap_or(0)
                + lines[row]
                    .find(needle)
                    .map_or(0, |b| lines[row][..b].chars().count());
            drawing.rows[row][col + 1].1
        };
        assert_eq!(marks_of("┤//host:port/path├"), Mark::On);
        assert_eq!(marks_of("┤opaque path├"), Mark::Off);
        assert_eq!(marks_of("┤query├"), Mark::On);
        assert_eq!(marks_of("┤fragment├"), Mark::Off);
    }

    #[test]
    fn the_productions_where_the_grammar_stopped_are_marked() {
        let rail = diagram("scheme-relative-special-URL string").expect("a diagram");
        // Stopped inside the host's valid domain string.
        let productions = ["valid host string", "valid domain string"];
        let path = Path {
            productions: &productions,
            stopped: true,
        };
        let drawing = draw(&marked(&rail, path, true));
        let row = &drawing.rows[0];
        assert!(row.iter().any(|&(c, m)| c == 'h' && m == Mark::Stop));
        assert_eq!(drawing.lines()[0], "(//)─┤host├─┬────────────┬─┬─────────┬");
        // Nothing after the stop is on the path.
        let port = drawing.lines()[1].find("port").expect("the port box");
        let port = drawing.lines()[1][..port].chars().count();
        assert_eq!(drawing.rows[1][port].1, Mark::Off);

        // Stopped in the path: the scheme before it matched, though the failure's path does
        // not name it.
        let rail = diagram("absolute-URL-with-fragment string").expect("a diagram");
        let productions = ["scheme-relative-special-URL string"];
        let path = Path {
            productions: &productions,
            stopped: true,
        };
        let drawing = draw(&marked(&rail, path, true));
        let mark_of = |label: &str| {
            let line = &drawing.lines()[0];
            let at = line[..line.find(label).expect(label)].chars().count();
            drawing.rows[0][at].1
        };
        assert_eq!(mark_of("scheme"), Mark::On);
        assert_eq!(mark_of("(:)"), Mark::On);
        assert_eq!(mark_of("//host:port/path"), Mark::Stop);
        // The path ends at the stop: the rail after it, through the query's and the
        // fragment's bypasses, is off.
        let top = &drawing.rows[0];
        let after = top.iter().rposition(|&(c, _)| c == '├').expect("a box end") + 1;
        assert!(top[after..].iter().all(|&(_, m)| m == Mark::Off), "{top:?}");
    }
}
