// Writes the page's node-legacy worker (scripts/web-readings/node-legacy/build runs it with the
// Node whose url.parse the terminal's node-legacy reading runs):
//
//   node assemble.mjs OUT_WORKER_JS ADA_VERSION
//
// The worker holds, as text, this Node's own lib/url.js and the modules url.parse and
// url.resolve run (querystring, internal/querystring, internal/constants, and the primordials
// they are written against), taken from the Node binary itself, which embeds its lib/ sources;
// and the terminal's own reading of them, assets/parsers/node.js's legacy(). The one native
// function on their path, internalBinding('encoding_binding').toASCII, is ada::idna::to_ascii in
// Node (src/encoding_binding.cc): the worker calls the same ada, compiled to idna.wasm beside it.
// The rest of what lib/url.js requires is used only off that path (URL objects, format of an
// object, warnings, errors for a non-string): stand-ins here, which throw if ever reached, save
// the errors url.parse throws, whose messages are Node's own, taken from lib/internal/errors.js.
//
// Exits 1 with the reason on standard error when this Node's sources are not what this file
// knows how to assemble (a module required that is not supplied, a piece not found, another
// ada), so that the build says the reading is unavailable rather than build another reading.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const [out, adaVersion] = process.argv.slice(2);

function fail(why) {
  process.stderr.write(`${why}\n`);
  process.exit(1);
}

if (process.versions.ada !== adaVersion) {
  fail(`node ${process.versions.node} bundles ada ${process.versions.ada}, and the ada source here is ${adaVersion}`);
}

// The sources Node embeds (its BuiltinModule ids: lib/url.js is "url").
let natives;
process.noDeprecation = true;
try {
  natives = process.binding('natives');
} catch (e) {
  fail(`node ${process.versions.node} does not give its lib/ sources (process.binding('natives')): ${e.message}`);
}
const source = (id) => natives[id] ?? fail(`node ${process.versions.node} embeds no ${id}`);

// Node's own modules, run as Node runs them (its builtin wrapper's parameters).
const MODULES = ['url', 'querystring', 'internal/querystring', 'internal/constants'];
// What else they require or bind, and what stands in for it.
const SUPPLIED = new Set([...MODULES, 'internal/errors', 'internal/validators', 'internal/util',
  'internal/url', 'internal/options', 'buffer']);
const BINDINGS = new Set(['encoding_binding', 'url']);
for (const id of MODULES) {
  const text = source(id);
  for (const [, wanted] of text.matchAll(/\brequire\('([^']+)'\)/g)) {
    if (!SUPPLIED.has(wanted)) fail(`node ${process.versions.node}'s ${id} requires ${wanted}, which this build does not supply`);
  }
  for (const [, wanted] of text.matchAll(/\binternalBinding\('([^']+)'\)/g)) {
    if (!BINDINGS.has(wanted)) fail(`node ${process.versions.node}'s ${id} binds ${wanted}, which this build does not supply`);
  }
}
const url = source('url');
if (!/const \{ toASCII \} = internalBinding\('encoding_binding'\);/.test(url)) {
  fail(`node ${process.versions.node}'s lib/url.js does not take toASCII from encoding_binding`);
}

/// The first match of `pattern` in Node's module `id`, verbatim.
function piece(id, pattern, what) {
  const match = source(id).match(pattern);
  if (!match) fail(`node ${process.versions.node}'s ${id} has no ${what}`);
  return match[0];
}
/// An error of lib/internal/errors.js: its message (a string or a function, verbatim) and class.
function error(code) {
  const definition = piece('internal/errors', new RegExp(`\\nE\\('${code}',[\\s\\S]*?, (TypeError|URIError)\\);`), code);
  const [, message, base] = definition.match(/^\nE\('[A-Z_]+',\s*([\s\S]*), (TypeError|URIError)\);$/);
  return `${code}: nodeError('${code}', ${base}, ${message})`;
}

