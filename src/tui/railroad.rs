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

/// What the input went through: the productions on its path, and the one it stopped in.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    pub productions: &'a [&'static str],
    pub stopped: Option<&'static str>,
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

/// Draws `rail`; `on` says whether the input's path runs through this part.
pub fn draw(rail: &Rail, path: Path<'_>, on: bool) -> Drawing {
    match rail {
        Rail::Term(t) => Drawing::text(&format!("({t})"), mark(on)),
        Rail::Production { name, label } => {
            let m = if path.stopped == Some(*name) {
                Mark::Stop
            } else {
                mark(path.productions.contains(name))
            };
            Drawing::text(&format!("┤{label}├"), m)
        }
        Rail::Seq(items) => {
            let on = on && path.took(rail);
            let parts: Vec<Drawing> = items.iter().map(|r| draw(r, path, on)).collect();
            let height = parts.iter().map(|p| p.rows.len()).max().unwrap_or(1);
            let mut rows = vec![Vec::new(); height];
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    rows[0].push(('─', mark(on)));
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
            let mut rows = Vec::new();
            let mut top = vec![('┬', mark(on))];
            top.extend(std::iter::repeat_n(('─', bypass), w + 2));
            top.push(('┬', mark(on)));
            rows.push(top);
            for (i, r) in inner.rows.iter().enumerate() {
                let mut row = if i == 0 {
                    vec![('└', branch), ('─', branch)]
                } else {
                    vec![(' ', Mark::Off), (' ', Mark::Off)]
                };
                row.extend_from_slice(r);
                row.extend(if i == 0 {
                    [('─', branch), ('┘', branch)]
                } else {
                    [(' ', Mark::Off), (' ', Mark::Off)]
                });
                rows.push(row);
            }
            Drawing { rows }
        }
        Rail::Repeat(inner) => {
            let inner = draw(inner, path, on);
            let w = inner.width();
            let m = mark(on);
            let mut rows = Vec::new();
            for (i, r) in inner.rows.iter().enumerate() {
                let mut row = if i == 0 {
                    vec![('┬', m), ('─', m)]
                } else {
                    vec![('│', m), (' ', Mark::Off)]
                };
                row.extend_from_slice(r);
                row.extend(if i == 0 {
                    [('─', m), ('┬', m)]
                } else {
                    [(' ', Mark::Off), ('│', m)]
                });
                rows.push(row);
            }
            let mut back = vec![('└', m), ('◀', m)];
            back.extend(std::iter::repeat_n(('─', m), w + 1));
            back.push(('┘', m));
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
            for (d, taken) in &mut drawn {
                d.pad(w, mark(*taken));
            }
            let last = drawn.len().saturating_sub(1);
            let mut rows = Vec::new();
            for (k, (d, taken)) in drawn.iter().enumerate() {
                let m = mark(*taken);
                for (i, r) in d.rows.iter().enumerate() {
                    let (left, right) = match (k, i) {
                        (0, 0) => ('┬', '┬'),
                        (_, 0) if k == last => ('└', '┘'),
                        (_, 0) => ('├', '┤'),
                        _ if k == last => (' ', ' '),
                        _ => ('│', '│'),
                    };
                    let edge = if i == 0 { m } else { mark(on) };
                    let mut row = vec![(left, edge), (if i == 0 { '─' } else { ' ' }, m)];
                    row.extend_from_slice(r);
                    row.push((if i == 0 { '─' } else { ' ' }, m));
                    row.push((right, edge));
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
            stopped: None,
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
    fn the_production_where_the_grammar_stopped_is_marked() {
        let rail = diagram("scheme-relative-special-URL string").expect("a diagram");
        let productions = ["valid host string"];
        let path = Path {
            productions: &productions,
            stopped: Some("valid host string"),
        };
        let drawing = draw(&rail, path, true);
        let row = &drawing.rows[0];
        assert!(row.iter().any(|&(c, m)| c == 'h' && m == Mark::Stop));
        assert_eq!(drawing.lines()[0], "(//)─┤host├─┬────────────┬─┬─────────┬");
    }
}
