//! Railroad diagrams in box-drawing characters, from the writing grammar's [`Rail`] shapes,
//! with the input's path through them marked.
//!
//! Every block keeps its rail on its first row, entering at the left and leaving at the right;
//! optional parts and alternatives hang below it.

use crate::url::writing::Rail;

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

/// What the input went through: the productions on its path, and whether it stopped in them.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    /// Outermost first: those matched, or when the grammar stopped, those it was inside.
    pub productions: &'a [&'static str],
    /// The grammar stopped: the stopping point lies inside every production on the path.
    pub stopped: bool,
}

impl Path<'_> {
    fn took(&self, rail: &Rail) -> bool {
        match rail {
            Rail::Term(_) => false,
            Rail::Production { name, .. } => self.productions.contains(name),
            Rail::Seq(items) | Rail::Choice(items) => items.iter().any(|r| self.took(r)),
            Rail::Optional(inner) | Rail::Repeat(inner) => self.took(inner),
        }
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

/// Draws `rail`; `on` says whether the input's path runs through this part.
pub fn draw(rail: &Rail, path: Path<'_>, on: bool) -> Drawing {
    match rail {
        Rail::Term(t) => Drawing::text(&format!("({t})"), mark(on)),
        Rail::Production { name, label } => {
            let m = match (path.productions.contains(name), path.stopped) {
                (true, true) => Mark::Stop,
                (taken, _) => mark(taken),
            };
            production_box(label, m)
        }
        Rail::Seq(items) => {
            let on = on && path.took(rail);
            // Where the grammar stopped inside item k, the items before it matched: the
            // failure's path names only the productions still open, so a production before k
            // is marked from the sequence (an optional one may have been skipped: left alone).
            let stopped_in = path
                .stopped
                .then(|| items.iter().position(|r| path.took(r)))
                .flatten();
            // Nothing after the stop is on the path.
            let reached = |k: usize| on && stopped_in.is_none_or(|s| k <= s);
            let parts: Vec<Drawing> = items
                .iter()
                .enumerate()
                .map(|(k, r)| match r {
                    Rail::Production { label, .. } if on && stopped_in.is_some_and(|s| k < s) => {
                        production_box(label, Mark::On)
                    }
                    _ => draw(r, path, reached(k)),
                })
                .collect();
            let height = parts.iter().map(|p| p.rows.len()).max().unwrap_or(1);
            let mut rows = vec![Vec::new(); height];
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    rows[0].push(('─', mark(reached(k))));
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
        Rail::Optional(inner) => {
            let taken = path.took(inner);
            let inner = draw(inner, path, on && taken);
            let w = inner.width();
            let bypass = mark(on && !taken);
            let branch = mark(on && taken);
            // Stopped inside: the path does not come back out.
            let out = mark(on && !(taken && path.stopped));
            let back = mark(on && taken && !path.stopped);
            let mut rows = Vec::new();
            let mut top = vec![('┬', mark(on))];
            top.extend(std::iter::repeat_n(('─', bypass), w + 2));
            top.push(('┬', out));
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
        Rail::Repeat(body) => {
            let inner = draw(body, path, on);
            let w = inner.width();
            let m = mark(on);
            // Stopped inside: no way out and no way round.
            let out = mark(on && !(path.stopped && path.took(body)));
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
        Rail::Choice(alts) => {
            let mut drawn: Vec<(Drawing, bool)> = alts
                .iter()
                .map(|a| {
                    let taken = on && path.took(a);
                    (draw(a, path, taken), taken)
                })
                .collect();
            let w = drawn.iter().map(|(d, _)| d.width()).max().unwrap_or(0);
            // Stopped inside an alternative: the path does not leave it.
            let stuck = path.stopped && path.took(rail);
            for (d, taken) in &mut drawn {
                d.pad(w, mark(*taken && !path.stopped));
            }
            let last = drawn.len().saturating_sub(1);
            let mut rows = Vec::new();
            for (k, (d, taken)) in drawn.iter().enumerate() {
                let m = mark(*taken);
                let exit = mark(*taken && !path.stopped);
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
                        (mark(on), mark(on && !stuck))
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
        let drawing = draw(&rail, path, true);
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
        let drawing = draw(&rail, path, true);
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
        let drawing = draw(&rail, path, true);
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
