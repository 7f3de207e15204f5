//! External parsers: long-lived adapter processes speaking JSON Lines.
//!
//! The protocol (documented in docs/diff.md for people adding their own parser): the adapter
//! prints one hello line, `{"urlscope-adapter": 1, "available": true, "version": "…"}` (or
//! `"available": false, "error": "why"`), then answers each request line
//! `{"id": N, "input": "…", "base": null | "…"}` with one line
//! `{"id": N, "failure": bool, "error": null | "…", "scheme": …, "username": …, "password": …,
//! "host": …, "port": …, "path": …, "query": …, "fragment": …}`, in order, flushing after each.
//! Component values are strings or null; a missing one is null. An answer with
//! `"available": false` declines that one request (the parser has no reading for it).
//!
//! An adapter starts on first use and stays up. Every request has a timeout: an adapter that
//! does not answer in time, or exits, is stopped (its whole process group) and reaped, that
//! input is reported as unanswered, and the next input starts it again; after
//! [`MAX_MISSES`] inputs in a row without an answer it is given up for the session.
//!
//! Every process started here (adapters, and the Go adapter's build) leads a process group of
//! its own on Unix, and runs in a job object of its own on Windows (which also ends it when
//! urlscope ends, however it ends), and is listed while it runs, so that [`stop_all`] can end
//! them all when urlscope ends: an adapter busy with a catastrophic input would otherwise
//! outlive it, orphaned, at full CPU.

use super::Answer;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// Inputs in a row without an answer (timeouts or exits) after which an adapter is given up.
pub const MAX_MISSES: u32 = 3;

/// How long to wait for an adapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From starting the process to its hello line (Java compiles its source first).
    pub startup: Duration,
    /// From sending a request to its answer.
    pub request: Duration,
    /// Building an adapter that needs it (Go), once per cache.
    pub build: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            startup: Duration::from_secs(30),
            request: Duration::from_secs(5),
            build: Duration::from_secs(300),
        }
    }
}

/// How an adapter is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A script shipped in `assets/parsers/`, written into the cache and run by `runtime`.
    Script {
        runtime: &'static str,
        file: &'static str,
        source: &'static str,
        args: &'static [&'static str],
    },
    /// A Go source shipped in `assets/parsers/`, built once into the cache.
    Go { source: &'static str },
    /// A single-file Java program shipped in `assets/parsers/` (public class `class`), compiled
    /// once into the cache with `javac` and run from its class file: `java FILE.java` compiles
    /// it on every start, 1.4 s rather than 0.13 s here. Without `javac` (or when it fails),
    /// run as a single-file program all the same.
    Java {
        class: &'static str,
        source: &'static str,
    },
    /// A user's command: a program and its arguments.
    Command { program: String, args: Vec<String> },
}

/// An external parser: its name and how to start its adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSpec {
    pub name: String,
    pub launch: Launch,
}

const PYTHON: &str = include_str!("../../assets/parsers/python.py");
const NODE: &str = include_str!("../../assets/parsers/node.js");
const JAVA: &str = include_str!("../../assets/parsers/JavaUri.java");
const GO: &str = include_str!("../../assets/parsers/go.go");

impl AdapterSpec {
    /// The external parsers urlscope ships adapters for.
    pub fn shipped() -> Vec<AdapterSpec> {
        let script = |name: &str, runtime, file, source, args| AdapterSpec {
            name: name.to_owned(),
            launch: Launch::Script {
                runtime,
                file,
                source,
                args,
            },
        };
        vec![
            script("python", "python3", "python.py", PYTHON, &["urlsplit"]),
            script("urllib3", "python3", "python.py", PYTHON, &["urllib3"]),
            script("node", "node", "node.js", NODE, &["whatwg"]),
            script("node-legacy", "node", "node.js", NODE, &["legacy"]),
            AdapterSpec {
                name: "java".to_owned(),
                launch: Launch::Java {
                    class: "JavaUri",
                    source: JAVA,
                },
            },
            AdapterSpec {
                name: "go".to_owned(),
                launch: Launch::Go { source: GO },
            },
        ]
    }

    /// A configuration line: `NAME = COMMAND [ARG…]`, words split at white space.
    pub fn from_config_line(line: &str) -> Result<AdapterSpec, String> {
        let (name, command) = line
            .split_once('=')
            .ok_or_else(|| format!("expected NAME = COMMAND, got {line:?}"))?;
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(format!(
                "{name:?} is not a parser name (letters, digits, - _ .)"
            ));
        }
        let mut words = command.split_whitespace().map(str::to_owned);
        let program = words
            .next()
            .ok_or_else(|| format!("no command for the parser {name:?}"))?;
        Ok(AdapterSpec {
            name: name.to_owned(),
            launch: Launch::Command {
                program,
                args: words.collect(),
            },
        })
    }

    /// The user's parsers: the lines of `$URLSCOPE_PARSERS`, or else of `parsers.conf` in
    /// [`config_dir`], when the file exists. Blank lines and lines starting with "#" are
    /// skipped.
    pub fn configured() -> Result<Vec<AdapterSpec>, String> {
        let path = match std::env::var_os("URLSCOPE_PARSERS") {
            Some(p) => PathBuf::from(p),
            None => match config_dir() {
                Some(dir) => dir.join("parsers.conf"),
                None => return Ok(Vec::new()),
            },
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| {
                AdapterSpec::from_config_line(l)
                    .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
            })
            .collect()
    }
}

