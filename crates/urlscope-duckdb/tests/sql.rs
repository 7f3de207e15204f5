//! The extension in DuckDB, from `cargo test`: the shared library cargo built for this run gets
//! its metadata footer (scripts/duckdb-extension --footer) and pytest runs
//! python/tests/test_duckdb_extension.py on it, in the virtual environment scripts/setup-python
//! makes (`.venv`, or `$URLSCOPE_VENV`), whose duckdb module (python/requirements-dev.txt)
//! loads it and whose urlscope package gives the rows to compare with.
//!
//! As tests/python.rs: without the environment the test says it skipped, unless
//! `URLSCOPE_REQUIRE_PYTHON` is set (as CI sets it); the Python package is rebuilt first when it
//! was built from other sources than these. pytest's report is kept in
//! `CARGO_TARGET_TMPDIR/pytest-duckdb.log`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn bash(root: &Path, script: &str, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new("bash");
    command.arg(root.join(script)).args(args).current_dir(root);
    for (k, v) in env {
        command.env(k, v);
    }
    command
        .output()
        .unwrap_or_else(|e| panic!("bash runs {script}: {e}"))
}

/// The virtual environment's python with the urlscope package built from these sources (as
/// tests/python.rs makes sure of it), or `None` when there is none and none is required.
fn python(root: &Path) -> Option<PathBuf> {
    let venv = std::env::var_os("URLSCOPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"));
    let python = venv.join("bin/python");
    if !python.is_file() {
        let why = format!(
            "no virtual environment at {} (scripts/setup-python makes it)",
            venv.display()
        );
        if std::env::var_os("URLSCOPE_REQUIRE_PYTHON").is_some() {
            panic!("URLSCOPE_REQUIRE_PYTHON is set and there is {why}");
        }
        eprintln!("duckdb: skipped: {why}");
        return None;
    }
    let venv_env = [("URLSCOPE_VENV", venv.as_path())];
    let hash = bash(root, "scripts/setup-python", &["--source-hash"], &venv_env);
    assert!(hash.status.success(), "{}", text(&hash));
    let hash = String::from_utf8_lossy(&hash.stdout).trim().to_owned();
    let built = std::fs::read_to_string(venv.join("urlscope-extension.hash")).unwrap_or_default();
    if built.split_whitespace().next() != Some(hash.as_str()) {
        eprintln!("duckdb: the Python package is out of date; scripts/setup-python rebuilds it");
        // Its own target directory: `cargo test` holds the lock on the main one.
        let target = root.join("target/python");
        let out = bash(
            root,
            "scripts/setup-python",
            &[],
            &[
                ("URLSCOPE_VENV", venv.as_path()),
                ("CARGO_TARGET_DIR", &target),
            ],
        );
        assert!(
            out.status.success(),
            "scripts/setup-python failed:\n{}",
            text(&out)
        );
    }
    Some(python)
}

/// The shared library cargo built for this test run: the package's cdylib, beside this test's
/// executable (target/debug/deps) or one directory up.
fn library() -> PathBuf {
    let name = format!(
        "{}urlscope_duckdb{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let exe = std::env::current_exe().expect("the test's executable");
    let deps = exe.parent().expect("the test's directory");
    [deps.join(&name), deps.join("..").join(&name)]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("cargo built no {name} beside {}", deps.display()))
}

/// kasztp.txt where it is ($URLSCOPE_BENCH_DIR, ../shared/bench).
fn url_list(root: &Path) -> Option<PathBuf> {
    std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(|d| PathBuf::from(d).join("kasztp.txt"))
        .into_iter()
        .chain([root.join("../shared/bench/kasztp.txt")])
        .find(|p| p.is_file())
}

#[test]
fn the_extension_in_duckdb_gives_the_python_packages_rows() {
    let root = root();
    let Some(python) = python(&root) else {
        return;
    };
    // The file's name is the extension's: DuckDB calls `urlscope_init_c_api`.
    let extension = Path::new(env!("CARGO_TARGET_TMPDIR")).join("duckdb/urlscope.duckdb_extension");
    let library = library();
    let footer = bash(
        &root,
        "scripts/duckdb-extension",
        &[
            "--footer",
            library.to_str().expect("a UTF-8 path"),
            extension.to_str().expect("a UTF-8 path"),
        ],
        &[],
    );
    assert!(footer.status.success(), "{}", text(&footer));

    let mut pytest = Command::new(&python);
    pytest
        .args(["-m", "pytest", "python/tests/test_duckdb_extension.py"])
        .args(["-q", "-p", "no:cacheprovider", "-rs"])
        .current_dir(&root)
        .env("URLSCOPE_DUCKDB_EXTENSION", &extension);
    if let Some(list) = url_list(&root) {
        pytest.env("URLSCOPE_URL_LIST", list);
    }
    let out = pytest
        .output()
        .expect("the virtual environment's python runs");
    let report = text(&out);
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pytest-duckdb.log");
    std::fs::write(&log, &report).unwrap_or_else(|e| panic!("writing {}: {e}", log.display()));
    assert!(
        out.status.success(),
        "pytest exited {:?}:\n{report}",
        out.status.code()
    );
    let summary = report
        .lines()
        .rev()
        .find(|l| l.contains(" passed"))
        .unwrap_or("");
    assert!(summary.contains(" passed"), "pytest ran no test:\n{report}");
    // Under CI every test runs: a skip there is a test that did not.
    if std::env::var_os("URLSCOPE_REQUIRE_PYTHON").is_some() {
        assert!(
            !summary.contains("skipped"),
            "tests were skipped:\n{report}"
        );
    }
    eprintln!("duckdb: {summary}");
}

