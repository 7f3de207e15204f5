//! `check --resolve`: each reading's name looked up and every address judged by the internal
//! table. The names are asked of a DNS server this test runs on 127.0.0.1 (`--dns-server`), so
//! that no query leaves the machine; the system resolver is asked only for `localhost`, which
//! `/etc/hosts` answers.

mod common;

use hickory_proto::op::{Message, MessageType, ResponseCode};
use hickory_proto::rr::rdata::{A, AAAA, CNAME};
use hickory_proto::rr::{Name, RData, Record, RecordType};
use serde_json::Value;
use std::net::UdpSocket;
use std::sync::{Arc, Mutex};

/// A DNS server on 127.0.0.1 that answers from a fixed zone, and the questions it was asked.
struct Server {
    address: String,
    asked: Arc<Mutex<Vec<(String, RecordType)>>>,
}

/// The zone: each name's records; `missing.test` is NXDOMAIN, `silent.test` never answered.
fn answer(
    name: &str,
    record_type: RecordType,
) -> Option<Result<Vec<(String, RData)>, ResponseCode>> {
    let a = |s: &str| RData::A(A(s.parse().expect("IPv4")));
    let aaaa = |s: &str| RData::AAAA(AAAA(s.parse().expect("IPv6")));
    let records: Vec<(String, RData)> = match (name, record_type) {
        ("silent.test.", _) => return None,
        ("missing.test.", _) => return Some(Err(ResponseCode::NXDomain)),
        ("intranet.test.", RecordType::A) => vec![(name.into(), a("10.0.0.5"))],
        ("public.test.", RecordType::A) => vec![(name.into(), a("93.184.215.14"))],
        // One public address and one loopback one: every address is judged.
        ("mixed.test.", RecordType::A) => vec![(name.into(), a("93.184.215.14"))],
        ("mixed.test.", RecordType::AAAA) => vec![(name.into(), aaaa("::1"))],
        ("alias.test.", RecordType::A) => vec![
            (
                name.into(),
                RData::CNAME(CNAME(Name::from_ascii("metadata.test.").expect("name"))),
            ),
            ("metadata.test.".into(), a("169.254.169.254")),
        ],
        _ => vec![],
    };
    Some(Ok(records))
}

impl Server {
    fn start() -> Server {
        let socket = UdpSocket::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let address = socket.local_addr().expect("address").to_string();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&asked);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            loop {
                let Ok((n, peer)) = socket.recv_from(&mut buffer) else {
                    return;
                };
                let Ok(query) = Message::from_vec(&buffer[..n]) else {
                    continue;
                };
                let Some(question) = query.queries.first().cloned() else {
                    continue;
                };
                let name = question.name().to_ascii().to_ascii_lowercase();
                log.lock()
                    .expect("log")
                    .push((name.clone(), question.query_type()));
                let Some(records) = answer(&name, question.query_type()) else {
                    continue;
                };
                let mut response = Message::response(query.metadata.id, query.metadata.op_code);
                response.metadata.message_type = MessageType::Response;
                response.metadata.recursion_desired = query.metadata.recursion_desired;
                response.add_query(question);
                match records {
                    Err(code) => response.metadata.response_code = code,
                    Ok(records) => {
                        for (owner, data) in records {
                            let owner = Name::from_ascii(&owner).expect("name");
                            response.add_answer(Record::from_rdata(owner, 60, data));
                        }
                    }
                }
                let bytes = response.to_vec().expect("encode");
                let _ = socket.send_to(&bytes, peer);
            }
        });
        Server { address, asked }
    }

    fn asked(&self) -> Vec<(String, RecordType)> {
        self.asked.lock().expect("log").clone()
    }
}

/// `check --json` with `args` on `inputs`, one line each: the exit code and each input's line.
fn check(args: &[&str], inputs: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check", "--json"];
    all.extend(args);
    let stdin: String = inputs.iter().map(|i| format!("{i}\n")).collect();
    let env = [("URLSCOPE_PARSERS", "/nonexistent/urlscope-parsers.conf")];
    let output = common::urlscope_with(&all, stdin.as_bytes(), &env);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        inputs.len() + 1,
        "one line per input and a summary: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        output.status.code().unwrap_or(-1),
        lines[..inputs.len()].to_vec(),
    )
}

