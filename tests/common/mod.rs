//! What the test files share: finding the web-platform-tests data and reading its JSON, and
//! finding a program on PATH.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use urlscope::Url;

/// Where the web-platform-tests URL data is read from.
pub struct Source {
    /// The first place found, in this order: `$URLSCOPE_WPT_DIR`, `../shared/wpt`, the
    /// `ada-url` dev-dependency's package (`tests/wpt/`).
    pub dir: PathBuf,
    pub how: &'static str,
    /// The `ada-url` package's copy, for a file that `dir` does not have (`../shared/wpt` has no
    /// `IdnaTestV2-removed.json`). `None` when `dir` is that copy already or it cannot be found.
    pub fallback: Option<PathBuf>,
}

/// Where one data file was found.
pub struct Located {
    pub path: PathBuf,
    pub how: &'static str,
}

impl Source {
    /// The file from `dir`, else from the `ada-url` package's copy.
    pub fn locate(&self, file: &str) -> Option<Located> {
        let primary = self.dir.join(file);
        if primary.is_file() {
            return Some(Located {
                path: primary,
                how: self.how,
            });
        }
        let fallback = self.fallback.as_ref()?.join(file);
        fallback.is_file().then_some(Located {
            path: fallback,
            how: ADA_PACKAGE,
        })
    }
}

const ADA_PACKAGE: &str = "the `ada-url` dev-dependency's package, via cargo metadata";

pub fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// Finds the web-platform-tests data. The `url` crate's package also carries a copy, but an older
/// one than the standard (it still expects `xn--` hosts to parse and `^` unencoded in paths), so it
/// is never used.
pub fn discover() -> Result<Source, String> {
    let ada = ada_package_wpt_dir();
    let with_fallback = |dir: PathBuf, how: &'static str| Source {
        fallback: ada.as_ref().ok().filter(|a| **a != dir).cloned(),
        dir,
        how,
    };
    if let Some(dir) = std::env::var_os("URLSCOPE_WPT_DIR") {
        return Ok(with_fallback(PathBuf::from(dir), "$URLSCOPE_WPT_DIR"));
    }
    let shared = manifest_dir().join("..").join("shared").join("wpt");
    if shared.is_dir() {
        return Ok(with_fallback(shared, "$CARGO_MANIFEST_DIR/../shared/wpt"));
    }
    match ada {
        Ok(dir) => Ok(Source {
            dir,
            how: ADA_PACKAGE,
            fallback: None,
        }),
        Err(why) => Err(format!(
            "no web-platform-tests data found: $URLSCOPE_WPT_DIR is not set, {} does not exist, \
             and the `ada-url` package could not be located ({why})",
            shared.display()
        )),
    }
}

/// The `tests/wpt/` directory of the package named `ada-url`, from `cargo metadata`.
fn ada_package_wpt_dir() -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("cargo"));
    let manifest = manifest_dir().join("Cargo.toml");
    // Offline first (no network when the registry already has everything); cargo metadata may
    // still want manifests of other platforms' dependencies, so retry online if that fails.
    let mut last_error = String::new();
    for offline in [true, false] {
        let mut command = Command::new(&cargo);
        command
            .args(["metadata", "--format-version", "1", "--manifest-path"])
            .arg(&manifest);
        if offline {
            command.arg("--offline");
        }
        let output = match command.output() {
            Ok(output) => output,
            Err(e) => {
                last_error = format!("could not run {}: {e}", cargo.display());
                continue;
            }
        };
        if !output.status.success() {
            last_error = format!(
                "cargo metadata failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
            continue;
        }
        let metadata: Value = serde_json::from_slice(&output.stdout)
            .map_err(|e| format!("cargo metadata printed invalid JSON: {e}"))?;
        let packages = metadata["packages"].as_array().ok_or("no packages")?;
        let manifest_path = packages
            .iter()
            .find(|p| p["name"] == "ada-url")
            .and_then(|p| p["manifest_path"].as_str())
            .ok_or("no package named `ada-url` in cargo metadata")?;
        let dir = Path::new(manifest_path)
            .parent()
            .ok_or("manifest_path has no parent")?
            .join("tests")
            .join("wpt");
        if !dir.is_dir() {
            return Err(format!("{} does not exist", dir.display()));
        }
        return Ok(dir);
    }
    Err(last_error)
}