/// A non-empty environment variable.
fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// urlscope's configuration directory: on Linux and the other XDG systems
/// `$XDG_CONFIG_HOME/urlscope`, else `~/.config/urlscope`; on macOS
/// `~/Library/Application Support/urlscope`; on Windows `%APPDATA%\urlscope`. `None` when
/// the system names no home for the user.
pub fn config_dir() -> Option<PathBuf> {
    #[cfg(not(any(windows, target_os = "macos")))]
    let base = env_dir("XDG_CONFIG_HOME").or_else(|| env_dir("HOME").map(|h| h.join(".config")));
    #[cfg(any(windows, target_os = "macos"))]
    let base = dirs::config_dir();
    Some(base?.join("urlscope"))
}

/// Where adapters are written and built: `$URLSCOPE_CACHE_DIR`, else urlscope's directory in
/// the user's cache: on Linux and the other XDG systems `$XDG_CACHE_HOME/urlscope`, else
/// `~/.cache/urlscope`; on macOS `~/Library/Caches/urlscope`; on Windows
/// `%LOCALAPPDATA%\urlscope` (the machine's own profile, which does not roam); else the
/// temporary directory's `urlscope`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = env_dir("URLSCOPE_CACHE_DIR") {
        return dir;
    }
    #[cfg(not(any(windows, target_os = "macos")))]
    let base = env_dir("XDG_CACHE_HOME").or_else(|| env_dir("HOME").map(|h| h.join(".cache")));
    #[cfg(any(windows, target_os = "macos"))]
    let base = dirs::cache_dir();
    base.unwrap_or_else(std::env::temp_dir).join("urlscope")
}

/// Whether Go finds a build cache of its own (its `os.UserCacheDir`: `%LocalAppData%` on
/// Windows, under `$HOME` elsewhere); if not, the Go adapter's build is given one in ours.
fn go_has_a_cache() -> bool {
    let home = if cfg!(windows) {
        "LocalAppData"
    } else {
        "HOME"
    };
    std::env::var_os("GOCACHE").is_some() || std::env::var_os(home).is_some()
}

/// A directory per source content, so that a changed adapter is never confused with a stale one.
fn content_dir(source: &str) -> PathBuf {
    // FNV-1a: stable across runs and Rust versions, unlike the standard hasher.
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    cache_dir().join("adapters").join(format!("{hash:016x}"))
}