const protocols = ['unsafeProtocol', 'hostlessProtocol', 'slashedProtocol']
  .map((name) => piece('internal/url', new RegExp(`const ${name} = new SafeSet\\(\\[[^\\]]*\\]\\);`), name));
const spliceOne = piece('internal/util', /function spliceOne\(list, index\) \{\n[\s\S]*?\n\}\n/, 'spliceOne');

// The terminal's reading, assets/parsers/node.js's legacy() and what it calls, verbatim.
const adapter = fs.readFileSync(path.join(repo, 'assets', 'parsers', 'node.js'), 'utf8');
const reading = ['withoutColon', 'withoutPrefix', 'legacy'].map((name) => {
  const match = adapter.match(new RegExp(`^function ${name}\\([^)]*\\) \\{\\n[\\s\\S]*?\\n\\}\\n`, 'm'));
  return match ? match[0] : fail(`assets/parsers/node.js has no function ${name}`);
});

const wrap = (id) => `  ${JSON.stringify(id)}: function (exports, require, module, process, internalBinding, primordials) {\n${source(id)}\n  },`;
const version = process.version.replace(/^v/, '');
const implementation = `Node ${version}'s url.parse (its lib/url.js, with ada ${adaVersion}'s IDNA compiled to WebAssembly)`;

