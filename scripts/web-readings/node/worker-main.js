// The node reading's Web Worker (the protocol: web/readings/README.md). Above this part, written
// by scripts/web-readings/node/build: `wasmGzip`, the module (Ada and reading.cpp, a WASI
// reactor) gzipped, as base64, and ../module-worker.js. The module travels inside the script:
// nothing is fetched.

serveModule({
  name: 'node',
  what: "Ada's module",
  implementation: (version) => `Ada ${version} (Node's URL parser) compiled to WebAssembly`,
  /**
   * An instance. The module imports three WASI calls, reached only on the way to abort() (a
   * message to standard error): there is no file here, so each says ENOSYS (52), and the abort
   * that follows traps. reading.cpp's urlscope_node_read hands Ada the UTF-8 as Node hands it a
   * string (a lone surrogate as U+FFFD).
   */
  async instantiate(compiled) {
    const nosys = () => 52;
    const instance = await WebAssembly.instantiate(compiled, {
      wasi_snapshot_preview1: { fd_close: nosys, fd_seek: nosys, fd_write: nosys },
    });
    const m = instance.exports;
    m._initialize();
    return {
      heap: () => new Uint8Array(m.memory.buffer),
      malloc: m.malloc,
      free: m.free,
      read: m.urlscope_node_read,
      version: m.urlscope_node_version,
    };
  },
});