/// Reads and parses one data file; `None` when the file does not exist.
pub fn load(dir: &Path, file: &str) -> Option<Result<Value, String>> {
    let path = dir.join(file);
    path.is_file().then(|| read_json(&path))
}

/// Reads and parses a data file, with lone surrogate escapes made U+FFFD as the URL API would.
pub fn read_json(path: &Path) -> Result<Value, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|raw| {
            serde_json::from_str(&replace_lone_surrogate_escapes(&raw))
                .map_err(|e| format!("cannot parse {}: {e}", path.display()))
        })
}

/// JavaScript's JSON.parse keeps lone surrogates, and the URL API's USVString conversion then
/// turns each into U+FFFD. serde_json rejects them, so rewrite every `\uD800`–`\uDFFF` escape
/// that is not half of a high+low pair to `\uFFFD` before parsing.
pub fn replace_lone_surrogate_escapes(json: &str) -> String {
    fn code_unit(bytes: &[u8], at: usize) -> Option<u16> {
        if bytes.get(at) != Some(&b'\\') || bytes.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(bytes.get(at + 2..at + 6)?).ok()?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(hex, 16).ok()
    }
    let is_high = |u: u16| (0xD800..=0xDBFF).contains(&u);
    let is_low = |u: u16| (0xDC00..=0xDFFF).contains(&u);

    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match code_unit(bytes, i) {
            Some(high) if is_high(high) && code_unit(bytes, i + 6).is_some_and(is_low) => i += 12,
            Some(unit) if is_high(unit) || is_low(unit) => {
                out.push_str(&json[copied..i]);
                out.push_str("\\uFFFD");
                i += 6;
                copied = i;
            }
            Some(_) => i += 6,
            // Any other escape is a backslash and one ASCII character.
            None => i += 2,
        }
    }
    out.push_str(&json[copied..]);
    out
}

/// xorshift64: a small deterministic sequence, so that a failure on generated input reproduces.
pub struct Rng(pub u64);

impl Rng {
    /// The next number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The URL API getter of that name.
pub fn getter(url: &Url, name: &str) -> Option<String> {
    Some(match name {
        "href" => url.href().to_owned(),
        "origin" => url.origin(),
        "protocol" => url.protocol().to_owned(),
        "username" => url.username().to_owned(),
        "password" => url.password().to_owned(),
        "host" => url.host().to_owned(),
        "hostname" => url.hostname().to_owned(),
        "port" => url.port().to_owned(),
        "pathname" => url.pathname().to_owned(),
        "search" => url.search().to_owned(),
        "hash" => url.hash().to_owned(),
        _ => return None,
    })
}

/// The URL API setter of that name (the href setter's failure leaves the URL unchanged, as the
/// API's throwing setter does).
pub fn setter(url: &mut Url, name: &str, value: &str) -> Option<()> {
    match name {
        "href" => {
            let _ = url.set_href(value);
        }
        "protocol" => url.set_protocol(value),
        "username" => url.set_username(value),
        "password" => url.set_password(value),
        "host" => url.set_host(value),
        "hostname" => url.set_hostname(value),
        "port" => url.set_port(value),
        "pathname" => url.set_pathname(value),
        "search" => url.set_search(value),
        "hash" => url.set_hash(value),
        _ => return None,
    }
    Some(())
}

/// Runs the urlscope binary with `args`, writing `stdin` from a thread so that neither pipe
/// can fill up and block the other.
pub fn urlscope(args: &[&str], stdin: &[u8]) -> std::process::Output {
    urlscope_with(args, stdin, &[])
}

/// [`urlscope`] with `env` added to its environment.
pub fn urlscope_with(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urlscope");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("urlscope output");
    let _ = writer.join();
    output
}

/// Where `program` is on the test's `PATH`, as the shell would find it.
pub fn find(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}
