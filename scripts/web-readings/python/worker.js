// The page's python and urllib3 readings: CPython's urllib.parse and urllib3's parse_url, run in
// Pyodide (CPython compiled to WebAssembly) in a Web Worker, by the very code the terminal runs,
// assets/parsers/python.py, imported here as a module (built into readings/python/ beside this
// file by scripts/web-readings/python/build; the protocol is web/readings/README.md's).
//
// Everything is loaded from this worker's own folder: Pyodide's files (indexURL is this folder,
// so nothing comes from Pyodide's CDN: no package is ever loaded by name), the pinned wheels
// (unpacked into site-packages; no micropip) and python.py. A classic worker or a module worker:
// pyodide.js by importScripts in the one, pyodide.mjs by import() in the other.

// Written by the build: the wheels beside this file, in wheels.txt's order.
const WHEELS = [/* @WHEELS@ */];

const here = new URL("./", self.location.href).href;

async function loader() {
  if (typeof importScripts === "function") {
    try {
      importScripts(here + "pyodide.js");
      return self.loadPyodide;
    } catch (e) {
      // A module worker has importScripts but throws TypeError from it.
      if (!(e instanceof TypeError)) throw e;
    }
  }
  return (await import(here + "pyodide.mjs")).loadPyodide;
}

async function bytes(name) {
  const response = await fetch(here + name);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// What the terminal's adapter host makes of an adapter's answer (src/diff/adapter.rs,
// answer_from): "available" true unless the answer declines, "version" from the hello line,
// "failure" false unless said, every other field a string (a number written out) or null.
function answerFrom(value, version) {
  const text = (key) => {
    const v = value[key];
    if (typeof v === "string") return v;
    if (typeof v === "number") return String(v);
    return null;
  };
  return {
    available: typeof value.available === "boolean" ? value.available : true,
    version,
    failure: typeof value.failure === "boolean" ? value.failure : false,
    error: text("error"),
    scheme: text("scheme"),
    username: text("username"),
    password: text("password"),
    host: text("host"),
    port: text("port"),
    path: text("path"),
    query: text("query"),
    fragment: text("fragment"),
  };
}

// Pyodide compiles pyodide.asm.wasm with WebAssembly.instantiateStreaming, which refuses a
// response not sent as application/wasm, and on any failure only warns and never settles. Here
// the module is compiled from its bytes when the server sends another type, and a failure
// (a missing file) ends the start with its reason.
let wasmFailed = null;
const wasmFailure = new Promise((_, reject) => {
  wasmFailed = reject;
});
wasmFailure.catch(() => {});
const streaming = WebAssembly.instantiateStreaming?.bind(WebAssembly);
WebAssembly.instantiateStreaming = async (source, imports) => {
  try {
    const response = await source;
    if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
    if (streaming && /^application\/wasm\b/.test(response.headers.get("content-type") ?? "")) {
      return await streaming(response, imports);
    }
    return await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  } catch (e) {
    wasmFailed(e);
    throw e;
  }
};

async function start() {
  const loadPyodide = await loader();
  const pyodide = await Promise.race([loadPyodide({ indexURL: here }), wasmFailure]);
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const wheel of WHEELS) {
    pyodide.unpackArchive(await bytes(wheel), "wheel", { extractDir: site });
  }
  // python.py, as the module `python` (its adapter loop runs only as a program).
  pyodide.FS.mkdirTree("/urlscope");
  pyodide.FS.writeFile("/urlscope/python.py", await bytes("python.py"));
  pyodide.runPython("import sys; sys.path.insert(0, '/urlscope')");
  const adapter = pyodide.pyimport("python");
  const js = (proxy) => {
    try {
      return proxy.toJs({ dict_converter: Object.fromEntries });
    } finally {
      proxy.destroy();
    }
  };
  const about = js(
    pyodide.runPython(`
import platform, unicodedata
try:
    import idna
    idna_version = idna.__version__
except ImportError:
    idna_version = None
{"python": platform.python_version(), "unicode": unicodedata.unidata_version, "idna": idna_version}
`),
  );
  const on = `CPython ${about.python}`;
  const parsers = [];
  const readers = {};
  const give = (name, reading, implementation, read) => {
    const hello = js(adapter.hello(reading));
    if (hello.available !== true) return hello.error ?? `${name} is not available`;
    parsers.push({ name, implementation, version: hello.version });
    readers[name] = { read, version: hello.version };
    return null;
  };
  const why = [
    give("python", "urlsplit", `${on}'s urllib.parse (urlsplit) in Pyodide ${pyodide.version}`, adapter.urlsplit_reading),
    give(
      "urllib3",
      "urllib3",
      // urllib3 decides alone but for a non-ASCII host, which idna encodes with CPython's
      // unicodedata: both are named.
      `urllib3's util.parse_url${about.idna ? `, with idna ${about.idna},` : " (without idna)"} on ${on} ` +
        `(Unicode ${about.unicode}) in Pyodide ${pyodide.version}`,
      adapter.urllib3_reading,
    ),
  ].filter((w) => w !== null);
  if (parsers.length === 0) throw new Error(why.join("; "));

  const read = (input, base) => {
    const answers = {};
    for (const [name, { read: reading, version }] of Object.entries(readers)) {
      let request = null;
      try {
        request = pyodide.toPy(base === null || base === undefined ? { input } : { input, base });
        answers[name] = answerFrom(js(reading(request)), version);
      } catch (e) {
        // Not the library's answer (python.py catches the library's exceptions): the input
        // could not be handed to Python (a lone surrogate, say).
        answers[name] = {
          ...answerFrom({}, version),
          failure: true,
          error: `the page could not read it: ${e.message ?? e}`,
        };
      } finally {
        request?.destroy();
      }
    }
    return answers;
  };
  // One reading before "ready", of a host idna encodes: the modules both readings import on
  // first use (urllib.parse, urllib3.util, idna and its tables) are loaded now, not on the
  // student's first keystroke (15 ms to 35 ms here).
  read("http://ß.example:1/", null);
  return { parsers, read };
}

// Requests are answered in order, once Pyodide has started ("ready" comes first); none is
// answered when it could not start ("unavailable" instead).
const started = start().then(
  (reader) => {
    self.postMessage({ type: "ready", parsers: reader.parsers });
    return reader;
  },
  (e) => {
    self.postMessage({ type: "unavailable", why: `Pyodide did not start: ${e.message ?? e}` });
    return null;
  },
);
let queue = started;
self.onmessage = (event) => {
  const message = event.data;
  if (!message || message.type !== "read") return;
  queue = queue
    .then((reader) => {
      if (reader === null) return reader;
      const answers = reader.read(String(message.input), message.base == null ? null : String(message.base));
      self.postMessage({ type: "reading", id: message.id, answers });
      return reader;
    })
    // A request the worker could not answer must not keep the later ones from theirs.
    .catch((e) => {
      console.error(e);
      return started;
    });
};
