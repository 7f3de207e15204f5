// The node reading's Web Worker (the protocol: web/readings/README.md). Above this part, written
// by scripts/web-readings/node/build: `wasmGzip`, the module (Ada and reading.cpp, a WASI
// reactor) gzipped, as base64. The module travels inside the script: nothing is fetched.

const implementation = (version) => `Ada ${version} (Node's URL parser) compiled to WebAssembly`;

/** The module, compiled once: the browser inflates the gzip (DecompressionStream). */
async function compileModule() {
  const gzipped = typeof Uint8Array.fromBase64 === 'function' ? Uint8Array.fromBase64(wasmGzip) : decode(wasmGzip);
  const wasm = new Response(gzipped).body.pipeThrough(new DecompressionStream('gzip'));
  return WebAssembly.compile(await new Response(wasm).arrayBuffer());
}

function decode(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * An instance. The module imports three WASI calls, reached only on the way to abort() (a
 * message to standard error): there is no file here, so each says ENOSYS (52), and the abort
 * that follows traps.
 */
async function instantiate(compiled) {
  const nosys = () => 52;
  const instance = await WebAssembly.instantiate(compiled, {
    wasi_snapshot_preview1: { fd_close: nosys, fd_seek: nosys, fd_write: nosys },
  });
  instance.exports._initialize();
  return instance.exports;
}

function cString(m, pointer) {
  const heap = new Uint8Array(m.memory.buffer);
  let end = pointer;
  while (heap[end] !== 0) end += 1;
  return new TextDecoder().decode(heap.subarray(pointer, end));
}

/** Copies `bytes` into the module's memory. */
function copyIn(m, bytes) {
  const pointer = m.malloc(bytes.length + 1);
  if (pointer === 0) throw new Error('out of memory');
  const heap = new Uint8Array(m.memory.buffer);
  heap.set(bytes, pointer);
  heap[pointer + bytes.length] = 0;
  return pointer;
}

/**
 * reading.cpp's urlscope_node_read on `input` and `base` (a string or null): the answer's JSON,
 * parsed. A JavaScript string is handed over as UTF-8, a lone surrogate as U+FFFD, as Node
 * hands a string to Ada.
 */
function read(m, input, base) {
  const encoder = new TextEncoder();
  const inputBytes = encoder.encode(input);
  const baseBytes = base === null ? null : encoder.encode(base);
  const pointers = [];
  try {
    const inputPointer = copyIn(m, inputBytes);
    pointers.push(inputPointer);
    const basePointer = baseBytes === null ? 0 : copyIn(m, baseBytes);
    if (basePointer) pointers.push(basePointer);
    const lengthPointer = m.malloc(4);
    if (lengthPointer === 0) throw new Error('out of memory');
    pointers.push(lengthPointer);
    const answer = m.urlscope_node_read(inputPointer, inputBytes.length, basePointer, baseBytes ? baseBytes.length : 0, lengthPointer);
    if (answer === 0) throw new Error('out of memory');
    pointers.push(answer);
    // The memory may have grown during the call: the views are made afresh.
    const length = new DataView(m.memory.buffer).getUint32(lengthPointer, true);
    return JSON.parse(new TextDecoder().decode(new Uint8Array(m.memory.buffer, answer, length)));
  } finally {
    for (const pointer of pointers) m.free(pointer);
  }
}

let compiled = null;
let version = null;
let reading = (async () => {
  compiled = await compileModule();
  const m = await instantiate(compiled);
  version = cString(m, m.urlscope_node_version());
  return m;
})();

reading.then(
  () => postMessage({ type: 'ready', parsers: [{ name: 'node', implementation: implementation(version), version }] }),
  (error) => postMessage({ type: 'unavailable', why: `Ada's module did not start: ${error && error.message ? error.message : error}` }),
);

// Requests are answered in order: each awaits the same instance, and a handler's await resolves
// in the order the messages came.
self.onmessage = async ({ data }) => {
  if (!data || data.type !== 'read') return;
  let answer;
  try {
    const m = await reading;
    answer = read(m, String(data.input), data.base === null || data.base === undefined ? null : String(data.base));
  } catch (error) {
    // Out of memory, or the module trapped: this input's answer says so, and the next input is
    // read by a fresh instance.
    answer = {
      available: true, version, failure: true, error: `Ada's module failed: ${error && error.message ? error.message : error}`,
      scheme: null, username: null, password: null, host: null, port: null, path: null, query: null, fragment: null,
    };
    if (compiled) reading = instantiate(compiled);
  }
  postMessage({ type: 'reading', id: data.id, answers: { node: answer } });
};
