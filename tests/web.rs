//! The classroom page in a real browser: builds it (scripts/build-web, when it is missing or
//! older than its sources), serves the folder on a local port, and runs every
//! `tests/web/*.test.mjs` with Node, two at a time, each driving Chromium headless through
//! playwright-core. A script passes by exiting 0; the output of each failing one is shown.
//! Before them, the page's transfer (every file gzipped) is weighed: the first screen (all but
//! `readings/`) at most 2 MiB, the other parsers' readings but Python's at most 2 MiB more.
//!
//! Without a WebAssembly toolchain, wasm-bindgen, Node, the npm packages of tests/web
//! (`npm ci` there; scripts/setup does it) or Chromium, the test says what is missing and
//! skips, unless `URLSCOPE_REQUIRE_BROWSER=1` (CI), where it fails.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

/// How long one script may run before it is stopped and fails.
const SCRIPT_TIME_LIMIT: Duration = Duration::from_secs(600);

/// How many scripts run at once. Each drives a Chromium of its own and waits on it much of the
/// time (for a frame, a load, a settled screen); no script's check depends on its timing.
const SCRIPTS_AT_ONCE: usize = 2;

/// The most the first screen may weigh over the wire (every file but `readings/` gzipped at
/// level 9, together), and the most the readings but Python's may weigh beside it.
const PAGE_LIMIT: u64 = 2 * 1024 * 1024;

fn skip_or_fail(why: &str) {
    if std::env::var_os("URLSCOPE_REQUIRE_BROWSER").is_some_and(|v| v == "1") {
        panic!("{why} (URLSCOPE_REQUIRE_BROWSER=1: the browser tests must run)");
    }
    eprintln!("web: SKIPPED, {why}");
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::manifest_dir().join("target"))
}

/// The newest modification time of the files under `path`.
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| newest(&entry.path()))
        .max()
}

/// Builds the page into `out` unless it is newer than everything it is built from.
fn build_page(out: &Path) -> Result<(), String> {
    let root = common::manifest_dir();
    // The module, as the page loads it (scripts/build-web keeps no bare .wasm).
    let module = out.join("pkg").join("urlscope_web_bg.wasm.gz");
    let sources = [
        "src",
        "crates/urlscope-web",
        "vendor",
        "web",
        "Cargo.toml",
        "Cargo.lock",
        "scripts/build-web",
        "scripts/web-readings",
        "assets/parsers",
    ];
    let newest_source = sources.iter().filter_map(|s| newest(&root.join(s))).max();
    let built = std::fs::metadata(&module).and_then(|m| m.modified()).ok();
    if let (Some(built), Some(source)) = (built, newest_source) {
        if built >= source {
            eprintln!("web: {} is up to date", out.display());
            return Ok(());
        }
    }
    eprintln!("web: building the page with scripts/build-web");
    let output = Command::new(root.join("scripts").join("build-web"))
        .arg(out)
        .current_dir(&root)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run scripts/build-web: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "scripts/build-web failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    eprint!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(())
}

/// Every file under `dir` with what it weighs gzipped at level 9, as scripts/build-web and
/// scripts/bench-web count it, by path.
fn gzipped_sizes(dir: &Path) -> Vec<(String, u64)> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("the page's folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, files);
            } else {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gzip.write_all(&std::fs::read(file).expect("a file of the page"))
                .expect("gzip into memory");
            let gzipped = gzip.finish().expect("gzip into memory").len();
            let name = file.strip_prefix(dir).unwrap_or(file).display().to_string();
            (name, gzipped as u64)
        })
        .collect()
}

/// The folder of Python's reading (Pyodide, about 6 MB), loaded on a click or when the page is
/// idle: its weight is told, not limited.
const PYTHON_READING: &str = "readings/python/";

