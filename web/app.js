// The page's engine is urlscope compiled to WebAssembly (crates/urlscope-web, built into pkg/ by
// scripts/build-web). Every value reaches the DOM as text (textContent), never as markup.
import init, * as engine from "./pkg/urlscope_web.js";
// The module's bytes come in a script: the Content-Security-Policy allows no fetch.
import { wasmBytes } from "./pkg/urlscope_web_bg.wasm.js";

const input = document.getElementById("input");
const base = document.getElementById("base");
const href = document.getElementById("href");
const status = document.getElementById("status");

function update() {
  const model = JSON.parse(engine.parse(input.value, base.value === "" ? undefined : base.value));
  if (model.failure) {
    href.textContent = "";
    status.textContent = `Not a URL: ${model.error}`;
  } else {
    href.textContent = model.href;
    status.textContent = "";
  }
}

// Loaded with the page's scripts; nothing is requested after load.
await init({ module_or_path: wasmBytes() });
// For the browser tests (tests/web/*.test.mjs) and the console: the engine's functions.
window.urlscope = engine;
input.addEventListener("input", update);
base.addEventListener("input", update);
status.textContent = `urlscope ${engine.version()}`;
document.documentElement.dataset.engine = "ready";
if (input.value !== "") update();
