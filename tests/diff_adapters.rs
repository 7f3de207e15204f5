//! Adapter processes that misbehave, run for real: one that never answers (and leaves a child
//! of its own holding the pipe), one that crashes, one that is not installed. Each is reported,
//! nothing waits past its timeout, and no process (or zombie) is left behind.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};
use urlscope::diff::adapter::{Adapter, AdapterSpec, Launch, MAX_MISSES};
use urlscope::diff::{Background, Delivery, Timeouts};

/// Whether `version` is the one the differential corpus recorded for `name`: a runtime's
/// reading is checked exactly only at that version.
fn recorded(name: &str, version: Option<&str>) -> bool {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diff_corpus.jsonl");
    let text = std::fs::read_to_string(path).expect("the corpus");
    let first: serde_json::Value = text
        .lines()
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .expect("the versions line");
    version.is_some() && first["versions"][name].as_str() == version
}

const HELLO: &str = r#"{"urlscope-adapter":1,"available":true,"version":"test"}"#;

fn spec(name: &str, program: &str, args: &[&str]) -> AdapterSpec {
    AdapterSpec {
        name: name.to_owned(),
        launch: Launch::Command {
            program: program.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
        },
    }
}

fn timeouts(request_ms: u64) -> Timeouts {
    Timeouts {
        startup: Duration::from_secs(20),
        request: Duration::from_millis(request_ms),
        build: Duration::from_secs(300),
    }
}

/// The process running `sh -c script`, the leader of its adapter's group, once it runs (within
/// 20 s).
fn running_script(script: &str) -> Option<u32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            if cmdline
                .windows(script.len())
                .any(|w| w == script.as_bytes())
            {
                if let Some(pid) = entry.file_name().to_str().and_then(|p| p.parse().ok()) {
                    return Some(pid);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// The processes (zombies included) whose process group is `pgid`, and `pgid` itself if it
/// still exists in any state, once the system has had up to 5 s to reap orphans: the adapter
/// itself is reaped by urlscope, but a child it started is orphaned when the group is killed,
/// and init reaps it.
fn left_over(pgid: u32) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let found = group_members(pgid);
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn group_members(pgid: u32) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp …; comm may hold spaces, so split after the last ')'.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let pid: u32 = head
            .split(' ')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let pgrp: u32 = fields.get(2).and_then(|p| p.parse().ok()).unwrap_or(0);
        if pid == pgid || pgrp == pgid {
            found.push(format!("{pid} state {} ({})", fields[0], head.trim()));
        }
    }
    found
}

#[test]
fn a_hanging_adapter_times_out_and_leaves_nothing_behind() {
    // A shell that greets, starts a child holding the same stdout, and never answers.
    let script = format!("sleep 600 & echo '{HELLO}'; wait");
    let mut adapter = Adapter::new(spec("hang", "sh", &["-c", &script]), timeouts(300));
    let started = Instant::now();
    let answer = adapter.read("http://example.com/", None);
    let elapsed = started.elapsed();
    assert!(!answer.available, "{answer:?}");
    let error = answer.error.as_deref().unwrap_or("");
    assert!(error.contains("no answer within 300 ms"), "{error}");
    assert_eq!(answer.version.as_deref(), Some("test"));
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    // The process was started in its own group, which is stopped and reaped whole.
    assert_eq!(adapter.pid(), None);

    // Given up, it answers without starting a process: each start of this one leaves a line.
    let starts = std::env::temp_dir().join(format!("urlscope-hang-starts-{}", std::process::id()));
    let _ = std::fs::remove_file(&starts);
    let script = format!(
        "echo started >> '{}'; sleep 600 & echo '{HELLO}'; wait",
        starts.display()
    );
    let mut adapter = Adapter::new(spec("hang", "sh", &["-c", &script]), timeouts(200));
    let _ = adapter.read("x", None);
    for _ in 1..MAX_MISSES {
        let _ = adapter.read("x", None);
    }
    let given_up = adapter.read("x", None);
    assert!(
        given_up
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("given up after")),
        "{given_up:?}"
    );
    let count = || {
        std::fs::read_to_string(&starts)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let before = count();
    assert!(before >= 1, "the adapter was started");
    assert!(adapter.read("y", None).error.is_some());
    assert_eq!(count(), before, "a given-up adapter is not started again");
    assert_eq!(adapter.pid(), None);
    let _ = std::fs::remove_file(&starts);
}

#[test]
fn a_hanging_adapters_children_are_stopped_with_it() {
    // This test's and this run's own: the shell is found by its command line.
    let script = format!(
        "sleep 600 & echo '{HELLO}'; wait # children {}",
        std::process::id()
    );
    let mut adapter = Adapter::new(spec("hang", "sh", &["-c", &script]), timeouts(300));
    // Start it with a request that hangs, but read its pid while it runs from another thread.
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let answer = adapter.read("x", None);
        tx.send(answer).expect("send");
        adapter
    });
    // Find the group while the request waits: the shell and its sleep.
    let pgid = running_script(&script).expect("the adapter's shell ran");
    let answer = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("an answer in time");
    assert!(!answer.available);
    let _adapter = handle.join().expect("join");
    assert_eq!(left_over(pgid), Vec::<String>::new(), "processes left over");
}

