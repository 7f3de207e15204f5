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
#[cfg_attr(windows, ignore = "reads with the python adapter, which runs python3")]
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

/// A DNS server on 127.0.0.1 that answers every A question with 10.0.0.5 and every other with
/// no record, for as long as the test runs: no query leaves the machine.
fn dns_server() -> std::net::SocketAddr {
    use hickory_proto::op::Message;
    use hickory_proto::rr::rdata::A;
    use hickory_proto::rr::{RData, Record, RecordType};
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let address = socket.local_addr().expect("address");
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok((n, peer)) = socket.recv_from(&mut buffer) {
            let Ok(query) = Message::from_vec(&buffer[..n]) else {
                continue;
            };
            let Some(question) = query.queries.first().cloned() else {
                continue;
            };
            let mut response = Message::response(query.metadata.id, query.metadata.op_code);
            if question.query_type() == RecordType::A {
                let owner = question.name().clone();
                let data = RData::A(A(std::net::Ipv4Addr::new(10, 0, 0, 5)));
                response.add_answer(Record::from_rdata(owner, 60, data));
            }
            response.add_query(question);
            let _ = socket.send_to(&response.to_vec().expect("encode"), peer);
        }
    });
    address
}

/// `--resolve`: the lookup is made on its own thread ("judging… (lookups pending)" until it
/// arrives), shown in the Host pane, and judged as `check --resolve` judges it.
#[test]
fn the_host_pane_shows_the_lookup_and_the_gate_judges_it() {
    use crate::inspect::resolve::system::{Background, Config, Server};
    let config = Config {
        server: Server::Dns(dns_server()),
        ..Config::default()
    };
    let mut app = pinned("https://intranet.example/", "");
    app.set_gate(Some(Gate {
        allowlist: None,
        deny_internal: true,
    }));
    app.set_lookups(Background::start(config).expect("a thread"));
    assert!(
        verdict(&app).starts_with("judging… (lookups pending)"),
        "{}",
        verdict(&app)
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !app.poll_lookups() {
        assert!(std::time::Instant::now() < deadline, "no lookup arrived");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        verdict(&app).starts_with(
            "✗ internal destination: intranet.example:443, resolves by the DNS server 127.0.0.1:"
        ),
        "{}",
        verdict(&app)
    );
    let lookup = app
        .derived
        .host
        .iter()
        .find(|r| r.key == "lookup")
        .expect("a lookup row");
    assert_eq!(lookup.value, "intranet.example → 10.0.0.5 (private-use)");
    // The same name with another path: answered at once, not asked again.
    app.apply(super::action::Action::Insert("other".to_owned()));
    assert!(!verdict(&app).contains("pending"), "{}", verdict(&app));
    assert!(
        verdict(&app).starts_with("✗ internal destination"),
        "{}",
        verdict(&app)
    );
}