/// Writes `contents` to `path` unless it is already there, through a rename so that a
/// concurrent urlscope never runs half a file.
fn write_once(path: &Path, contents: &[u8]) -> io::Result<()> {
    if std::fs::read(path).is_ok_and(|c| c == contents) {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temporary = dir.join(format!(".{}.{}", std::process::id(), unique()));
    std::fs::write(&temporary, contents)?;
    std::fs::rename(&temporary, path)
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What stops a started process with everything it started: on Unix its process group, named
/// by the process's id (it leads the group); on Windows its job object, when the system gave
/// one.
#[cfg(not(windows))]
struct Group;
#[cfg(windows)]
struct Group(Option<urlscope_windows::Job>);

impl Group {
    /// Stops the whole group (Unix) or job (Windows) of the process `pid`. Called while the
    /// process is listed: not reaped yet, so its id cannot have gone to another process.
    fn stop(self, pid: u32) {
        #[cfg(unix)]
        {
            use rustix::process::{kill_process_group, Pid, Signal};
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
        #[cfg(windows)]
        {
            let _ = pid;
            if let Some(job) = self.0 {
                let _ = job.terminate();
            }
        }
        #[cfg(not(any(unix, windows)))]
        let _ = pid;
    }
}

/// The processes started here that are still to be reaped, by id, with what stops their
/// groups, and whether urlscope is ending.
struct Started {
    groups: BTreeMap<u32, Group>,
    ending: bool,
}

static STARTED: Mutex<Started> = Mutex::new(Started {
    groups: BTreeMap::new(),
    ending: false,
});

fn started() -> MutexGuard<'static, Started> {
    // A panic elsewhere while listing cannot leave the set half-changed: use it as it is.
    STARTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts `command` as the leader of a process group of its own (Unix) or in a job object of
/// its own (Windows) and lists it for [`stop_all`]; refused once urlscope is ending.
fn spawn_listed(command: &mut Command, program: &str) -> Result<Child, String> {
    // Its own process group, so that stopping it stops whatever it started.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    // Held across the spawn, so that stop_all never misses a process started meanwhile.
    let mut started = started();
    if started.ending {
        return Err("not started: urlscope is ending".to_owned());
    }
    #[cfg(not(windows))]
    let (child, group) = (
        command.spawn().map_err(|e| not_installed(program, &e))?,
        Group,
    );
    // Its own job, joined before it runs, so that stopping it stops whatever it started.
    #[cfg(windows)]
    let (child, group) = urlscope_windows::spawn_in_job(command)
        .map(|(child, job)| (child, Group(job)))
        .map_err(|e| not_installed(program, &e))?;
    started.groups.insert(child.id(), group);
    Ok(child)
}

/// Stops one adapter from another thread ([`Adapter::stopper`]): the wait for its hello or its
/// answer ends at once, as if its process had exited, the process is stopped, and no other is
/// started. Its owner's thread, which may be waiting on the process for seconds, can then be
/// joined at once: a [`super::Background`] stops its adapters so when it is dropped.
#[derive(Clone, Debug, Default)]
pub struct Stopper(Arc<Mutex<Stopping>>);

#[derive(Debug, Default)]
struct Stopping {
    stopped: bool,
    /// The running process's line channel, where an end of output is sent to end the wait.
    lines: Option<Sender<Option<String>>>,
}

impl Stopper {
    fn lock(&self) -> MutexGuard<'_, Stopping> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn stop(&self) {
        let mut stopping = self.lock();
        stopping.stopped = true;
        if let Some(lines) = stopping.lines.take() {
            let _ = lines.send(None);
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.lock().stopped
    }
}

/// Takes a reaped process off the list. On Windows its job is closed with it, which ends what
/// the process left running (a process group on Unix is left to itself).
fn unlist(child: &Child) {
    started().groups.remove(&child.id());
}

/// The adapter processes (and builds) running now, by process id.
pub fn running() -> Vec<u32> {
    started().groups.keys().copied().collect()
}

/// Stops every process started here, with its whole process group (or job), and starts no
/// more: for urlscope's way out (the inspector calls it on every exit, a panic included), where
/// the threads that own the adapters may be waiting on them and would never get to stop them.
pub fn stop_all() {
    let mut started = started();
    started.ending = true;
    for (pid, group) in std::mem::take(&mut started.groups) {
        group.stop(pid);
    }
}

/// Builds the Go adapter once per source into the cache; returns the binary.
fn go_binary(source: &str, timeout: Duration) -> Result<PathBuf, String> {
    let dir = content_dir(source);
    let binary = dir.join("go-adapter");
    if binary.is_file() {
        return Ok(binary);
    }
    let file = dir.join("main.go");
    write_once(&file, source.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let temporary = dir.join(format!(".go-adapter.{}.{}", std::process::id(), unique()));
    let mut command = Command::new("go");
    command
        .arg("build")
        .arg("-o")
        .arg(&temporary)
        .arg(&file)
        .current_dir(&dir)
        // Only the toolchain that is installed: never one fetched on demand.
        .env("GOTOOLCHAIN", "local")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if !go_has_a_cache() {
        command.env("GOCACHE", cache_dir().join("go-build"));
    }
    let mut child = spawn_listed(&mut command, "go")?;
    let stderr = drain(child.stderr.take());
    let status = wait_for(&mut child, timeout);
    let message = stderr.join().unwrap_or_default();
    match status {
        Some(status) if status.success() => {
            std::fs::rename(&temporary, &binary)
                .map_err(|e| format!("cannot move the Go adapter into the cache: {e}"))?;
            Ok(binary)
        }
        Some(status) => Err(format!("go build failed ({status}): {}", tail(&message))),
        None => Err(format!(
            "go build took over {} s and was stopped",
            timeout.as_secs()
        )),
    }
}

/// The directory of `file`'s class files, compiled once with `javac` beside it; `None` when
/// `javac` is missing or fails (the caller runs the source instead, which says what is wrong).
/// Compiled for Java 11, the oldest that runs a single-file program, so that a class compiled
/// by one JDK runs on any other installed later.
fn java_classes(file: &Path, timeout: Duration) -> Option<PathBuf> {
    let dir = file.parent()?;
    let classes = dir.join("classes");
    if classes.is_dir() {
        return Some(classes);
    }
    let temporary = dir.join(format!(".classes.{}.{}", std::process::id(), unique()));
    let mut command = Command::new("javac");
    command
        .args(["--release", "11", "-nowarn", "-d"])
        .arg(&temporary)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = spawn_listed(&mut command, "javac").ok()?;
    let compiled = wait_for(&mut child, timeout).is_some_and(|s| s.success());
    // Renamed into place whole; another urlscope's rename may have come first, which is as good.
    if compiled && (std::fs::rename(&temporary, &classes).is_ok() || classes.is_dir()) {
        let _ = std::fs::remove_dir_all(&temporary);
        return Some(classes);
    }
    let _ = std::fs::remove_dir_all(&temporary);
    None
}

/// The names a Python 3 answers to on Windows, tried in this order: `python3` (as on Unix, and
/// the Microsoft Store's Python), then the launcher `py -3` that a python.org install puts on
/// PATH (Python's documentation for Windows runs programs with it), then `python` (a
/// python.org install with "Add python.exe to PATH", conda, and others). A python.org install
/// has no `python3`.
#[cfg_attr(not(windows), allow(dead_code))]
const WINDOWS_PYTHONS: &[&[&str]] = &[&["python3"], &["py", "-3"], &["python"]];

/// The first of `candidates` (a program and the arguments before the script) that runs as
/// Python 3: asked for its major version, it prints 3. One that is not on PATH, or that runs
/// but is no Python 3, is passed over: Windows' own `python3.exe` and `python.exe` where no
/// Python is installed are the Store's stand-ins, which say where to get Python and exit, and a
/// `python` may be a Python 2. The error names each candidate and what it did.
#[cfg_attr(not(windows), allow(dead_code))]
fn first_python(candidates: &[&[&str]], timeout: Duration) -> Result<usize, String> {
    let mut tried = Vec::new();
    for (i, words) in candidates.iter().enumerate() {
        let Some((program, before)) = words.split_first() else {
            continue;
        };
        let name = words.join(" ");
        let mut command = Command::new(program);
        command
            .args(before)
            .args(["-c", "import sys; print(sys.version_info[0])"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = match spawn_listed(&mut command, &name) {
            Ok(child) => child,
            Err(e) => {
                tried.push(e);
                continue;
            }
        };
        let stdout = drain(child.stdout.take());
        let status = wait_for(&mut child, timeout);
        let said = stdout.join().unwrap_or_default();
        match status {
            Some(status) if status.success() && said.trim() == "3" => return Ok(i),
            Some(status) if status.success() => {
                tried.push(format!(
                    "{name} is not Python 3 (it says {:?})",
                    tail(&said)
                ));
            }
            Some(status) => tried.push(format!("{name} did not run Python ({status})")),
            None => tried.push(format!(
                "{name} did not answer within {} s and was stopped",
                timeout.as_secs()
            )),
        }
    }
    Err(format!("no Python 3 found: {}", tried.join("; ")))
}

/// The program that runs a shipped script with `runtime`, the arguments before the script, and
/// the name it was found by when that is worth saying beside the runtime's version. On Windows,
/// Python is looked for under each of [`WINDOWS_PYTHONS`]' names, once per session; elsewhere
/// `runtime` is run as it is named.
fn script_runtime(
    runtime: &str,
    timeout: Duration,
) -> Result<(PathBuf, Vec<String>, Option<String>), String> {
    #[cfg(windows)]
    if runtime == "python3" {
        static FOUND: Mutex<Option<usize>> = Mutex::new(None);
        let mut found = FOUND
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let i = match *found {
            Some(i) => i,
            None => *found.insert(first_python(WINDOWS_PYTHONS, timeout)?),
        };
        let (program, before) = WINDOWS_PYTHONS[i]
            .split_first()
            .expect("a program in each candidate");
        return Ok((
            PathBuf::from(program),
            before.iter().map(|a| (*a).to_owned()).collect(),
            Some(WINDOWS_PYTHONS[i].join(" ")),
        ));
    }
    let _ = timeout;
    Ok((PathBuf::from(runtime), Vec::new(), None))
}

fn not_installed(program: &str, e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::NotFound {
        format!("{program} is not installed (not found on PATH)")
    } else {
        format!("cannot start {program}: {e}")
    }
}

/// Reads a pipe to its end in a thread, keeping the last few kilobytes.
fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(mut pipe) = pipe {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                kept.extend_from_slice(&buffer[..n]);
                if kept.len() > 8192 {
                    kept.drain(..kept.len() - 4096);
                }
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// The end of a message, on one line.
fn tail(message: &str) -> String {
    let message = message.trim();
    let start = message.char_indices().rev().nth(300).map_or(0, |(i, _)| i);
    let cut = if start > 0 { "…" } else { "" };
    format!("{cut}{}", &message[start..]).replace('\n', " | ")
}

/// Waits for a child up to `timeout`; on timeout, stops its process group and reaps it.
fn wait_for(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                unlist(child);
                return Some(status);
            }
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            _ => {
                kill(child);
                return None;
            }
        }
    }
}

/// Stops a child and everything it started (its process group, or its job), then reaps it.
fn kill(child: &mut Child) {
    {
        // Listed until now: not reaped yet, its id cannot have gone to another process.
        let mut started = started();
        if let Some(group) = started.groups.remove(&child.id()) {
            group.stop(child.id());
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A running adapter process.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of standard output; `None` once it ends.
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Process {
    /// Closes standard input, which asks the adapter to exit, and stops it if it lingers.
    fn stop(mut self) {
        drop(self.stdin.take());
        if wait_for(&mut self.child, Duration::from_millis(500)).is_none() {
            // wait_for has stopped and reaped it.
        }
    }

    /// What the process left on standard error, and how it ended, for a message.
    fn epitaph(&mut self) -> String {
        let status = wait_for(&mut self.child, Duration::from_millis(500))
            .map_or_else(|| "stopped".to_owned(), |s| s.to_string());
        // Give the stderr reader a moment to take the last bytes.
        thread::sleep(Duration::from_millis(20));
        let stderr = self.stderr.lock().map(|s| tail(&s)).unwrap_or_default();
        if stderr.is_empty() {
            status
        } else {
            format!("{status}: {stderr}")
        }
    }
}

enum State {
    /// Not started yet, or stopped after an input without an answer.
    Idle,
    Running(Process),
    /// Given up for the session, with the reason.
    Gone(String),
}

/// One external parser's adapter, started on first use and stopped on drop.
pub struct Adapter {
    spec: AdapterSpec,
    timeouts: Timeouts,
    state: State,
    version: Option<String>,
    misses: u32,
    next_id: u64,
    stopper: Stopper,
}

impl std::fmt::Debug for Adapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adapter")
            .field("name", &self.spec.name)
            .field("version", &self.version)
            .field("misses", &self.misses)
            .finish_non_exhaustive()
    }
}

impl Adapter {
    pub fn new(spec: AdapterSpec, timeouts: Timeouts) -> Adapter {
        Adapter {
            spec,
            timeouts,
            state: State::Idle,
            version: None,
            misses: 0,
            next_id: 0,
            stopper: Stopper::default(),
        }
    }

    /// What stops this adapter from another thread, even while it waits on its process.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The id of the adapter's process, while one runs.
    pub fn pid(&self) -> Option<u32> {
        match &self.state {
            State::Running(p) => Some(p.child.id()),
            _ => None,
        }
    }

    /// How this parser reads `input` (resolved against `base` when given). Never waits longer
    /// than the startup and request timeouts.
    pub fn read(&mut self, input: &str, base: Option<&str>) -> Answer {
        match self.request(serde_json::json!({"input": input, "base": base}), "inputs") {
            Ok(value) => self.answer_from(&value),
            Err(why) => self.unavailable(why),
        }
    }

    /// Sends `request` (an object; its `id` is set here) and returns the answer line as JSON,
    /// or why there is none: the process is started when idle, stopped when it does not answer
    /// in time or exits, and given up after [`MAX_MISSES`] `what` in a row without an answer.
    fn request(&mut self, mut request: Value, what: &str) -> Result<Value, String> {
        if let State::Gone(reason) = &self.state {
            return Err(reason.clone());
        }
        if matches!(self.state, State::Idle) {
            match self.start() {
                Ok(process) => self.state = State::Running(process),
                Err(reason) => {
                    self.state = State::Gone(reason.clone());
                    return Err(reason);
                }
            }
        }
        let State::Running(process) = &mut self.state else {
            unreachable!("started above")
        };
        self.next_id += 1;
        let id = self.next_id;
        request["id"] = Value::from(id);
        let sent = process
            .stdin
            .as_mut()
            .map(|stdin| writeln!(stdin, "{request}").and_then(|()| stdin.flush()));
        let outcome = match sent {
            Some(Ok(())) => Self::await_answer(process, id, self.timeouts.request),
            _ => Err(None),
        };
        match outcome {
            Ok(value) => {
                self.misses = 0;
                Ok(value)
            }
            Err(timed_out) => {
                let State::Running(mut process) = std::mem::replace(&mut self.state, State::Idle)
                else {
                    unreachable!("running above")
                };
                let why = match timed_out {
                    None if self.stopper.is_stopped() => {
                        kill(&mut process.child);
                        "stopped".to_owned()
                    }
                    Some(()) => {
                        kill(&mut process.child);
                        format!(
                            "no answer within {} ms; the adapter was stopped",
                            self.timeouts.request.as_millis()
                        )
                    }
                    None => format!("the adapter exited ({})", process.epitaph()),
                };
                process.stop();
                self.misses += 1;
                if self.stopper.is_stopped() {
                    self.state = State::Gone(why.clone());
                } else if self.misses >= MAX_MISSES {
                    self.state = State::Gone(format!(
                        "given up after {MAX_MISSES} {what} in a row without an answer; the last: {why}"
                    ));
                }
                Err(why)
            }
        }
    }

    /// The answer line for `id`: `Err(Some(()))` on timeout, `Err(None)` when output ended.
    fn await_answer(
        process: &mut Process,
        id: u64,
        timeout: Duration,
    ) -> Result<Value, Option<()>> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match process.lines.recv_timeout(left) {
                Ok(Some(line)) => {
                    let Ok(value) = serde_json::from_str::<Value>(&line) else {
                        continue;
                    };
                    if value.get("id").and_then(Value::as_u64) == Some(id) {
                        return Ok(value);
                    }
                    // An answer to an earlier request, or a line the protocol does not have.
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => return Err(None),
                Err(RecvTimeoutError::Timeout) => return Err(Some(())),
            }
        }
    }

    fn unavailable(&self, reason: String) -> Answer {
        Answer {
            version: self.version.clone(),
            ..Answer::unavailable(reason)
        }
    }

    fn answer_from(&self, value: &Value) -> Answer {
        let text = |key: &str| match value.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        Answer {
            // An adapter may decline one request (a reading that takes no base, say).
            available: value
                .get("available")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            version: self.version.clone(),
            failure: value
                .get("failure")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            error: text("error"),
            scheme: text("scheme"),
            username: text("username"),
            password: text("password"),
            host: text("host"),
            port: text("port"),
            path: text("path"),
            query: text("query"),
            fragment: text("fragment"),
        }
    }

    /// Starts the process and reads its hello line.
    fn start(&mut self) -> Result<Process, String> {
        if self.stopper.is_stopped() {
            return Err("stopped".to_owned());
        }
        // The name the runtime was found by, where there was a choice (Python on Windows).
        let mut runtime_name = None;
        let (program, args): (PathBuf, Vec<String>) = match &self.spec.launch {
            Launch::Script {
                runtime,
                file,
                source,
                args,
            } => {
                let path = content_dir(source).join(file);
                write_once(&path, source.as_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                let (program, mut all, found_as) = script_runtime(runtime, self.timeouts.startup)?;
                runtime_name = found_as;
                all.push(path.to_string_lossy().into_owned());
                all.extend(args.iter().map(|a| (*a).to_owned()));
                (program, all)
            }
            Launch::Go { source } => (go_binary(source, self.timeouts.build)?, Vec::new()),
            Launch::Java { class, source } => {
                let file = content_dir(source).join(format!("{class}.java"));
                write_once(&file, source.as_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
                let args = match java_classes(&file, self.timeouts.build) {
                    Some(classes) => vec![
                        "-cp".to_owned(),
                        classes.to_string_lossy().into_owned(),
                        (*class).to_owned(),
                    ],
                    None => vec![file.to_string_lossy().into_owned()],
                };
                (PathBuf::from("java"), args)
            }
            Launch::Command { program, args } => (PathBuf::from(program), args.clone()),
        };
        let mut command = Command::new(&program);
        command
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_listed(&mut command, &program.to_string_lossy())?;
        let stdout = child.stdout.take();
        let (sender, lines) = mpsc::channel();
        {
            // Checked again now that the process runs: a stop that came during the spawn.
            let mut stopping = self.stopper.lock();
            if stopping.stopped {
                drop(stopping);
                kill(&mut child);
                return Err("stopped".to_owned());
            }
            stopping.lines = Some(sender.clone());
        }
        thread::spawn(move || {
            if let Some(stdout) = stdout {
                let mut reader = BufReader::new(stdout);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                            if sender.send(Some(text)).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
            let _ = sender.send(None);
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut kept) = kept.lock() {
                        kept.push_str(&String::from_utf8_lossy(&buffer[..n]));
                        if kept.len() > 8192 {
                            let cut = kept.len() - 4096;
                            let cut = (cut..kept.len())
                                .find(|&i| kept.is_char_boundary(i))
                                .unwrap_or(0);
                            kept.drain(..cut);
                        }
                    }
                }
            });
        }
        let mut process = Process {
            child,
            stdin: None,
            lines,
            stderr,
        };
        process.stdin = process.child.stdin.take();
        let hello = match process.lines.recv_timeout(self.timeouts.startup) {
            Ok(Some(line)) => line,
            Ok(None) | Err(RecvTimeoutError::Disconnected) if self.stopper.is_stopped() => {
                kill(&mut process.child);
                process.stop();
                return Err("stopped".to_owned());
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                let why = format!(
                    "the adapter exited before its hello ({})",
                    process.epitaph()
                );
                process.stop();
                return Err(why);
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut process.child);
                process.stop();
                return Err(format!(
                    "no hello from the adapter within {} s; it was stopped",
                    self.timeouts.startup.as_secs()
                ));
            }
        };
        let hello: Value = match serde_json::from_str::<Value>(&hello) {
            Ok(v) if v.get("urlscope-adapter").and_then(Value::as_u64) == Some(1) => v,
            _ => {
                process.stop();
                return Err(format!(
                    "the adapter's first line is not a urlscope-adapter hello: {}",
                    tail(&hello)
                ));
            }
        };
        // Which of the runtime's names ran it is said beside its version: `py -3` and `python`
        // may be different installs.
        self.version =
            hello
                .get("version")
                .and_then(Value::as_str)
                .map(|version| match &runtime_name {
                    Some(name) => format!("{version} via {name}"),
                    None => version.to_owned(),
                });
        if hello.get("available").and_then(Value::as_bool) != Some(true) {
            process.stop();
            let why = hello
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("the adapter says it is not available");
            return Err(why.to_owned());
        }
        Ok(process)
    }
}

/// Adapters that answer other requests than a URL's reading (`assets/parsers/urlpattern.js`
/// reads URL patterns): the same process handling, with the request and answer as JSON.
impl Adapter {
    /// The version from the adapter's hello line, once it has started.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// Sends `request` (an object; its `id` is set here) and returns the answer line as JSON,
    /// or why there is none. Timeouts, restarts and giving up are as for [`Adapter::read`].
    pub fn exchange(&mut self, request: Value) -> Result<Value, String> {
        self.request(request, "requests")
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        if let State::Running(process) = std::mem::replace(&mut self.state, State::Idle) {
            process.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_lines() {
        let spec = AdapterSpec::from_config_line("php = php /opt/urlscope/php-adapter.php  --x")
            .expect("valid");
        assert_eq!(spec.name, "php");
        assert_eq!(
            spec.launch,
            Launch::Command {
                program: "php".into(),
                args: vec!["/opt/urlscope/php-adapter.php".into(), "--x".into()]
            }
        );
        assert!(AdapterSpec::from_config_line("php php").is_err());
        assert!(AdapterSpec::from_config_line("a b = php").is_err());
        assert!(AdapterSpec::from_config_line("php =   ").is_err());
    }

    /// The configuration and the cache have a home on every system: before, both were built
    /// from `$XDG_*` and `$HOME`, which Windows does not set, so its parsers.conf was never read
    /// and its adapters were written to the temporary directory.
    #[test]
    fn the_configuration_and_cache_have_a_home_on_this_system() {
        let config = config_dir().expect("a configuration directory");
        assert!(config.is_absolute(), "{}", config.display());
        #[cfg(windows)]
        let (config_base, cache_base) = (env_dir("APPDATA"), env_dir("LOCALAPPDATA"));
        #[cfg(target_os = "macos")]
        let (config_base, cache_base) = {
            let library = env_dir("HOME").map(|h| h.join("Library"));
            (
                library.as_ref().map(|l| l.join("Application Support")),
                library.map(|l| l.join("Caches")),
            )
        };
        #[cfg(not(any(windows, target_os = "macos")))]
        let (config_base, cache_base) = (
            env_dir("XDG_CONFIG_HOME").or_else(|| env_dir("HOME").map(|h| h.join(".config"))),
            env_dir("XDG_CACHE_HOME").or_else(|| env_dir("HOME").map(|h| h.join(".cache"))),
        );
        assert_eq!(config, config_base.expect("a base").join("urlscope"));
        // $URLSCOPE_CACHE_DIR, when set, is where the cache is, on every system.
        let cache = env_dir("URLSCOPE_CACHE_DIR")
            .unwrap_or_else(|| cache_base.expect("a base").join("urlscope"));
        assert_eq!(cache_dir(), cache);
    }

    /// Elsewhere than Windows a shipped script's runtime is run by the name it is shipped with,
    /// as it always was: no interpreter is looked for.
    #[cfg(not(windows))]
    #[test]
    fn a_scripts_runtime_is_run_by_its_name_off_windows() {
        let timeout = Duration::from_secs(30);
        for runtime in ["python3", "node"] {
            assert_eq!(
                script_runtime(runtime, timeout),
                Ok((PathBuf::from(runtime), Vec::new(), None))
            );
        }
    }

    /// The search Windows' Python goes through, with the kinds of candidate it meets: one not
    /// on PATH, one that runs but fails (as the Store's stand-in does), one that is a Python 2
    /// (here a shell that prints 2), and a real Python 3, which is the one taken.
    #[cfg(unix)]
    #[test]
    fn the_first_candidate_that_runs_python_3_is_taken() {
        let timeout = Duration::from_secs(60);
        let missing: &[&str] = &["urlscope-no-such-python"];
        let fails: &[&str] = &["false"];
        let python2: &[&str] = &["sh", "-c", "echo 2"];
        let python3: &[&str] = &["python3"];
        assert_eq!(
            first_python(&[missing, fails, python2, python3], timeout),
            Ok(3)
        );
        assert_eq!(first_python(&[python3, missing], timeout), Ok(0));
        let none = first_python(&[missing, fails, python2], timeout).expect_err("no Python 3");
        assert!(none.starts_with("no Python 3 found: "), "{none}");
        for said in [
            "urlscope-no-such-python is not installed (not found on PATH)",
            "false did not run Python (exit status: 1)",
            "sh -c echo 2 is not Python 3 (it says \"2\")",
        ] {
            assert!(none.contains(said), "{said:?} is not in {none:?}");
        }
    }

    /// The same search on Windows, each candidate a batch file: the Store's stand-in (which
    /// prints where to get Python and exits 9009), a Python 2, then a Python 3.
    #[cfg(windows)]
    #[test]
    fn the_first_candidate_that_runs_python_3_is_taken() {
        let timeout = Duration::from_secs(60);
        let dir = std::env::temp_dir().join(format!("urlscope-python-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let script = |name: &str, body: &str| {
            let path = dir.join(name);
            std::fs::write(&path, body).expect("the batch file written");
            path.to_string_lossy().into_owned()
        };
        let store = script(
            "store.cmd",
            "@echo Python was not found; run without arguments to install from the Microsoft Store 1>&2\r\n@exit /b 9009\r\n",
        );
        let python2 = script("python2.cmd", "@echo 2\r\n");
        let python3 = script("python3.cmd", "@echo 3\r\n");
        let missing: &[&str] = &["urlscope-no-such-python"];
        let candidates: [&[&str]; 4] = [missing, &[&store], &[&python2], &[&python3]];
        assert_eq!(first_python(&candidates, timeout), Ok(3));
        let none = first_python(&candidates[..3], timeout).expect_err("no Python 3");
        assert!(none.starts_with("no Python 3 found: "), "{none}");
        for said in [
            "urlscope-no-such-python is not installed (not found on PATH)".to_owned(),
            format!("{store} did not run Python (exit code: 9009)"),
            format!("{python2} is not Python 3 (it says \"2\")"),
        ] {
            assert!(none.contains(&said), "{said:?} is not in {none:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// This test binary's way to hold a file, shared with no one, until it is ended: the
    /// adapter's child in the test below. Without its variable it returns at once.
    #[cfg(windows)]
    #[test]
    #[ignore = "a process of a_stopped_adapters_whole_tree_ends's tree"]
    fn holds_a_file_until_ended() {
        use std::os::windows::fs::OpenOptionsExt;
        let Some(path) = std::env::var_os("URLSCOPE_TEST_HOLD") else {
            return;
        };
        let _held = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .share_mode(0)
            .open(path)
            .expect("the file held");
        std::thread::sleep(Duration::from_secs(120));
    }

    /// Stopping an adapter stops what it started too: on Windows the adapter's job ends its
    /// tree, where killing the adapter's process alone (as before) left its child running.
    #[cfg(windows)]
    #[test]
    fn a_stopped_adapters_whole_tree_ends() {
        /// ERROR_SHARING_VIOLATION: another process has the file open, sharing it with no one.
        const SHARING_VIOLATION: i32 = 32;
        let eventually = |done: &dyn Fn() -> bool| {
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline && !done() {
                thread::sleep(Duration::from_millis(50));
            }
            done()
        };
        let dir = std::env::temp_dir().join(format!("urlscope-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let held = dir.join("held");
        let exe = std::env::current_exe().expect("this test binary");
        // The adapter: a batch file (run by cmd.exe) that says hello, then runs this binary's
        // holder, which never answers.
        let script = dir.join("adapter.cmd");
        std::fs::write(
            &script,
            format!(
                "@echo off\r\nset URLSCOPE_TEST_HOLD={}\r\n\
                 echo {{\"urlscope-adapter\": 1, \"available\": true, \"version\": \"tree\"}}\r\n\
                 \"{}\" --exact diff::adapter::tests::holds_a_file_until_ended --ignored >nul 2>nul\r\n",
                held.display(),
                exe.display()
            ),
        )
        .expect("the batch file written");
        let spec = AdapterSpec {
            name: "tree".to_owned(),
            launch: Launch::Command {
                program: script.to_string_lossy().into_owned(),
                args: Vec::new(),
            },
        };
        let timeouts = Timeouts {
            startup: Duration::from_secs(60),
            request: Duration::from_secs(600),
            build: Duration::from_secs(60),
        };
        let mut adapter = Adapter::new(spec, timeouts);
        let stopper = adapter.stopper();
        let reading = thread::spawn(move || adapter.read("https://example.com/", None));
        let locked = || {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&held)
                .is_err_and(|e| e.raw_os_error() == Some(SHARING_VIOLATION))
        };
        assert!(
            eventually(&locked),
            "the adapter's child never held the file"
        );
        stopper.stop();
        let answer = reading.join().expect("the reading thread");
        assert!(!answer.available, "{answer:?}");
        assert_eq!(answer.error.as_deref(), Some("stopped"));
        assert!(
            eventually(&|| !locked()),
            "the adapter's child outlived the adapter"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
