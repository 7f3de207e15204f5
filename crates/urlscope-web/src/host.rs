//! The Host view: the host in Punycode and Unicode, who owns it, the label table, each
//! browser's display policy decision and the findings, from the library's host analysis (the
//! inspector's Host pane reads the same analysis).

use serde_json::{json, Value};
use urlscope::Report;
use wasm_bindgen::prelude::*;

use crate::base_of;

/// The Host view's model for `input` against `base` (empty: no base), as JSON text:
/// `{"analysis": …}` (the host analysis `urlscope parse --json` gives, `null` when there is
/// none) and `"why"`, a sentence when there is no analysis.
#[wasm_bindgen]
pub fn view_host(input: &str, base: Option<String>) -> String {
    let base = base_of(base.as_deref());
    if input.len() > LONG_INPUT {
        // A long input's screen is made in the page's Web Worker, whose report the page's
        // thread does not have: the traced report made again here (the whole trace, the
        // writing grammar, the validation errors' spans) cost 164 ms of the page's thread at
        // 1 MB. The host analysis needs only the parse, and is kept for the next time the
        // view is drawn.
        return LONG_HOST.with(|kept| {
            let mut kept = kept.borrow_mut();
            match &*kept {
                Some((i, b, json)) if i == input && b.as_deref() == base => json.clone(),
                _ => {
                    let json = host_model(&host_report(input, base)).to_string();
                    *kept = Some((input.to_owned(), base.map(str::to_owned), json.clone()));
                    json
                }
            }
        });
    }
    crate::with_report(input, base, |report| host_model(report).to_string())
}

thread_local! {
    /// The last long input's Host view: its input, base and JSON.
    static LONG_HOST: std::cell::RefCell<Option<(String, Option<String>, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// Past this many bytes the page reads the input in its Web Worker (app.js), and the Host view
/// parses it without its trace.
pub const LONG_INPUT: usize = 64 * 1024;

/// The report of `input` against `base` with the host analysis and its labels alone, untraced:
/// what [`host_model`] reads of a report, as [`crate::model::report`] makes it.
pub fn host_report(input: &str, base: Option<&str>) -> Report {
    let parts = urlscope::report::Parts {
        host_analysis: true,
        host_labels: true,
        host_forms: true,
        ..urlscope::report::Parts::NONE
    };
    let base_url = match base.map(|b| urlscope::Url::parse(b, None)) {
        None => None,
        Some(Ok(url)) => Some(url),
        // A base that fails: the report of that, as the page's screen gives it.
        Some(Err(_)) => return crate::model::report(input, base),
    };
    Report::untraced_parts(input, base_url, encoding_rs::UTF_8, parts)
}

pub fn host_model(report: &Report) -> Value {
    let why = match &report.url {
        None => {
            json!("The input does not parse: the host below is what was typed, analysed as it is.")
        }
        Some(url) if url.record().host.is_none() => json!("The URL has no host."),
        Some(_) => Value::Null,
    };
    json!({"analysis": report.host_analysis, "why": why})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idn_gives_its_punycode_and_unicode_and_its_findings() {
        let v: Value = serde_json::from_str(&view_host("https://Bücher.example/", None)).unwrap();
        let a = &v["analysis"];
        assert_eq!(a["host"], "xn--bcher-kva.example");
        assert_eq!(a["unicode"], "bücher.example");
        assert_eq!(a["labels"][0]["ascii"], "xn--bcher-kva");
        assert_eq!(a["labels"][0]["scripts"], json!(["Latin"]));
        let ids: Vec<&str> = a["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["id"].as_str())
            .collect();
        assert!(ids.contains(&"idn"), "{ids:?}");
        let policies: Vec<&str> = a["display"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["policy"].as_str())
            .collect();
        assert_eq!(policies, ["chromium", "firefox", "uts39"]);
    }

    #[test]
    fn a_homograph_is_shown_as_punycode_by_chromium() {
        let v: Value = serde_json::from_str(&view_host("https://аррӏе.com/", None)).unwrap();
        let a = &v["analysis"];
        assert_eq!(a["host"], "xn--80ak6aa92e.com");
        let chromium = &a["display"][0];
        assert_eq!(chromium["policy"], "chromium");
        assert_eq!(chromium["unicode"], false);
        assert_eq!(chromium["shown"], "xn--80ak6aa92e.com");
    }

    /// A long input's Host view, parsed without its trace, is the one the traced report gives,
    /// for hosts of every kind and a base.
    #[test]
    fn a_long_inputs_host_view_is_the_traced_reports() {
        let long = "a".repeat(LONG_INPUT);
        for (input, base) in [
            (format!("https://Bücher.example/{long}"), None),
            (format!("https://аррӏе.com/?{long}"), None),
            (format!("http://0x7f.1/{long}"), None),
            (
                format!("//user@evil.example\\@good.example/{long}"),
                Some("https://b/"),
            ),
            (format!("mailto:{long}"), None),
            (format!("https://[::1/{long}"), None),
            (
                format!("https://{}.example/", "a.".repeat(LONG_INPUT / 2)),
                None,
            ),
            (format!("/x{long}"), Some("http://[::1")),
        ] {
            let traced = host_model(&crate::model::report(&input, base)).to_string();
            assert_eq!(
                view_host(&input, base.map(str::to_owned)),
                traced,
                "{}…",
                &input[..30]
            );
        }
    }

    #[test]
    fn no_host_says_why() {
        let v: Value = serde_json::from_str(&view_host("https://[::1", None)).unwrap();
        assert_eq!(v["analysis"]["typed"], "[::1");
        assert!(v["why"]
            .as_str()
            .unwrap()
            .starts_with("The input does not parse"));
        let v: Value = serde_json::from_str(&view_host("mailto:a@example.org", None)).unwrap();
        assert_eq!(v["why"], "The URL has no host.");
    }
}
