//! The gate on the verdict line and in the Host pane: `Gate::judge` on the Parsers pane's
//! readings, "judging…" while some are pending.

use super::app::App;
use super::tests::{pinned, screen, whatwg_and_python_lab};
use crate::inspect::gate::{Allowlist, Gate};

fn allow(host: &str) -> Option<Gate> {
    Some(Gate {
        allowlist: Some(Allowlist::parse(&[host]).expect("a host")),
        deny_internal: false,
    })
}

fn verdict(app: &App) -> String {
    app.derived
        .verdict
        .as_ref()
        .expect("a verdict")
        .text
        .clone()
}

#[test]
fn the_verdict_line_says_the_url_is_not_allowed_and_where_it_goes() {
    let mut app = pinned("https://attacker.net/", "");
    app.set_gate(allow("example.com"));
    assert_eq!(
        verdict(&app),
        "✗ not allowed: attacker.net:443 (not allowed): whatwg, rust-url, rfc3986, http · \
         → connects to attacker.net · ✓ nothing suspicious"
    );
    let danger = app.derived.verdict.as_ref().and_then(|v| v.worst);
    assert_eq!(danger, Some(crate::inspect::Severity::Danger));
    // The Host pane lists the gate's finding first.
    let first = &app.derived.host[0];
    assert_eq!(
        (first.key.as_str(), first.value.as_str()),
        ("danger", "not-allowed")
    );
    let s = screen(&mut app, 120, 40);
    assert!(
        s.lines()
            .next()
            .unwrap_or("")
            .starts_with("✗ not allowed: attacker.net:443"),
        "{s}"
    );
}

#[test]
fn readings_that_part_ways_are_a_bypass_and_an_allowed_url_passes() {
    let mut app = App::new("https://attacker.net\\@example.com/", "");
    app.set_gate(allow("example.com"));
    assert!(
        verdict(&app).starts_with(
            "✗ allowlist bypass: attacker.net:443 (not allowed): whatwg, rust-url; \
             example.com:443: curl"
        ),
        "{}",
        verdict(&app)
    );
    // Typing a new input judges it again; the gate's rows do not pile up.
    let mut app = pinned("https://example.com/", "");
    app.set_gate(allow("example.com"));
    assert!(
        verdict(&app).starts_with("✓ allowed · → connects to example.com"),
        "{}",
        verdict(&app)
    );
    app.set_gate(allow("example.com"));
    let gate_rows = app.derived.host.iter().filter(|r| r.key == "gate").count();
    assert_eq!(gate_rows, 1);
    app.set_gate(None);
    assert!(
        verdict(&app).starts_with("→ connects to example.com"),
        "{}",
        verdict(&app)
    );
    assert!(app.derived.host.iter().all(|r| r.key != "gate"));
}

/// While an external parser has not answered, the verdict says "judging…", and is judged
/// again on its answer.
#[test]
fn the_gate_says_judging_until_every_reading_has_arrived() {
    let lab = whatwg_and_python_lab();
    let mut app = App::new("http://example.com\\@evil.com", "");
    app.set_lab(lab);
    app.set_gate(allow("evil.com"));
    // Only ours so far: it goes to example.com.
    assert!(
        verdict(&app).starts_with(
            "✗ not allowed: example.com:80 (not allowed): whatwg · judging… (python pending)"
        ),
        "{}",
        verdict(&app)
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !app.poll_parsers() {
        assert!(
            std::time::Instant::now() < deadline,
            "python never answered"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Python's urlsplit goes to evil.com: a bypass.
    assert!(
        verdict(&app).starts_with(
            "✗ allowlist bypass: example.com:80 (not allowed): whatwg; evil.com:80: python"
        ),
        "{}",
        verdict(&app)
    );
    assert!(!verdict(&app).contains("judging"), "{}", verdict(&app));
}
