// The curl reading's Web Worker (the protocol: web/readings/README.md). Above this part, written
// by scripts/web-readings/curl/build: Emscripten's loader (`createCurlReading`), `wasmGzip`, the
// module (libcurl's URL API and reading.c) gzipped, as base64, and ../module-worker.js. The
// module travels inside the script, as the engine's does: nothing is fetched.

serveModule({
  name: 'curl',
  what: "libcurl's module",
  implementation: () => "libcurl's URL API (curl_url) compiled to WebAssembly with Emscripten",
  /** An instance of the compiled module with Emscripten's runtime around it. */
  async instantiate(compiled) {
    const m = await createCurlReading({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance));
        return {};
      },
    });
    return {
      heap: () => m.HEAPU8,
      malloc: m._malloc,
      free: m._free,
      // reading.c's urlscope_curl_read: libcurl's bytes come back as the terminal's reading
      // takes them (to_string_lossy).
      read: m._urlscope_curl_read,
      version: m._urlscope_curl_version,
    };
  },
});
