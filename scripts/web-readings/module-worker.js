// What a reading compiled from C or C++ to one WebAssembly module needs in its Web Worker (the
// protocol: web/readings/README.md), shared by curl/ and node/: their builds write this file into
// worker.js after `wasmGzip` (the module gzipped, as base64) and before the reading's own
// worker-main.js, which calls `serveModule` with what differs: the module's instance and the
// names of its two functions.

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
 * Serves the reading `name` from the module. `instantiate(compiled)` gives (or promises) an
 * instance as `{ heap(), malloc, free, read, version }`: `heap()` the memory's bytes as they are
 * now (the memory may grow during a call), `read(input, inputLength, base, baseLength,
 * lengthPointer)` the glue's reading (a pointer to its JSON, its length written at
 * `lengthPointer`, 0 when out of memory), `version()` a pointer to the version's C string.
 * `implementation(version)` names what runs; `what` names the module in messages.
 */
function serveModule({ name, what, implementation, instantiate }) {
  let compiled = null;
  let version = null;
  let reading = (async () => {
    compiled = await compileModule();
    const m = await instantiate(compiled);
    version = cString(m, m.version());
    return m;
  })();

  reading.then(
    () => postMessage({ type: 'ready', parsers: [{ name, implementation: implementation(version), version }] }),
    (error) => postMessage({ type: 'unavailable', why: `${what} did not start: ${error && error.message ? error.message : error}` }),
  );

  // Requests are answered in order: each awaits the same instance, and a handler's await
  // resolves in the order the messages came.
  self.onmessage = async ({ data }) => {
    if (!data || data.type !== 'read') return;
    let answer;
    try {
      const m = await reading;
      answer = read(m, String(data.input), data.base === null || data.base === undefined ? null : String(data.base));
    } catch (error) {
      // Out of memory, or the module trapped: this input's answer says so, and the next input
      // is read by a fresh instance.
      answer = {
        available: true, version, failure: true, error: `${what} failed: ${error && error.message ? error.message : error}`,
        scheme: null, username: null, password: null, host: null, port: null, path: null, query: null, fragment: null,
      };
      if (compiled) reading = instantiate(compiled);
    }
    postMessage({ type: 'reading', id: data.id, answers: { [name]: answer } });
  };
}

function cString(m, pointer) {
  const heap = m.heap();
  let end = pointer;
  while (heap[end] !== 0) end += 1;
  return new TextDecoder().decode(heap.subarray(pointer, end));
}

/** Copies `bytes` into the module's memory with a NUL after them (the glue reads C strings). */
function copyIn(m, bytes) {
  const pointer = m.malloc(bytes.length + 1);
  if (pointer === 0) throw new Error('out of memory');
  const heap = m.heap();
  heap.set(bytes, pointer);
  heap[pointer + bytes.length] = 0;
  return pointer;
}

/**
 * The glue's reading of `input` and `base` (a string or null): the answer's JSON, parsed. A
 * JavaScript string is handed over as UTF-8 (a lone surrogate, which a command line cannot
 * carry, as U+FFFD); the bytes come back decoded as UTF-8 with U+FFFD for what is not, as the
 * terminal's reading decodes them.
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
    const answer = m.read(inputPointer, inputBytes.length, basePointer, baseBytes ? baseBytes.length : 0, lengthPointer);
    if (answer === 0) throw new Error('out of memory');
    pointers.push(answer);
    const heap = m.heap();
    const length = new DataView(heap.buffer).getUint32(lengthPointer, true);
    return JSON.parse(new TextDecoder().decode(heap.subarray(answer, answer + length)));
  } finally {
    for (const pointer of pointers) m.free(pointer);
  }
}