const worker = `// The page's node-legacy reading, written by scripts/web-readings/node-legacy/assemble.mjs from
// node ${version}: its lib/url.js and the modules url.parse runs, verbatim as that Node embeds
// them, read by the terminal's assets/parsers/node.js legacy(), with ada ${adaVersion}'s
// ada::idna::to_ascii (Node's internalBinding('encoding_binding').toASCII) from idna.wasm.
// It speaks the readings' worker protocol (web/readings/README.md). Node's sources keep their
// licence (Node.js's, MIT: LICENSES.txt beside this file).
'use strict';
const VERSION = ${JSON.stringify(version)};
const IMPLEMENTATION = ${JSON.stringify(implementation)};
const folder = new URL('./', self.location.href);

// ada::idna::to_ascii, as Node calls it: on the UTF-8 of the string (a lone surrogate becomes
// U+FFFD, as in Node's Utf8Value), giving "" where the domain is not valid.
let idna = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
function toASCII(domain) {
  const bytes = encoder.encode(domain);
  const at = idna.input_buffer(bytes.length);
  new Uint8Array(idna.memory.buffer, at, bytes.length).set(bytes);
  const length = idna.to_ascii();
  return decoder.decode(new Uint8Array(idna.memory.buffer, idna.output_buffer(), length));
}

// Node's primordials (lib/internal/per_context/primordials.js): the builtins its lib/ is
// written against.
const primordials = {};
(function (exports, primordials, privateSymbols, perIsolateSymbols) {
${source('internal/per_context/primordials')}
})({}, primordials, {}, {});

const { SafeSet } = primordials;
function offThePath(what) {
  return function () {
    throw new Error(\`\${what} is not part of the page's node-legacy reading\`);
  };
}
// Node's errors (lib/internal/errors.js's makeNodeErrorWithCode): an instance of the class, its
// message from the definition, its code.
function nodeError(code, Base, message) {
  return class NodeError extends Base {
    constructor(...args) {
      super();
      const text = typeof message === 'function' ? message.apply(this, args) : message;
      Object.defineProperty(this, 'message', { value: text, enumerable: false, writable: true, configurable: true });
      this.code = code;
    }
  };
}
const standIns = {
  'internal/errors': {
    codes: {
      ${error('ERR_INVALID_URL')},
      ${error('ERR_INVALID_URI')},
      // Thrown for an argument that is not a string or object: the reading passes strings.
      ERR_INVALID_ARG_TYPE: nodeError('ERR_INVALID_ARG_TYPE', TypeError, (name, expected) => \`The "\${name}" argument must be of type \${expected}\`),
    },
  },
  'internal/validators': {
    validateString(value, name) {
      if (typeof value !== 'string') throw new standIns['internal/errors'].codes.ERR_INVALID_ARG_TYPE(name, 'string', value);
    },
    validateObject: offThePath('validateObject (url.format of an object with options)'),
  },
  'internal/util': {
    spliceOne: (() => {
${spliceOne}
      return spliceOne;
    })(),
  },
  'internal/url': (() => {
${protocols.join('\n')}
    class URL {
      constructor() { offThePath('the WHATWG URL class (the node reading)')(); }
    }
    const fail = offThePath('the WHATWG URL API');
    return { URL, URLSearchParams: URL, domainToASCII: fail, domainToUnicode: fail, fileURLToPath: fail,
      pathToFileURL: fail, urlToHttpOptions: fail, unsafeProtocol, hostlessProtocol, slashedProtocol };
  })(),
  // Node's default: no --pending-deprecation.
  'internal/options': {
    getOptionValue(name) {
      if (name !== '--pending-deprecation') offThePath(\`the option \${name}\`)();
      return false;
    },
  },
  // querystring.unescapeBuffer's, which url.parse does not call (no parseQueryString).
  buffer: { Buffer: new Proxy({}, { get: offThePath('Buffer') }) },
};
const bindings = {
  encoding_binding: { toASCII: (domain) => toASCII(domain) },
  url: { format: offThePath("the url binding's format (url.format of a URL object)") },
};
// The terminal's adapter sets process.noDeprecation: url.parse's warnings (DEP0169, DEP0170)
// are not a reading.
const nodeProcess = { emitWarning() {} };

const sources = {
${MODULES.map(wrap).join('\n')}
};
const loaded = new Map();
function require(id) {
  if (Object.hasOwn(standIns, id)) return standIns[id];
  if (loaded.has(id)) return loaded.get(id).exports;
  const module = { exports: {} };
  loaded.set(id, module);
  sources[id].call(undefined, module.exports, require, module, nodeProcess,
    (name) => bindings[name], primordials);
  return module.exports;
}

// The terminal's reading (assets/parsers/node.js), verbatim.
let url;
${reading.join('\n')}
const FIELDS = ['failure', 'error', 'scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];

/// What \`urlscope diff --json\` prints under parsers["node-legacy"]: the adapter's answer, a
/// missing field null.
function answer(input, base) {
  const reading = legacy({ input, base });
  const out = { available: true, version: VERSION };
  for (const field of FIELDS) out[field] = reading[field] ?? null;
  return out;
}

const started = (async () => {
  const imports = {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: { proc_exit(code) { throw new Error(\`ada's IDNA stopped (exit \${code})\`); } },
  };
  const response = fetch(new URL('idna.wasm', folder));
  const { instance } = typeof WebAssembly.instantiateStreaming === 'function'
    ? await WebAssembly.instantiateStreaming(response, imports)
    : await WebAssembly.instantiate(await (await response).arrayBuffer(), imports);
  idna = instance.exports;
  idna._initialize();
  url = require('url');
})();

// Requests that come before the module runs wait for it, each in turn, keeping their order.
let queue = started;
self.onmessage = (event) => {
  const message = event.data;
  if (message === null || typeof message !== 'object' || message.type !== 'read') return;
  queue = queue.then(() => {
    let result;
    try {
      result = answer(String(message.input), message.base === null || message.base === undefined ? null : String(message.base));
    } catch (e) {
      result = { available: false, version: VERSION, error: \`the reading stopped: \${e && e.message}\` };
    }
    self.postMessage({ type: 'reading', id: message.id, answers: { 'node-legacy': result } });
  }, () => {});
};
started.then(
  () => self.postMessage({ type: 'ready', parsers: [{ name: 'node-legacy', implementation: IMPLEMENTATION, version: VERSION }] }),
  (e) => self.postMessage({ type: 'unavailable', why: \`ada's IDNA (idna.wasm) did not load: \${e && e.message}\` }),
);
`;
fs.writeFileSync(out, worker);
