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
    crate::with_report(input, base_of(base.as_deref()), |report| {
        host_model(report).to_string()
    })
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