/// The virtual environment's python (`$URLSCOPE_VENV`, else the set-up's `.venv`), for the tests
/// that need only its duckdb module; none (the test skips, or fails under
/// `URLSCOPE_REQUIRE_PYTHON`) where there is none.
fn venv_python(root: &Path) -> Option<PathBuf> {
    let venv = std::env::var_os("URLSCOPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"));
    let python = venv.join("bin/python");
    if python.is_file() {
        return Some(python);
    }
    if std::env::var_os("URLSCOPE_REQUIRE_PYTHON").is_some() {
        panic!(
            "URLSCOPE_REQUIRE_PYTHON is set and there is no {}",
            python.display()
        );
    }
    eprintln!("duckdb: skipped: no {}", python.display());
    None
}

/// The built library with the extension's footer, in a folder of the test's own under the
/// target directory (tests running at once each write their own file).
fn footed_extension(root: &Path, folder: &str) -> PathBuf {
    let extension = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(folder)
        .join("urlscope.duckdb_extension");
    let footer = bash(
        root,
        "scripts/duckdb-extension",
        &[
            "--footer",
            library().to_str().expect("a UTF-8 path"),
            extension.to_str().expect("a UTF-8 path"),
        ],
        &[],
    );
    assert!(footer.status.success(), "{}", text(&footer));
    extension
}

