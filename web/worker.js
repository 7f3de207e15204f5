// The engine's thread: the page posts the compiled WebAssembly module once, then each screen
// it wants ({id, input, base, step}); a long input parses here, never on the page's thread.
// The worker fetches nothing: the module comes from the page.
import { initSync, screen } from './pkg/urlscope_web.js';

self.onmessage = (event) => {
  const message = event.data;
  if (message.module) {
    initSync({ module: message.module });
    self.postMessage({ ready: true });
    return;
  }
  const started = performance.now();
  try {
    const json = screen(message.input, message.base, message.step);
    self.postMessage({ id: message.id, json, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id: message.id, error: String(error) });
  }
};