/// What the page weighs over the wire, gzipped, in the three groups: the first screen
/// (everything but `readings/`) at most 2 MiB; the readings but Python's at most 2 MiB more;
/// Python's told. A limit passed names every file of its group with its weight.
fn check_page_size(out: &Path) {
    let sizes = gzipped_sizes(out);
    let (readings, first): (Vec<_>, Vec<_>) = sizes
        .iter()
        .partition(|(name, _)| name.starts_with("readings/"));
    let (python, readings): (Vec<_>, Vec<_>) = readings
        .into_iter()
        .partition(|(name, _)| name.starts_with(PYTHON_READING));
    let sum = |files: &[&(String, u64)]| files.iter().map(|(_, size)| size).sum::<u64>();
    let list = |files: &[&(String, u64)]| {
        files
            .iter()
            .map(|(name, size)| format!("  {name}: {size} bytes gzipped"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (first_total, readings_total) = (sum(&first), sum(&readings));
    eprintln!(
        "web: the first screen weighs {first_total} bytes gzipped (limit {PAGE_LIMIT}); the \
         readings but Python's {readings_total} (limit {PAGE_LIMIT} more); Python's reading {}",
        sum(&python)
    );
    let mut over = Vec::new();
    if first_total > PAGE_LIMIT {
        over.push(format!(
            "the first screen (everything but readings/) weighs {first_total} bytes gzipped, over \
             the limit of {PAGE_LIMIT} (2 MiB):\n{}",
            list(&first)
        ));
    }
    if readings_total > PAGE_LIMIT {
        over.push(format!(
            "the readings but Python's weigh {readings_total} bytes gzipped, over the limit of \
             {PAGE_LIMIT} (2 MiB more than the first screen):\n{}",
            list(&readings)
        ));
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// A static server for `dir` on 127.0.0.1 (a thread per connection, one request each): the
/// page's address.
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let address = format!(
        "http://127.0.0.1:{}/",
        listener.local_addr().expect("its address").port()
    );
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || respond(stream, &dir));
        }
    });
    address
}

fn respond(mut stream: TcpStream, dir: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // The headers, up to the empty line (a GET has no body).
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_owned()
    };
    let file = (!relative
        .split('/')
        .any(|part| part == ".." || part.contains('\\')))
    .then(|| dir.join(&relative))
    .and_then(|file| std::fs::read(file).ok());
    let response = match file {
        Some(body) => {
            let kind = match relative.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js" | "mjs") => "text/javascript; charset=utf-8",
                Some("wasm") => "application/wasm",
                Some("css") => "text/css; charset=utf-8",
                Some("json") => "application/json",
                Some("svg") => "image/svg+xml",
                Some("png") => "image/png",
                Some("txt") => "text/plain; charset=utf-8",
                _ => "application/octet-stream",
            };
            let mut head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
                 Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .into_bytes();
            head.extend_from_slice(&body);
            head
        }
        None => {
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
        }
    };
    let _ = stream.write_all(&response);
}

/// The web-platform-tests data files by name, found as tests/wpt.rs finds them, as JSON.
fn wpt_files() -> String {
    let mut files = serde_json::Map::new();
    match common::discover() {
        Ok(source) => {
            eprintln!(
                "web: wpt data from {} ({})",
                source.dir.display(),
                source.how
            );
            for file in [
                "urltestdata.json",
                "urltestdata-javascript-only.json",
                "setters_tests.json",
                "toascii.json",
                "IdnaTestV2.json",
                "IdnaTestV2-removed.json",
                "percent-encoding.json",
            ] {
                if let Some(located) = source.locate(file) {
                    files.insert(
                        file.to_owned(),
                        located.path.to_string_lossy().into_owned().into(),
                    );
                }
            }
        }
        Err(why) => eprintln!("web: {why}"),
    }
    serde_json::Value::Object(files).to_string()
}

/// Runs one script to its end or the time limit: its exit status (None when stopped) and
/// everything it printed.
fn run_script(script: &Path, env: &[(&str, String)]) -> Result<(Option<i32>, String), String> {
    let mut command = Command::new("node");
    command
        .arg(script)
        .current_dir(script.parent().unwrap_or(Path::new(".")))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not run node: {e}"))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if start.elapsed() < SCRIPT_TIME_LIMIT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let mut output = stdout.join().unwrap_or_default();
    output.push_str(&stderr.join().unwrap_or_default());
    Ok((status, output))
}