/// What `python -c script extension` prints, trimmed; the script must succeed.
fn run_script(python: &Path, script: &str, extension: &Path) -> String {
    let out = Command::new(python)
        .args(["-c", script])
        .arg(extension)
        .output()
        .expect("the virtual environment's python runs");
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `urlscope_check`'s allowlist is parsed once per process, not per thread, chunk or row: the
/// debug build's `urlscope_allowlist_parses()` counts the parses while queries run over many
/// chunks on several threads, in two databases, and with an allowlist that changes from row to
/// row. Only the virtual environment's duckdb module is needed (not the urlscope package).
#[test]
fn an_allowlist_is_parsed_once_per_process() {
    let root = root();
    let Some(python) = venv_python(&root) else {
        return;
    };
    // A file of its own: the other test writes its own at the same time.
    let extension = footed_extension(&root, "duckdb-parses");
    let script = r#"
import sys
import duckdb

def database():
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute("SET enable_progress_bar = false")
    con.execute("SET threads = 4")
    con.execute(f"LOAD '{sys.argv[1]}'")
    return con

con = database()
def parses():
    return con.execute("SELECT urlscope_allowlist_parses()").fetchone()[0]

# Four row groups of the table, read by four threads, each in chunks of 2,048 rows. One row in
# 64 has an input (a NULL one is not judged: the gate's five readings of a row are slow in a
# debug build), a short one that is not a URL; they differ from row to row, or DuckDB would
# compute a constant column once.
con.execute(
    "CREATE TABLE u AS SELECT i, CASE WHEN i % 64 = 0 THEN 'x' || (i % 7) END AS url "
    "FROM range(4 * 122880) t(i)"
)
start = parses()
gated = "SELECT count(urlscope_check(url, ['one.example', '*.two.example'])) FROM u"
assert con.execute(gated).fetchone()[0] == 4 * 122880 // 64
assert con.execute(gated).fetchone()[0] == 4 * 122880 // 64
assert parses() - start == 1, ("one list", parses() - start)
# Another database of the process: the list is known already.
other = database()
assert other.execute(gated.replace("FROM u", "FROM (SELECT 'x' || range AS url FROM range(3000))")).fetchone()[0] == 3000
assert parses() - start == 1, ("another database", parses() - start)
# Two lists that take turns, row by row: two parses.
turns = (
    "SELECT count(urlscope_check(url, CASE WHEN i % 2 = 0 THEN ['three.example'] "
    "ELSE ['four.example'] END)) FROM (SELECT i, 'x' || i AS url FROM u WHERE i < 10000)"
)
assert con.execute(turns).fetchone()[0] == 10000
assert parses() - start == 3, ("lists taking turns", parses() - start)
print(parses() - start)
"#;
    assert_eq!(run_script(&python, script, &extension), "3");
}

/// `urlscope_host` and `urlscope_href` write a chunk's strings together (src/vector.rs,
/// `Texts`): those of 12 bytes or less in their rows, the longer ones into one string of the
/// vector's heap per chunk (or per MiB of them) that each row points into. Over rows whose
/// host and href are known (every length around 12 bytes, upper case that the parser lowers,
/// NULLs and inputs that are not URLs between them, and paths long enough that a chunk's hrefs
/// fill the buffer several times), each row equals its own, read directly, after `=` (which
/// DuckDB answers from a string's length and first four bytes when it can), through a table
/// (the strings copied into storage) and grouped. Only the virtual environment's duckdb module
/// is needed.
#[test]
fn a_chunks_strings_are_each_rows_own() {
    let root = root();
    let Some(python) = venv_python(&root) else {
        return;
    };
    let extension = footed_extension(&root, "duckdb-texts");
    let script = r#"
import sys
import duckdb

con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute("SET enable_progress_bar = false")
con.execute("SET threads = 2")
con.execute(f"LOAD '{sys.argv[1]}'")

# Hosts of 4 to 27 bytes ('a' * k, then '.ex'), every tenth in upper case; a path of up to
# 2,000 bytes. Row i % 7 == 0 is NULL, i % 11 == 0 is not a URL (its host and href are NULL).
rows = 20_000
con.execute(f"""
CREATE TABLE u AS
SELECT i,
       repeat('a', i % 25) || 'h.ex' AS host,
       repeat('p', (i * 37) % 2000) AS path,
       CASE WHEN i % 7 = 0 THEN NULL
            WHEN i % 11 = 0 THEN 'not a url ' || i
            WHEN i % 10 = 0 THEN 'http://' || upper(repeat('a', i % 25) || 'h.ex') || '/' || repeat('p', (i * 37) % 2000)
            ELSE 'http://' || repeat('a', i % 25) || 'h.ex' || '/' || repeat('p', (i * 37) % 2000)
       END AS url
FROM range({rows}) t(i)
""")
expected = """
CASE WHEN url IS NULL OR i % 11 = 0 THEN NULL ELSE host END AS want_host,
CASE WHEN url IS NULL OR i % 11 = 0 THEN NULL ELSE 'http://' || host || '/' || path END AS want_href
"""
con.execute(f"CREATE TABLE got AS SELECT i, urlscope_host(url) AS h, urlscope_href(url) AS r, {expected} FROM u")

def zero(sql, what):
    n = con.execute(sql).fetchone()[0]
    assert n == 0, (what, n, con.execute(sql.replace("count(*)", "*") + " LIMIT 3").fetchall())

zero(f"SELECT count(*) FROM (SELECT urlscope_host(url) AS h, {expected} FROM u) WHERE h IS DISTINCT FROM want_host", "host")
zero(f"SELECT count(*) FROM (SELECT urlscope_href(url) AS r, {expected} FROM u) WHERE r IS DISTINCT FROM want_href", "href")
zero("SELECT count(*) FROM got WHERE NOT (h = want_host) OR NOT (r = want_href)", "= through a table")
zero("SELECT count(*) FROM got WHERE (h IS NULL) <> (want_host IS NULL)", "NULLs in place")
# Read back as Python strings, byte for byte.
for h, want in con.execute("SELECT h, want_host FROM got").fetchall():
    assert h == want, (h, want)
# Grouped: as many distinct hosts as were made, each counted as often.
groups = con.execute("SELECT h, count(*) FROM got WHERE h IS NOT NULL GROUP BY h ORDER BY h").fetchall()
wanted = con.execute("SELECT want_host, count(*) FROM got WHERE want_host IS NOT NULL GROUP BY 1 ORDER BY 1").fetchall()
assert groups == wanted, (groups[:3], wanted[:3])
# What the rows cover: hosts on both sides of 12 bytes (inlined and not), and a chunk's hrefs
# (2,048 rows) over the 1 MiB at which the buffer is handed to DuckDB.
shortest, longest, written, wanted = con.execute(
    "SELECT min(length(h)), max(length(h)), count(h), count(want_host) FROM got"
).fetchone()
assert written == wanted and written > rows // 2, (written, wanted)
chunk = con.execute("SELECT sum(length(r)) FROM got WHERE i < 2048").fetchone()[0]
print(shortest, longest, chunk > 1 << 20)
"#;
    assert_eq!(run_script(&python, script, &extension), "4 28 True");
}