#[test]
fn a_crashing_adapter_is_reported_with_its_status_and_message() {
    let script = format!(
        "import sys\nprint('{HELLO}', flush=True)\nsys.stdin.readline()\nsys.stderr.write('boom: cannot read this\\n')\nsys.exit(3)\n"
    );
    let mut adapter = Adapter::new(spec("crash", "python3", &["-c", &script]), timeouts(5000));
    let started = Instant::now();
    let answer = adapter.read("http://example.com/", None);
    assert!(!answer.available, "{answer:?}");
    let error = answer.error.as_deref().unwrap_or("");
    assert!(error.contains("the adapter exited"), "{error}");
    assert!(error.contains("exit status: 3"), "{error}");
    assert!(error.contains("boom: cannot read this"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(adapter.pid(), None);
    // It is started again for the next input, and given up after MAX_MISSES in a row.
    for _ in 1..MAX_MISSES {
        let _ = adapter.read("x", None);
    }
    let answer = adapter.read("x", None);
    assert!(
        answer
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("given up after")),
        "{answer:?}"
    );
}

#[test]
fn a_missing_runtime_or_a_silent_one_is_unavailable_with_the_reason() {
    let mut adapter = Adapter::new(
        spec("nope", "urlscope-no-such-runtime", &[]),
        timeouts(1000),
    );
    let answer = adapter.read("x", None);
    assert_eq!(
        answer.error.as_deref(),
        Some("urlscope-no-such-runtime is not installed (not found on PATH)")
    );
    let mut silent = Adapter::new(
        spec("silent", "sleep", &["600"]),
        Timeouts {
            startup: Duration::from_millis(300),
            ..timeouts(1000)
        },
    );
    let started = Instant::now();
    let answer = silent.read("x", None);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        answer
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("no hello from the adapter")),
        "{answer:?}"
    );
    let mut not_adapter = Adapter::new(spec("echo", "echo", &["hello"]), timeouts(1000));
    let answer = not_adapter.read("x", None);
    assert!(
        answer
            .error
            .as_deref()
            .is_some_and(|e| e.contains("not a urlscope-adapter hello")),
        "{answer:?}"
    );
}

#[test]
fn background_answers_the_latest_request_and_stops_its_adapters_on_drop() {
    let shipped = AdapterSpec::shipped()
        .into_iter()
        .find(|s| s.name == "python")
        .expect("the python adapter");
    let background = Background::new(vec![shipped], Timeouts::default(), Delivery::Latest);
    for (generation, input) in ["h", "ht", "http://a.example", "http://b.example/"]
        .into_iter()
        .enumerate()
    {
        background.request(generation as u64, input, None);
    }
    // The last request is always answered; superseded ones may be skipped.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = None;
    while Instant::now() < deadline {
        match background
            .updates()
            .recv_timeout(Duration::from_millis(100))
        {
            Ok(update) if update.generation == 3 => {
                last = Some(update);
                break;
            }
            _ => {}
        }
    }
    let last = last.expect("the newest request is answered");
    if last.answer.available && recorded("python", last.answer.version.as_deref()) {
        assert_eq!(last.answer.host.as_deref(), Some("b.example"));
    }
    let children = children_running("python.py");
    if last.answer.available {
        assert_eq!(children.len(), 1, "one adapter process: {children:?}");
    }
    let started = Instant::now();
    drop(background);
    assert!(started.elapsed() < Duration::from_secs(5));
    for pid in children {
        assert_eq!(
            left_over(pid),
            Vec::<String>::new(),
            "the adapter outlived its lab"
        );
    }
}

/// This test process's children whose command line mentions `needle`.
fn children_running(needle: &str) -> Vec<u32> {
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let ppid: u32 = rest
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if ppid == me
            && cmdline
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
        {
            found.extend(head.split(' ').next().and_then(|p| p.parse::<u32>().ok()));
        }
    }
    found
}

/// The shape a front end uses per keystroke: built-in answers at once, external ones polled.
/// Beside Python, an adapter that never answers: polling must bring Python's answer while that
/// one is still pending, as a poll that waited for it would only return after its 60 s limit.
/// Dropped then, the lab stops it at once rather than waiting for that limit.
#[test]
fn a_live_reading_fills_in_without_blocking() {
    use urlscope::diff::Lab;
    let only = ["whatwg".to_owned(), "python".to_owned(), "hang".to_owned()];
    // This run's own, so that no process of another run is taken for it.
    let script = format!("sleep 600 & echo '{HELLO}'; wait # {}", std::process::id());
    let mut lab = Lab::new(
        Some(&only),
        vec![spec("hang", "sh", &["-c", &script])],
        timeouts(60_000),
        Delivery::Latest,
    )
    .expect("the parsers");
    let _older = lab.start("http://older.example/", None);
    let mut live = lab.start("http://example.com\\@evil.com", None);
    assert_eq!(live.pending(), vec!["python", "hang"]);
    let now = live.comparison();
    assert_eq!(
        now.answer("whatwg").and_then(|a| a.host.as_deref()),
        Some("example.com")
    );
    assert!(now.answer("python").is_none());
    let deadline = Instant::now() + Duration::from_secs(30);
    while live.pending().contains(&"python") && Instant::now() < deadline {
        lab.poll(&mut live);
        assert!(
            live.pending().contains(&"hang"),
            "poll never waits for an answer"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(live.pending(), vec!["hang"], "python answered");
    let python = live.comparison().answer("python").cloned().expect("python");
    if python.available && recorded("python", python.version.as_deref()) {
        assert_eq!(python.host.as_deref(), Some("evil.com"));
        assert_eq!(
            live.comparison().verdict(),
            urlscope::diff::Verdict::Elsewhere
        );
    }
    // Dropped on another thread: its processes are gone long before the 60 s limit.
    let pgid = running_script(&script).expect("the hanging adapter runs");
    let dropping = std::thread::spawn(move || drop(lab));
    assert_eq!(left_over(pgid), Vec::<String>::new(), "processes left over");
    dropping.join().expect("the lab dropped");
}
