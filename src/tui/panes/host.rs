//! The Host pane: the findings first (what decides and what misleads), then who owns the
//! name, how a browser would display it, the host's forms, one row per label, and the numeric
//! forms of IP addresses. The rows are derived once per report.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::super::list::{self, Spec};
use super::super::model::{App, Pane};
use super::super::theme::Theme;
use super::row_item;
use super::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let d = &app.derived;
    let mut title = "Host".to_owned();
    let counts: Vec<String> = [(d.danger, "danger"), (d.warn, "warn"), (d.info, "info")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if !counts.is_empty() {
        title = format!("Host · {}", counts.join(" "));
    }
    let block = pane_block(app, Pane::Host, title, area, theme);
    let rows = &d.host;
    let state = &app.lists[Pane::Host.index()];
    let mut fetch =
        |range: std::ops::Range<usize>| rows[range].iter().map(|r| row_item(r, theme)).collect();
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[35],
        },
        rows.len(),
        state,
        &mut fetch,
        selection(app, Pane::Host, theme),
        theme,
    );
}

#[cfg(test)]
mod tests {
    use super::super::super::derived::{label_value, policy_value};
    use crate::Report;

    fn analysis(input: &str) -> crate::inspect::HostAnalysis {
        Report::new(input, None).host_analysis.expect("analysis")
    }

    #[test]
    fn a_label_of_no_script_says_so() {
        let a = analysis("https://😀.example/");
        let values: Vec<String> = a.labels.iter().map(label_value).collect();
        assert_eq!(
            values,
            [
                "xn--e28h · no script · unrestricted",
                "example · Latin · ASCII-only"
            ]
        );
        let a = analysis("https://123.example/");
        assert_eq!(label_value(&a.labels[0]), "123 · no script · ASCII-only");
    }

    #[test]
    fn the_chromium_row_names_its_platform() {
        let a = analysis("https://😀.example/");
        let values: Vec<String> = a
            .display
            .iter()
            .map(|d| policy_value(d, "shown as xn--e28h.example".to_owned()))
            .collect();
        let platform = crate::inspect::policy::chromium::platform();
        assert_eq!(
            values,
            [
                format!("{platform} · shown as xn--e28h.example"),
                "shown as xn--e28h.example".to_owned(),
                "shown as xn--e28h.example".to_owned()
            ]
        );
    }
}
