// Holds idna.wasm (ada::idna::to_ascii compiled by ./build) to the toASCII of the Node that runs
// this, internalBinding('encoding_binding').toASCII, which url.parse calls: on domains made from
// a fixed seed of the pieces IDNA implementations part on, and a few named ones. Run by ./build
// with --expose-internals:
//
//   node --expose-internals check-idna.cjs IDNA_WASM
//
// Prints how many domains it compared; exits 1 saying where they differ (the same ada version
// with a patch of Node's own would show here).
'use strict';
const fs = require('node:fs');
process.noDeprecation = true;
process.removeAllListeners('warning');
const { internalBinding } = require('internal/test/binding');
const native = internalBinding('encoding_binding').toASCII;

const compiledModule = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
const { exports: idna } = new WebAssembly.Instance(compiledModule, {
  env: { emscripten_notify_memory_growth() {} },
  wasi_snapshot_preview1: { proc_exit(code) { throw new Error(`exit ${code}`); } },
});
idna._initialize();
const encoder = new TextEncoder();
const decoder = new TextDecoder();
function compiled(domain) {
  const bytes = encoder.encode(domain);
  const at = idna.input_buffer(bytes.length);
  new Uint8Array(idna.memory.buffer, at, bytes.length).set(bytes);
  const length = idna.to_ascii();
  return decoder.decode(new Uint8Array(idna.memory.buffer, idna.output_buffer(), length));
}

const named = ['example.com', 'faß.de', 'BÜCHER.de', 'xn--a', 'a..b', '', '.', '\uD800.com', 'аррӏе.com',
  '例え.テスト', 'ＥＸＡＭＰＬＥ．ｃｏｍ', 'a\u200Db', 'xn--ls8h', '😀', '0x7f.1', 'a%41', 'x'.repeat(300),
  'ab--c', '-a', 'a-', '\u0640', 'ß'.repeat(70), 'xn--fa-hia.de', 'XN--FA-HIA.DE', 'a\u00ADb', 'a b'];
const pieces = ['a', 'B', 'xn--', 'ß', 'ς', '\u200D', '\u200C', '\u00AD', '０', '。', '．', '①', 'İ', 'ǅ',
  '😀', 'א', 'ب', '-', '1', '.', 'ö', 'Ⅸ', '\u0301', 'ﬀ', '\u0640', 'ー', '\uFFFD', 'Σ', 'ﾟ', 'com'];
let seed = 0x2545f491;
const next = (n) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
};
const domains = [...named];
for (let i = 0; i < 20000; i++) {
  domains.push(Array.from({ length: 1 + next(8) }, () => pieces[next(pieces.length)]).join(''));
}
const differ = domains.filter((d) => native(d) !== compiled(d));
if (differ.length > 0) {
  const [first] = differ;
  process.stderr.write(`ada's IDNA compiled here differs from node ${process.versions.node}'s toASCII on ` +
    `${differ.length} of ${domains.length} domains: ${JSON.stringify(first)} is ${JSON.stringify(native(first))} ` +
    `to node, ${JSON.stringify(compiled(first))} here\n`);
  process.exit(1);
}
process.stdout.write(`${domains.length}\n`);
