// The page's whatwg-url reading, a Web Worker (bundled by ./build into readings/whatwg-url/worker.js;
// the protocol is web/readings/README.md's): the reference implementation of the URL Standard,
// read through its URL API exactly as the terminal's "node" reading reads Node's URL
// (assets/parsers/node.js's whatwg()), so that the two columns differ only where the
// implementations do.
import { hide } from "./shared-array-buffer.js";
import { URL } from "whatwg-url";
// The version whatwg-url's own package.json gives (esbuild keeps only this field).
import { version } from "whatwg-url/package.json";

hide();

const NAME = "whatwg-url";

function withoutColon(protocol) {
  return protocol.endsWith(":") ? protocol.slice(0, -1) : protocol;
}

function withoutPrefix(value, prefix) {
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

/// One reading: `new URL(input, base)`, then the URL API's getters, which are strings, empty
/// when absent (the API cannot say null). A throw is a failure with its message, as
/// `${e.code || e.name}: ${e.message}` (whatwg-url throws a TypeError without a code).
export function read(input, base) {
  let u;
  try {
    u = base === null || base === undefined ? new URL(input) : new URL(input, base);
  } catch (e) {
    return answer({ failure: true, error: `${e.code || e.name}: ${e.message}` });
  }
  return answer({
    failure: false,
    error: null,
    scheme: withoutColon(u.protocol),
    username: u.username,
    password: u.password,
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    query: withoutPrefix(u.search, "?"),
    fragment: withoutPrefix(u.hash, "#"),
  });
}

/// The object `urlscope diff --json` prints under `parsers.NAME`: every field present, null
/// where the reading gives none.
function answer(fields) {
  return {
    available: true,
    version,
    failure: false,
    error: null,
    scheme: null,
    username: null,
    password: null,
    host: null,
    port: null,
    path: null,
    query: null,
    fragment: null,
    ...fields,
  };
}

if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  self.onmessage = (event) => {
    const message = event.data;
    if (message === null || typeof message !== "object" || message.type !== "read") return;
    let result;
    try {
      result = read(String(message.input), message.base === null || message.base === undefined ? null : String(message.base));
    } catch (e) {
      // Not a throw of the URL constructor (that is a failure above): say so rather than hang.
      result = { available: false, version, error: `the reading stopped: ${e && e.message}` };
    }
    self.postMessage({ type: "reading", id: message.id, answers: { [NAME]: result } });
  };
  self.postMessage({
    type: "ready",
    parsers: [{ name: NAME, implementation: `whatwg-url ${version} (the URL Standard's reference implementation)`, version }],
  });
}