/// A line's findings: (id, severity, detail).
fn findings(line: &Value) -> Vec<(String, String, String)> {
    line["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["id"].as_str().unwrap_or("").to_owned(),
                f["severity"].as_str().unwrap_or("").to_owned(),
                f["detail"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// The findings of the gate and the lookups (the host analysis's are tests/host_analysis.rs's).
const IDS: [&str; 5] = [
    "internal-destination",
    "lookup-failed",
    "resolves-internal",
    "allowlist-bypass",
    "not-allowed",
];

/// A line's findings of the gate and the lookups: (id, severity, detail).
fn judged(line: &Value) -> Vec<(String, String, String)> {
    findings(line)
        .into_iter()
        .filter(|(id, ..)| IDS.contains(&id.as_str()))
        .collect()
}

fn ids(line: &Value) -> Vec<String> {
    judged(line).into_iter().map(|(id, ..)| id).collect()
}

#[test]
fn deny_internal_judges_every_address_a_lookup_gives() {
    let server = Server::start();
    let inputs = [
        "http://intranet.test/",
        "http://public.test/",
        "http://mixed.test/",
        "http://alias.test/",
        "http://missing.test/",
        "http://silent.test/",
        // The same name again: looked up once per run.
        "https://INTRANET.test./other",
    ];
    let (code, lines) = check(
        &[
            "--deny-internal",
            "--dns-server",
            &server.address,
            "--resolve-timeout",
            "0.5",
        ],
        &inputs,
    );
    assert_eq!(code, 1, "danger fails the run");
    let by = format!("by the DNS server {}", server.address);
    // An internal address: the gate's internal-destination, naming the lookup and the entry.
    let intranet = judged(&lines[0]);
    assert_eq!(intranet.len(), 1, "{intranet:?}");
    assert_eq!(intranet[0].0, "internal-destination");
    assert_eq!(intranet[0].1, "danger");
    assert!(
        intranet[0]
            .2
            .contains(&format!("resolves {by} to 10.0.0.5, private-use")),
        "{}",
        intranet[0].2
    );
    assert!(intranet[0].2.contains("whatwg"), "names the readings");
    assert_eq!(lines[0]["gate"]["pass"], false);
    assert_eq!(
        lines[0]["gate"]["readings"]["whatwg"]["internal"],
        "private-use"
    );
    assert_eq!(
        lines[0]["gate"]["lookups"][0],
        serde_json::json!({"name": "intranet.test", "by": by.trim_start_matches("by "),
            "outcome": "addresses", "addresses": ["10.0.0.5"]})
    );
    // Public: passes.
    assert!(ids(&lines[1]).is_empty(), "{:?}", judged(&lines[1]));
    assert_eq!(lines[1]["gate"]["pass"], true);
    // One internal address among public ones is enough.
    let mixed = judged(&lines[2]);
    assert_eq!(ids(&lines[2]), ["internal-destination"]);
    assert!(mixed[0].2.contains("to ::1, loopback"), "{}", mixed[0].2);
    // A CNAME is followed to its address.
    let alias = judged(&lines[3]);
    assert_eq!(ids(&lines[3]), ["internal-destination"]);
    assert!(alias[0].2.contains("169.254.169.254"), "{}", alias[0].2);
    // No such name, and no answer: not shown to be public, so the gate fails closed.
    for (line, why) in [
        (&lines[4], "NXDOMAIN"),
        (&lines[5], "no answer within 0.5 s"),
    ] {
        let f = judged(line);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            (f[0].0.as_str(), f[0].1.as_str()),
            ("lookup-failed", "danger")
        );
        assert!(f[0].2.contains(why), "{}", f[0].2);
        assert!(f[0].2.contains("fails closed"), "{}", f[0].2);
    }
    assert_eq!(ids(&lines[6]), ["internal-destination"]);
    // Each name asked once for A and once for AAAA in the run, the repeated one included;
    // never a name the test did not give (the loopback of the URL Standard's `localhost`, say).
    let asked = server.asked();
    let intranet_asked = asked.iter().filter(|(n, _)| n == "intranet.test.").count();
    assert_eq!(intranet_asked, 2, "{asked:?}");
    for (name, _) in &asked {
        assert!(name.ends_with(".test."), "{name}");
    }
}

#[test]
fn without_deny_internal_a_lookup_warns() {
    let server = Server::start();
    let (code, lines) = check(
        &["--resolve", "--dns-server", &server.address],
        &[
            "http://intranet.test/",
            "http://missing.test/",
            "http://public.test/",
        ],
    );
    assert_eq!(code, 0, "warnings do not fail the run at --fail-on danger");
    let intranet = judged(&lines[0]);
    assert_eq!(
        intranet
            .iter()
            .map(|(i, s, _)| (i.as_str(), s.as_str()))
            .collect::<Vec<_>>(),
        [("resolves-internal", "warn")]
    );
    assert!(
        intranet[0]
            .2
            .starts_with("intranet.test resolves by the DNS server"),
        "{}",
        intranet[0].2
    );
    assert_eq!(lines[0]["gate"]["pass"], true);
    let missing = judged(&lines[1]);
    assert_eq!(
        (missing[0].0.as_str(), missing[0].1.as_str()),
        ("lookup-failed", "warn")
    );
    assert!(ids(&lines[2]).is_empty());
}

#[test]
fn addresses_and_wildcard_names_are_not_looked_up() {
    let server = Server::start();
    let (_, lines) = check(
        &["--deny-internal", "--dns-server", &server.address],
        &[
            "http://127.0.0.1/",
            "http://0x7f.1/",
            "http://[::1]/",
            "http://company.127.0.0.1.nip.io/",
        ],
    );
    for line in &lines[..3] {
        assert_eq!(ids(line), ["internal-destination"], "{line}");
    }
    // The wildcard name is internal by the table (nip.io's documentation), without a lookup.
    assert_eq!(ids(&lines[3]), ["internal-destination"]);
    assert!(server.asked().is_empty(), "{:?}", server.asked());
}

#[test]
fn the_system_resolver_answers_localhost_from_the_hosts_file() {
    // `check` never asks for `localhost` (the internal table judges it); the resolver is asked
    // here directly, for the one name every machine's hosts file answers, so that no query
    // leaves the machine.
    use urlscope::inspect::resolve::system::{Config, SystemResolver};
    use urlscope::inspect::resolve::{Outcome, Resolver};
    let resolver = SystemResolver::new(Config::default());
    let lookups = resolver.lookup(&["localhost".to_owned()]);
    assert_eq!(lookups[0].by, "the system resolver");
    let Outcome::Addresses { addresses } = &lookups[0].outcome else {
        panic!("{:?}", lookups[0]);
    };
    assert!(!addresses.is_empty());
    assert!(addresses.iter().all(|a| a.is_loopback()), "{addresses:?}");
    // Asked again in the run: the cache answers.
    assert_eq!(resolver.lookup(&["localhost".to_owned()]), lookups);
}

#[test]
fn bad_resolve_options_are_usage_errors() {
    for args in [
        ["--resolve-timeout", "0"],
        ["--resolve-timeout", "1e9"],
        ["--resolve-jobs", "0"],
        ["--dns-server", "localhost"],
    ] {
        let mut all = vec!["check", "--resolve"];
        all.extend(args);
        all.push("http://example.com/");
        let output = common::urlscope(&all, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn wildcard_names_are_judged_without_a_lookup() {
    // No --resolve: the internal table reads each service's names as its documentation says.
    let inside = [
        "http://company.127.0.0.1.nip.io/",
        "http://169.254.169.254.nip.io/",
        "http://localtest.me/",
        "http://make-1.2.3.4-rebind-169.254-169.254-rr.1u.ms/",
        "http://7f000001.c0a80001.rbndr.us/",
        "http://--1.sslip.io/",
        "http://app-0a000001.nip.io/",
    ];
    let outside = [
        "http://8.8.8.8.nip.io/",
        "http://nip.io/",
        "http://make-1.2.3.4-rr.1u.ms/",
        "http://notnip.io/",
    ];
    let inputs: Vec<&str> = inside.iter().chain(&outside).copied().collect();
    let (code, lines) = check(&["--deny-internal"], &inputs);
    assert_eq!(code, 1);
    for (line, input) in lines.iter().zip(&inside) {
        let f = judged(line);
        assert_eq!(ids(line), ["internal-destination"], "{input}");
        assert!(
            f[0].2.contains("resolves through") || f[0].2.contains("rebinding"),
            "{}",
            f[0].2
        );
        assert!(
            line["gate"].get("lookups").is_none(),
            "no lookup without --resolve"
        );
    }
    assert!(judged(&lines[0])[0].2.contains("to 127.0.0.1, loopback"));
    assert!(judged(&lines[4])[0].2.contains("(a DNS rebinding service)"));
    for (line, input) in lines[inside.len()..].iter().zip(&outside) {
        assert!(ids(line).is_empty(), "{input}: {:?}", judged(line));
    }
}
