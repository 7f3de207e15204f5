// Reads {"input", "base"} lines and answers each with what the reference implementation of the
// URL Standard (whatwg-url) gives: the href or failure, the validation errors in order, and
// whether the input is a valid URL string against the base.
"use strict";
const w = require("whatwg-url");
const { version } = require("whatwg-url/package.json");
const readline = require("readline");

process.stdout.write(JSON.stringify({ version }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", line => {
  const { input, base } = JSON.parse(line);
  let baseURL = null;
  if (base !== null) {
    baseURL = w.parseURL(base);
    if (baseURL === null) {
      process.stdout.write(JSON.stringify({ baseFailure: true }) + "\n");
      return;
    }
  }
  const { url, validationErrors } = w.parseURLWithValidationErrors(input, { baseURL });
  process.stdout.write(JSON.stringify({
    href: url === null ? null : w.serializeURL(url),
    errors: validationErrors,
    writingValid: w.isValidURLString(input, { baseURL })
  }) + "\n");
});
