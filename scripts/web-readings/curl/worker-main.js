// The curl reading's Web Worker (the protocol: web/readings/README.md). Above this part, written
// by scripts/web-readings/curl/build: Emscripten's loader (`createCurlReading`) and `wasmGzip`,
// the module (libcurl's URL API and reading.c) gzipped, as base64. The module travels inside
// the script, as the engine's does: nothing is fetched.

const implementation = "libcurl's URL API (curl_url) compiled to WebAssembly with Emscripten";

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

/** An instance of the compiled module with Emscripten's runtime around it. */
function instantiate(compiled) {
  return createCurlReading({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance));
      return {};
    },
  });
}

function cString(m, pointer) {
  const heap = m.HEAPU8;
  let end = pointer;
  while (heap[end] !== 0) end += 1;
  return new TextDecoder().decode(heap.subarray(pointer, end));
}

/** Copies `bytes` into the module's memory with a NUL after them (libcurl reads C strings). */
function copyIn(m, bytes) {
  const pointer = m._malloc(bytes.length + 1);
  if (pointer === 0) throw new Error('out of memory');
  m.HEAPU8.set(bytes, pointer);
  m.HEAPU8[pointer + bytes.length] = 0;
  return pointer;
}

/**
 * reading.c's urlscope_curl_read on `input` and `base` (a string or null): the answer's JSON,
 * parsed. A JavaScript string is handed over as UTF-8 (a lone surrogate, which a command line
 * cannot carry, as U+FFFD); libcurl's bytes come back decoded as UTF-8 with U+FFFD for what is
 * not, as the terminal's reading decodes them (to_string_lossy).
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
    const lengthPointer = m._malloc(4);
    if (lengthPointer === 0) throw new Error('out of memory');
    pointers.push(lengthPointer);
    const answer = m._urlscope_curl_read(inputPointer, inputBytes.length, basePointer, baseBytes ? baseBytes.length : 0, lengthPointer);
    if (answer === 0) throw new Error('out of memory');
    pointers.push(answer);
    // The memory may have grown during the call: the views are read afresh.
    const length = new DataView(m.HEAPU8.buffer).getUint32(lengthPointer, true);
    return JSON.parse(new TextDecoder().decode(m.HEAPU8.subarray(answer, answer + length)));
  } finally {
    for (const pointer of pointers) m._free(pointer);
  }
}

let compiled = null;
let version = null;
let reading = (async () => {
  compiled = await compileModule();
  const m = await instantiate(compiled);
  version = cString(m, m._urlscope_curl_version());
  return m;
})();

reading.then(
  () => postMessage({ type: 'ready', parsers: [{ name: 'curl', implementation, version }] }),
  (error) => postMessage({ type: 'unavailable', why: `libcurl's module did not start: ${error && error.message ? error.message : error}` }),
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
    // Out of memory, or the module stopped (a trap): this input's answer says so, and the next
    // input is read by a fresh instance.
    answer = {
      available: true, version, failure: true, error: `libcurl's module failed: ${error && error.message ? error.message : error}`,
      scheme: null, username: null, password: null, host: null, port: null, path: null, query: null, fragment: null,
    };
    if (compiled) reading = instantiate(compiled);
  }
  postMessage({ type: 'reading', id: data.id, answers: { curl: answer } });
};
