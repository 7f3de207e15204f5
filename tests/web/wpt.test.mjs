// The web-platform-tests URL data run through the page's engine (urlscope compiled to
// WebAssembly) inside Chromium: every case of every suite that tests/wpt.rs runs natively, checked
// as it checks them (the drivers url-constructor.any.js with canParse and re-parse idempotence,
// url-setters.any.js, toascii.window.js, IdnaTestV2.window.js, percent-encoding.window.js). So the
// page's engine is the command line's.
import { readFileSync } from "node:fs";
import { launch, openPage, check } from "./browser.mjs";

const files = JSON.parse(process.env.URLSCOPE_WPT_FILES ?? "{}");
const suites = [
  ["urltestdata.json", "url"],
  ["urltestdata-javascript-only.json", "url"],
  ["setters_tests.json", "setters"],
  ["toascii.json", "toascii"],
  ["IdnaTestV2.json", "idna"],
  ["IdnaTestV2-removed.json", "idna"],
  ["percent-encoding.json", "percent"],
];

// Runs in the page: `kind` is the suite's driver, `text` its JSON. Returns how many cases ran and
// the failures (each a message naming the case).
function runSuite([kind, text]) {
  const engine = window.urlscope;
  const data = JSON.parse(text);
  const parse = (input, base, encoding) => JSON.parse(engine.parse(input, base ?? undefined, encoding));
  const set = (href, setter, value) => JSON.parse(engine.set(href, setter, value));
  const fields = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
  const failures = [];
  let cases = 0;
  const show = (s) => JSON.stringify(s);
  const eq = (problems, what, expected, actual) => {
    if (expected !== actual) problems.push(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  };
  const fail = (name, problems) => {
    if (problems.length > 0) failures.push(`${name}\n    ${problems.join("\n    ")}`);
  };
  if (kind === "url") {
    for (const c of data.filter((c) => typeof c !== "string")) {
      cases++;
      const problems = [];
      const url = parse(c.input, c.base);
      if (c.failure) {
        if (!url.failure) problems.push(`parse: expected failure, got href ${show(url.href)}`);
      } else if (url.failure) {
        problems.push(`parse: expected success, failed: ${url.error}`);
      } else {
        for (const name of fields) {
          if (name === "origin" && !("origin" in c)) continue;
          eq(problems, name, c[name], url[name]);
        }
        const again = parse(url.href);
        if (again.failure) problems.push(`idempotence: parse(${show(url.href)}) failed: ${again.error}`);
        else eq(problems, "idempotence: href of parse(href)", url.href, again.href);
      }
      const canParse = engine.canParse(c.input, c.base ?? undefined);
      if (canParse !== !c.failure) problems.push(`canParse: expected ${!c.failure}, got ${canParse}`);
      fail(`<${c.input}> against ${show(c.base ?? null)}`, problems);
    }
  } else if (kind === "setters") {
    for (const [setter, list] of Object.entries(data)) {
      if (setter === "comment") continue;
      for (const c of list.filter((c) => typeof c !== "string")) {
        cases++;
        const problems = [];
        const url = set(c.href, setter, c.new_value);
        if (url.failure) problems.push(`failed: ${url.error}`);
        else for (const [name, value] of Object.entries(c.expected)) eq(problems, name, value, url[name]);
        fail(`<${c.href}>.${setter} = ${show(c.new_value)}`, problems);
      }
    }
  } else if (kind === "toascii" || kind === "idna") {
    for (const c of data.filter((c) => typeof c !== "string")) {
      // IdnaTestV2.window.js: "cannot test empty string input through new URL()".
      if (kind === "idna" && c.input === "") continue;
      cases++;
      const problems = [];
      // IdnaTestV2.window.js percent-encodes the code points that would end the host.
      const input = kind === "idna" ? c.input.replace(/[:/?#\\]/g, (m) => "%" + m.charCodeAt(0).toString(16).toUpperCase()) : c.input;
      const href = `https://${input}/x`;
      const url = parse(href);
      if (c.output === null) {
        if (!url.failure) problems.push(`parse ${show(href)}: expected failure, got href ${show(url.href)}`);
      } else if (url.failure) {
        problems.push(`parse ${show(href)}: expected success, failed: ${url.error}`);
      } else {
        eq(problems, "parse: host", c.output, url.host);
        eq(problems, "parse: hostname", c.output, url.hostname);
        eq(problems, "parse: pathname", "/x", url.pathname);
        eq(problems, "parse: href", `https://${c.output}/x`, url.href);
      }
      for (const setter of ["host", "hostname"]) {
        const after = set("https://x/x", setter, input);
        eq(problems, `set_${setter}: host`, c.output ?? "x", after.host);
        eq(problems, `set_${setter}: hostname`, c.output ?? "x", after.hostname);
      }
      fail(`<${c.input}>`, problems);
    }
  } else if (kind === "percent") {
    for (const c of data.filter((c) => typeof c !== "string")) {
      const href = `https://doesnotmatter.invalid/?${c.input}#${c.input}`;
      for (const [label, expected] of Object.entries(c.output)) {
        cases++;
        const problems = [];
        const url = parse(href, null, label);
        if (url.failure) problems.push(`parse failed: ${url.error}`);
        else {
          // The fragment is always UTF-8; only the query uses the document's encoding.
          eq(problems, "hash", `#${c.output["utf-8"]}`, url.hash);
          eq(problems, "search", `?${expected}`, url.search);
        }
        fail(`<${c.input}> with encoding ${label}`, problems);
      }
    }
  }
  return { cases, failures };
}

// The number of cases tests/wpt.rs makes of a suite's data (its trials, the skipped empty IDNA
// input left out), counted here from the file, so that the browser ran every one.
function expectedCases(kind, data) {
  const entries = (list) => list.filter((c) => typeof c !== "string");
  switch (kind) {
    case "url":
      return entries(data).length;
    case "setters":
      return Object.entries(data)
        .filter(([k]) => k !== "comment")
        .reduce((n, [, list]) => n + entries(list).length, 0);
    case "toascii":
      return entries(data).length;
    case "idna":
      return entries(data).filter((c) => c.input !== "").length;
    case "percent":
      return entries(data).reduce((n, c) => n + Object.keys(c.output).length, 0);
  }
}

const { context, close } = await launch();
let failed = 0;
let total = 0;
try {
  const { page, errors } = await openPage(context);
  for (const [file, kind] of suites) {
    const path = files[file];
    check(path, `${file}: not found (tests/web.rs passes the files tests/wpt.rs finds)`);
    const text = readFileSync(path, "utf8");
    const expected = expectedCases(kind, JSON.parse(text));
    const { cases, failures } = await page.evaluate(runSuite, [kind, text]);
    check(cases === expected && cases > 0, `${file}: ran ${cases} cases of ${expected}`);
    total += cases;
    failed += failures.length;
    console.log(`${file}: ${cases - failures.length} of ${cases} passed in Chromium`);
    for (const f of failures.slice(0, 20)) console.log(`  FAILED ${f}`);
    if (failures.length > 20) console.log(`  … and ${failures.length - 20} more`);
  }
  check(errors.length === 0, `the page reported errors: ${errors.join("; ")}`);
} finally {
  await close();
}
console.log(`wpt in Chromium: ${total - failed} of ${total} cases passed`);
check(failed === 0, `${failed} cases failed`);
