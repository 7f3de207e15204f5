//! Your own domains: `--known-domains FILE` on `parse` and `check`, and the configuration
//! file's default list, run as a real process.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory under the target directory, for list files and a configuration home.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn urlscope(args: &[&str], config_home: &Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .env("XDG_CONFIG_HOME", config_home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urlscope");
    // A process that fails on its arguments may be gone before it reads: a closed pipe then.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("urlscope output")
}

/// The finding ids `check --json` reports for each input line.
fn check_ids(args: &[&str], config_home: &Path, inputs: &[&str]) -> Vec<Vec<String>> {
    let mut all = vec!["check", "--json"];
    all.extend(args);
    let out = urlscope(&all, config_home, &inputs.join("\n"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|v| v.get("summary").is_none())
        .map(|v| {
            v["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f["id"].as_str().map(str::to_owned))
                .collect()
        })
        .collect()
}

const SPOOFS: &[&str] = &[
    "https://examp1e-brand.test/",
    "https://buchér-brand.test/",
    "https://example-brand.test.evil.example/",
    "https://login-example-brand.test/",
];

#[test]
fn a_list_of_ones_own_domains_is_watched_like_the_built_in_one() {
    let dir = scratch("known-domains-flag");
    let config = dir.join("config");
    std::fs::create_dir_all(&config).expect("config home");
    let list = dir.join("brands.txt");
    std::fs::write(
        &list,
        "# Our brands\nexample-brand.test\n\nbücher-brand.test  # Unicode is fine\n",
    )
    .expect("write list");
    let without = check_ids(&[], &config, SPOOFS);
    // Strict RFC 3986 and the http crate refuse a non-ASCII host, where every other parser
    // goes to the same destination: parser-refuses (info).
    assert_eq!(
        without,
        [vec![], vec!["idn", "parser-refuses"], vec![], vec![]],
        "without the list"
    );
    let path = list.to_str().expect("UTF-8 path");
    let with = check_ids(&["--known-domains", path], &config, SPOOFS);
    assert_eq!(
        with,
        [
            vec!["lookalike-domain"],
            vec!["diacritic-lookalike", "parser-refuses"],
            vec!["known-domain-in-subdomain"],
            vec!["combosquatting"],
        ]
    );
    // The listed domains themselves, and their subdomains, are not look-alikes.
    let own = check_ids(
        &["--known-domains", path],
        &config,
        &[
            "https://example-brand.test/",
            "https://www.bücher-brand.test/",
        ],
    );
    assert_eq!(own, [vec![], vec!["idn", "parser-refuses"]]);
}

#[test]
fn the_configuration_file_keeps_a_default_list() {
    let dir = scratch("known-domains-config");
    let config = dir.join("config");
    std::fs::create_dir_all(config.join("urlscope")).expect("config dir");
    std::fs::write(
        config.join("urlscope").join("known-domains.txt"),
        "example-brand.test\n",
    )
    .expect("write config");
    let ids = check_ids(&[], &config, &SPOOFS[..1]);
    assert_eq!(ids, [vec!["lookalike-domain"]]);
    // `check` answers what the domain imitates, in JSON and in text.
    let out = urlscope(&["check", "--json"], &config, SPOOFS[0]);
    let line: Value =
        serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().expect("a line"))
            .expect("JSON");
    assert_eq!(
        line["imitates"],
        serde_json::json!([{"domain": "example-brand.test", "how": "lookalike-domain"}])
    );
    let out = urlscope(&["check"], &config, SPOOFS[0]);
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("lookalike-domain (danger) (imitates example-brand.test)"));
    // And `parse --json` shows what the host imitates.
    let out = urlscope(&["parse", "--json", SPOOFS[0]], &config, "");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        v["host_analysis"]["imitates"][0]["domain"],
        Value::from("example-brand.test")
    );
}

