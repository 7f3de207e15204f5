// The page's Go reading: Go's net/url (url.Parse, then Hostname()), compiled to WebAssembly from
// the terminal's own adapter, assets/parsers/go.go, whose read() is the function called here
// (scripts/web-readings/go/build compiles it with page.go, which hands read() to JavaScript).
// It speaks the readings' worker protocol (web/readings/README.md): "ready" once the module
// runs, then one "reading" per "read", in order, each answer exactly `urlscope diff --json`'s
// `parsers.go`.
//
// The worker loads main.wasm.gz and wasm_exec.js (the JavaScript half of the Go runtime, from the
// Go installation that compiled the module: the two must come from the same Go) from its own
// folder. The module is gzipped on disk, so that a server that compresses nothing (python3 -m
// http.server) sends 0.7 MB rather than 2.9, and inflated here (DecompressionStream, as the
// page's engine). It starts as a classic or a module worker alike: wasm_exec.js, a plain script
// that sets globalThis.Go, is loaded with import(), which both kinds have.

const folder = new URL('./', self.location.href);
// Why the Go program ended, once it has (a panic): read() can no longer be called.
let exited = null;

// The Go runtime must run before the first request is read: messages that come earlier wait
// for it, each in turn, so that the answers keep the requests' order.
const started = start();

async function start() {
  await import(new URL('wasm_exec.js', folder).href);
  const go = new globalThis.Go();
  const instance = await WebAssembly.instantiate(await module(), go.importObject);
  // go.run resolves only when the Go program exits, which page.go never lets it do: it returns
  // (its promise pending) once page.go's init has set urlscopeGoRead and waits for calls.
  go.run(instance).then(() => {
    exited = 'the Go program exited';
  });
  const read = globalThis.urlscopeGoRead;
  if (typeof read !== 'function') throw new Error('the Go module did not register urlscopeGoRead');
  // Browsers compile a large module's functions when first called: a few readings now, before
  // "ready", take that cost off the first input typed (40 ms of it in Chromium).
  for (const request of [
    { input: 'http://user:pass@example.com:8080/a%20b?q#f', base: null },
    { input: '../c?d#e', base: 'https://example.com/a/b' },
    { input: 'http://example.com\\@evil.com', base: null },
    { input: 'http://[::1%25eth0]:80/', base: null },
  ]) read(JSON.stringify(request));
  return { read, version: globalThis.urlscopeGoVersion };
}

/// main.wasm.gz, inflated, and compiled as it inflates. A server that sends the file with
/// "Content-Encoding: gzip" has had it inflated by the browser already: the bytes then start
/// with WebAssembly's magic number rather than gzip's (1f 8b).
async function module() {
  const response = await fetch(new URL('main.wasm.gz', folder));
  if (!response.ok) throw new Error(`main.wasm.gz: ${response.status} ${response.statusText}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const body = gzipped ? new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')) : bytes;
  const wasm = new Response(body, { headers: { 'content-type': 'application/wasm' } });
  if (typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(wasm);
  return WebAssembly.compile(await wasm.arrayBuffer());
}

started.then(
  ({ version }) => {
    self.postMessage({
      type: 'ready',
      parsers: [{
        name: 'go',
        implementation: 'Go net/url (url.Parse, Hostname()) compiled to WebAssembly',
        version,
      }],
    });
  },
  (error) => self.postMessage({ type: 'unavailable', why: `Go's module did not start: ${error?.message ?? error}` }),
);

self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type !== 'read') return;
  let go;
  try {
    go = await started;
  } catch {
    return; // "unavailable" has said why.
  }
  self.postMessage({ type: 'reading', id: message.id, answers: { go: reading(go, message.input, message.base) } });
};

/// `urlscope diff --json`'s `parsers.go` for `input` (resolved against `base`, when a string):
/// the fields in diff's order, null where go.go leaves one out (a failure has only its error).
function reading(go, input, base) {
  const fields = ['scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];
  let answer;
  try {
    if (exited) throw new Error(exited);
    answer = JSON.parse(go.read(JSON.stringify({ input, base: typeof base === 'string' ? base : null })));
  } catch (error) {
    // A reading that could not be had, as diff reports an adapter that did not answer.
    const none = { available: false, version: go.version, failure: false, error: `the Go module failed: ${error?.message ?? error}` };
    for (const field of fields) none[field] = null;
    return none;
  }
  const out = { available: true, version: go.version, failure: answer.failure === true, error: answer.error ?? null };
  for (const field of fields) out[field] = answer[field] ?? null;
  return out;
}
