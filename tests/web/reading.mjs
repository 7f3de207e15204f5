// What the scripts that hold a page's reading to the terminal's share (reading-*.test.mjs): the
// diff corpus's inputs, the terminal's readings of a list of requests through `urlscope diff
// --json`, and the percentile of timings they report.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/// The rows of tests/data/diff_corpus.jsonl that hold an input (its first line holds the
/// versions it was recorded with).
export const corpus = fs.readFileSync(path.join(repo, 'tests', 'data', 'diff_corpus.jsonl'), 'utf8')
  .split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line))
  .filter((row) => typeof row.input === 'string');

/// A request's key in the maps of readings: its base and input.
export const key = ({ input, base }) => JSON.stringify([base, input]);

/// `urlscope diff --json --parsers PARSERS`'s `parsers` object for each of `requests` ({input,
/// base}), by key: one run per base, over standard input (split at "\n" only, so a CR stays in
/// its input; no input may hold a "\n"). The command line is $URLSCOPE_BIN (tests/web.rs sets
/// it), else the debug build's.
export function diffReadings(requests, parsers) {
  const bin = process.env.URLSCOPE_BIN ?? path.join(repo, 'target', 'debug', 'urlscope');
  assert.ok(fs.existsSync(bin), `no urlscope command line at ${bin} (URLSCOPE_BIN)`);
  const readings = new Map();
  for (const base of new Set(requests.map((r) => r.base))) {
    const inputs = requests.filter((r) => r.base === base).map((r) => r.input);
    assert.ok(inputs.every((input) => !input.includes('\n')), 'an input holds a newline');
    const args = ['diff', '--json', '--quiet', '--parsers', parsers, ...(base === null ? [] : ['--base', base]), '-'];
    // One parser alone is "nothing to compare", and parsers that disagree exit 1: the JSON is
    // there all the same.
    const run = spawnSync(bin, args, { input: inputs.map((i) => `${i}\n`).join(''), encoding: 'utf8', maxBuffer: 64 << 20 });
    const lines = run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    assert.equal(lines.length, inputs.length, `urlscope ${args.join(' ')}: ${lines.length} lines for ${inputs.length} inputs\n${run.stderr}`);
    lines.forEach((line, i) => {
      assert.equal(line.input, inputs[i]);
      readings.set(key({ input: inputs[i], base }), line.parsers);
    });
  }
  return readings;
}

/// [`diffReadings`] of the one parser `name`: its answer for each request, by key.
export function diffReading(requests, name) {
  return new Map([...diffReadings(requests, name)].map(([k, parsers]) => [k, parsers[name]]));
}

/// The `p` percentile (0 to 1) of the ascending `sorted`.
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/// Whether the page has no reading `name` built into it (readings/NAME/unavailable.txt says
/// why, in place of its worker.js): the test `t` then says it skipped, with the reason, unless
/// URLSCOPE_REQUIRE_BROWSER=1, where it fails. `root` is the served page's address.
export async function notBuilt(t, root, name) {
  if ((await fetch(`${root}readings/${name}/worker.js`)).ok) return false;
  const why = await fetch(`${root}readings/${name}/unavailable.txt`);
  assert.ok(why.ok, `the page has neither readings/${name}/worker.js nor readings/${name}/unavailable.txt`);
  const reason = (await why.text()).trim();
  assert.ok(process.env.URLSCOPE_REQUIRE_BROWSER !== '1', `the page has no ${name} reading (URLSCOPE_REQUIRE_BROWSER=1): ${reason}`);
  t.skip(`the page has no ${name} reading: ${reason}`);
  return true;
}

/// `count` URLs whose hosts are made of the pieces IDNA implementations part on (deviation
/// characters, joiners, a soft hyphen, full-width digits and dots, Punycode prefixes,
/// right-to-left letters, case, digits), from a fixed seed: the same inputs on every run.
export function generatedHosts(count) {
  const pieces = ['a', 'B', 'xn--', 'ß', 'ς', '\u200D', '\u200C', '\u00AD', '０', '。', '．', '①', 'İ', 'ǅ', '😀',
    'א', 'ب', '-', '1', '0x', '.', '%41', 'ö', 'Ⅸ', '\u0301', 'ﬀ', 'example', 'com'];
  let seed = 0x9e3779b9;
  const next = (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
  return Array.from({ length: count }, () => {
    const host = Array.from({ length: 1 + next(6) }, () => pieces[next(pieces.length)]).join('');
    return `http://${host}/`;
  });
}
