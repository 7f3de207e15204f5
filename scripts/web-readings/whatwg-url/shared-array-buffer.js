// whatwg-url's utils and webidl-conversions take SharedArrayBuffer.prototype's getters as they
// load (to tell a SharedArrayBuffer from an ArrayBuffer in Web IDL's buffer conversions,
// which the URL API never makes), but a page that is not cross-origin isolated has no global
// SharedArrayBuffer: loading them throws "SharedArrayBuffer is not defined"
// (jsdom/webidl-conversions#38, #57). The constructor still exists, hidden: a shared
// WebAssembly.Memory's buffer is one. It is put on the global while the packages load, and
// taken away again by `hide()` (reading.js calls it once they have loaded). Where even that
// memory cannot be made, no SharedArrayBuffer can exist in the worker, so a stand-in whose
// getters throw for every value (as the real ones throw for anything but a SharedArrayBuffer)
// answers the same.
const hidden = typeof globalThis.SharedArrayBuffer === "undefined";
if (hidden) {
  let constructor;
  try {
    constructor = new WebAssembly.Memory({ initial: 0, maximum: 0, shared: true }).buffer.constructor;
  } catch {
    const none = () => {
      throw new TypeError("not a SharedArrayBuffer: there is none in this worker");
    };
    constructor = class SharedArrayBuffer {
      get byteLength() { return none(); }
      get growable() { return none(); }
      get maxByteLength() { return none(); }
    };
  }
  globalThis.SharedArrayBuffer = constructor;
}

/// Takes away the global put here, as the browser hides it.
export function hide() {
  if (hidden) delete globalThis.SharedArrayBuffer;
}