#[test]
fn browser_tests() {
    let root = common::manifest_dir();
    let scripts_dir = root.join("tests").join("web");
    let chromium = std::env::var_os("URLSCOPE_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        return skip_or_fail(&format!(
            "no Chromium at {} (scripts/setup installs Debian's chromium)",
            chromium.display()
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return skip_or_fail("no node on PATH (scripts/setup installs it)");
    }
    if !scripts_dir
        .join("node_modules")
        .join("playwright-core")
        .join("package.json")
        .is_file()
    {
        return skip_or_fail("tests/web has no node_modules/playwright-core (`npm ci` in tests/web; scripts/setup does it)");
    }
    let out = target_dir().join("web");
    if let Err(why) = build_page(&out) {
        // A missing toolchain skips; a build that fails on a toolchain that is there fails.
        if why.contains("no toolchain builds for wasm32") || why.contains("is not installed") {
            return skip_or_fail(&why);
        }
        panic!("{why}");
    }
    check_page_size(&out);

    let address = serve(out.clone());
    let env = [
        ("URLSCOPE_WEB_URL", address),
        // The folder itself, for the scripts that serve it from a server of their own (the
        // offline test stops its server).
        ("URLSCOPE_WEB_DIR", out.to_string_lossy().into_owned()),
        ("URLSCOPE_CHROMIUM", chromium.to_string_lossy().into_owned()),
        ("URLSCOPE_WPT_FILES", wpt_files()),
        // The command line, for the scripts that compare the page's readings with `diff`'s.
        ("URLSCOPE_BIN", env!("CARGO_BIN_EXE_urlscope").to_owned()),
    ];
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&scripts_dir)
        .expect("tests/web")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".test.mjs"))
        })
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no tests/web/*.test.mjs");

    // SCRIPTS_AT_ONCE at a time, each report printed in the scripts' order.
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..SCRIPTS_AT_ONCE {
            let sender = sender.clone();
            let (next, scripts, env) = (&next, &scripts, &env);
            scope.spawn(move || {
                while let Some(script) = scripts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let start = Instant::now();
                    let result = run_script(script, env);
                    let _ = sender.send((script.clone(), result, start.elapsed()));
                }
            });
        }
    });
    drop(sender);
    let mut results: Vec<_> = receiver.into_iter().collect();
    results.sort_by(|a, b| a.0.cmp(&b.0));

    let mut failures = Vec::new();
    for (script, result, took) in results {
        let name = script
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match result {
            Ok((Some(0), output)) => {
                eprintln!("web: {name} passed ({:.1} s)", took.as_secs_f64());
                eprint!("{output}");
            }
            Ok((status, output)) => {
                let how = match status {
                    Some(code) => format!("exited with {code}"),
                    None => format!("stopped after {} s", SCRIPT_TIME_LIMIT.as_secs()),
                };
                eprintln!("web: {name} FAILED ({how})");
                failures.push(format!("--- {name} {how}:\n{output}"));
            }
            Err(why) => failures.push(format!("--- {name}: {why}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} browser test scripts failed:\n{}",
        failures.len(),
        scripts.len(),
        failures.join("\n")
    );
}

/// The weight check fails on a folder over a limit, naming each file of that group with its
/// weight, and passes Python's reading whatever it weighs.
#[test]
fn page_size_limits() {
    // Bytes that gzip cannot shrink (xorshift), so that a file weighs what it holds.
    fn noise(len: usize, mut seed: u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect()
    }
    let dir = std::env::temp_dir().join(format!("urlscope-page-size-{}", std::process::id()));
    let write = |name: &str, bytes: &[u8]| {
        let file = dir.join(name);
        std::fs::create_dir_all(file.parent().expect("a folder")).expect("a folder");
        std::fs::write(file, bytes).expect("a file");
    };
    let mib = 1024 * 1024;
    let _ = std::fs::remove_dir_all(&dir);
    write("index.html", &noise(mib, 1));
    write("readings/go/go.wasm", &noise(mib, 2));
    write("readings/curl/curl.wasm", &noise(mib / 2, 3));
    write("readings/python/pyodide.asm.wasm", &noise(6 * mib, 4));
    check_page_size(&dir); // Python's 6 MiB are told, not limited

    let message = |dir: &Path| {
        let dir = dir.to_owned();
        std::panic::catch_unwind(move || check_page_size(&dir))
            .expect_err("a group over its limit")
            .downcast::<String>()
            .map(|m| *m)
            .unwrap_or_default()
    };
    write("readings/whatwg-url/worker.js", &noise(mib / 2 + 1, 5));
    let over = message(&dir);
    assert!(over.contains("the readings but Python's weigh"), "{over}");
    for file in [
        "readings/go/go.wasm",
        "readings/curl/curl.wasm",
        "readings/whatwg-url/worker.js",
    ] {
        assert!(
            over.contains(&format!("  {file}: ")),
            "{file} unnamed in: {over}"
        );
    }
    assert!(
        !over.contains("the first screen (everything") && !over.contains("python"),
        "{over}"
    );

    std::fs::remove_dir_all(dir.join("readings")).expect("remove");
    write("pkg/urlscope_web_bg.wasm.js", &noise(mib + 1, 6));
    let over = message(&dir);
    assert!(
        over.contains("the first screen (everything but readings/) weighs"),
        "{over}"
    );
    assert!(
        over.contains("  index.html: ") && over.contains("  pkg/urlscope_web_bg.wasm.js: "),
        "{over}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