#[test]
fn a_bad_list_is_a_clear_error() {
    let dir = scratch("known-domains-bad");
    let list = dir.join("bad.txt");
    std::fs::write(&list, "example-brand.test\nnot a domain\n").expect("write list");
    let path = list.to_str().expect("UTF-8 path");
    for command in ["check", "parse"] {
        let out = urlscope(
            &[command, "--known-domains", path],
            &dir,
            "https://example.com/\n",
        );
        assert_eq!(out.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("bad.txt: line 2: \"not a domain\" is not a domain"),
            "{command}: {stderr}"
        );
    }
    let missing = dir.join("missing.txt");
    let out = urlscope(
        &["check", "--known-domains", missing.to_str().expect("path")],
        &dir,
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn a_listed_domain_is_read_in_every_reading_of_a_host() {
    // Chromium's skeleton generator reads ł as l and as t (crbug.com/1250993) and maps the
    // Myanmar letter စ to o: against a list with test.net and o2.com, these hosts read as one of
    // them and Chromium shows them as Punycode.
    let dir = scratch("known-domains-readings");
    let list = dir.join("top.txt");
    std::fs::write(&list, "test.net\no2.com\n").expect("write list");
    let path = list.to_str().expect("UTF-8 path");
    for (host, imitated) in [
        ("tesł.net", "test.net"),
        ("łest.net", "test.net"),
        ("łesł.net", "test.net"),
        ("စ2.com", "o2.com"),
    ] {
        let url = format!("https://{host}/");
        let chromium = |args: &[&str]| {
            let mut all = vec!["parse", "--json"];
            all.extend(args);
            all.push(&url);
            let out = urlscope(&all, &dir, "");
            let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
            v["host_analysis"]["display"][0].clone()
        };
        let without = chromium(&[]);
        assert_eq!(
            without["unicode"],
            Value::Bool(true),
            "{host} without the list"
        );
        let with = chromium(&["--known-domains", path]);
        assert_eq!(with["unicode"], Value::Bool(false), "{host}");
        assert_eq!(with["host_rule"]["rule"], "top-domain-skeleton", "{host}");
        assert_eq!(
            with["host_rule"]["detail"],
            Value::from(format!("\"{host}\" reads as {imitated}")),
            "{host}"
        );
    }
    // The listed domains themselves are not look-alikes.
    let out = urlscope(
        &[
            "parse",
            "--json",
            "--known-domains",
            path,
            "https://test.net/",
        ],
        &dir,
        "",
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["host_analysis"]["imitates"], serde_json::json!([]));
}

#[test]
fn a_list_groups_domains_by_brand_and_marks_owned_ones_and_words() {
    let dir = scratch("known-domains-brands");
    let list = dir.join("brands.txt");
    let hosts = [
        // Under the brand's own (owned) domain: no look-alike of the brand.
        "https://login-example-brand.example-brand-cdn.test/",
        // A name listed as an ordinary word is no word of a longer name.
        "https://mail-widgets.test/",
        // But a look-alike of the brand elsewhere still is one.
        "https://login-example-brand.test/",
    ];
    let path = list.to_str().expect("UTF-8 path");
    let flat = "example-brand.test\nwidgets.test\n";
    std::fs::write(&list, flat).expect("write list");
    assert_eq!(
        check_ids(&["--known-domains", path], &dir, &hosts),
        [
            vec!["combosquatting"],
            vec!["combosquatting"],
            vec!["combosquatting"]
        ],
        "a flat list"
    );
    let grouped =
        "[example]\nexample-brand.test\nexample-brand-cdn.test owned\n\nwidgets.test word\n";
    std::fs::write(&list, grouped).expect("write list");
    assert_eq!(
        check_ids(&["--known-domains", path], &dir, &hosts),
        [vec![], vec![], vec!["combosquatting"]],
        "a list with a brand, an owned domain and a word"
    );
    // An attribute it does not know is an error with its line.
    std::fs::write(&list, "example-brand.test\nexample-brand-cdn.test own\n").expect("write");
    let out = urlscope(&["check", "--known-domains", path], &dir, "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2:"));
}

/// The host analysis remembers what it found for the names it met last (per thread): a domain
/// added to the list afterwards must still be judged with the new list, on the same thread, for
/// a name met before it was added. (This test changes the process's list, which only this
/// file's in-process test reads; the others run the command as a process of its own.)
#[test]
fn a_domain_added_later_is_seen_in_a_name_met_before() {
    use urlscope::inspect::known::{add_known_domains, parse_list};
    use urlscope::report::Report;
    let imitates = |input: &str| -> Vec<String> {
        let report = Report::untraced_parts(
            input,
            None,
            encoding_rs::UTF_8,
            urlscope::report::Parts {
                host_analysis: true,
                ..urlscope::report::Parts::NONE
            },
        );
        let analysis = report.host_analysis.expect("a host analysis");
        analysis
            .imitates
            .iter()
            .map(|i| i.domain.to_owned())
            .collect()
    };
    let lookalike = "https://quixotic-widgetx.com/a";
    assert_eq!(imitates(lookalike), Vec::<String>::new());
    // Asked again: the remembered answer, still nothing.
    assert_eq!(imitates(lookalike), Vec::<String>::new());
    add_known_domains(parse_list("quixotic-widgets.com\n").expect("a list"));
    assert_eq!(imitates(lookalike), vec!["quixotic-widgets.com".to_owned()]);
    assert_eq!(imitates(lookalike), vec!["quixotic-widgets.com".to_owned()]);
}
