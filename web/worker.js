// The engine's thread: the page posts the compiled WebAssembly module once, then each screen
// it wants ({id, input, base, step}); a long input parses here, never on the page's thread.
// The worker fetches nothing but itself: the module comes from the page, and scripts/build-web
// puts wasm-bindgen's glue in place of the import below (a worker has a module map of its own:
// the import fetched pkg/urlscope_web.js a second time). Unbuilt, the import works as it is.
import { initSync, screen } from './pkg/urlscope_web.js';

// Past this many UTF-16 code units a value is cut, as app.js's `cut` cuts what it shows: in a
// row of the Trace (ROW_MAX), in the step's detail (SHOWN_MAX).
const SHOWN_MAX = 4096;
const ROW_MAX = 256;

function cut(value, max) {
  if (value.length <= max) return value;
  let end = max;
  if (/[\ud800-\udbff]/.test(value[end - 1])) end -= 1;
  return `${value.slice(0, end)}… (${value.length - end} more UTF-16 code units)`;
}

/// Every string in `node` (arrays and objects, walked) cut at `max`.
function trim(node, max) {
  if (typeof node === 'string') return cut(node, max);
  if (Array.isArray(node)) return node.map((item) => trim(item, max));
  if (node !== null && typeof node === 'object') {
    for (const key of Object.keys(node)) node[key] = trim(node[key], max);
  }
  return node;
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.module) {
    initSync({ module: message.module });
    self.postMessage({ ready: true });
    return;
  }
  const started = performance.now();
  try {
    const answer = JSON.parse(screen(message.input, message.base, message.step));
    // The Trace's values are cut here, off the page's thread: a buffer holds up to the whole
    // input, and a 1 MB input's window of 101 rows was 100 MB for the page to parse and draw.
    answer.rows = trim(answer.rows, ROW_MAX);
    answer.detail = trim(answer.detail, SHOWN_MAX);
    answer.trimmed = true;
    self.postMessage({ id: message.id, screen: answer, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id: message.id, error: String(error) });
  }
};
