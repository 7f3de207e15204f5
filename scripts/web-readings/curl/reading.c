/*
 * urlscope's curl reading, in C: what src/diff/libcurl.rs does through crates/curl-urlapi, over
 * libcurl's URL API compiled from the source curl-sys carries. scripts/web-readings/curl/build
 * compiles it with Emscripten for the page (readings/curl/worker.js calls urlscope_curl_read)
 * and, with `--native`, with the system's C compiler into a command (native.c) that the browser
 * test compares the page with: the same code and the same libcurl, run natively.
 *
 * The reading, step for step as src/diff/libcurl.rs:
 *   - curl_url(), then curl_url_set(CURLUPART_URL, input, CURLU_NON_SUPPORT_SCHEME) and no
 *     other flag; with a base, the base is set first and the input set on the same handle,
 *     which resolves it as libcurl follows a redirect;
 *   - then curl_url_get of scheme, user, password, host, port, path, query and fragment with
 *     no flags: CURLUE_NO_SCHEME .. CURLUE_NO_ZONEID (10 to 18) say the part is absent (null),
 *     any other error is named "PART: MESSAGE (CURLUcode N)" in `error`, joined by "; ";
 *   - a failed set is {"failure": true, "error": "MESSAGE (CURLUcode N)"}, "the base is not a
 *     URL: " before it when the base failed; an input holding a NUL byte never reaches libcurl
 *     (a C string cannot carry it): CURLUcode -1 with curl-urlapi's words.
 *
 * The answer is the JSON object `urlscope diff --json` prints under parsers.curl. Its strings are
 * libcurl's bytes as they are (the caller decodes them as UTF-8, replacing what is not, as
 * curl-urlapi's to_string_lossy does); only '"', '\' and the C0 controls are escaped.
 */
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <curl/curlver.h>

/* The version as the terminal's reading reports a libcurl that curl-sys built from its own
 * source (src/diff/libcurl.rs: curl_version_info's version, then " (bundled)"). */
#define READING_VERSION LIBCURL_VERSION " (bundled)"

/* curl-urlapi's message for an input with a NUL byte (crates/curl-urlapi/src/lib.rs). */
#define NUL_MESSAGE "the input contains a NUL byte, which a C string cannot carry"

/* A growing byte buffer; on allocation failure it stays marked failed and the answer is NULL. */
struct out {
  char *bytes;
  size_t len, cap;
  int failed;
};

static void put(struct out *o, const char *s, size_t n)
{
  if(o->failed)
    return;
  if(o->len + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    char *grown;
    while(o->len + n + 1 > cap)
      cap *= 2;
    grown = realloc(o->bytes, cap);
    if(!grown) {
      o->failed = 1;
      return;
    }
    o->bytes = grown;
    o->cap = cap;
  }
  memcpy(o->bytes + o->len, s, n);
  o->len += n;
  o->bytes[o->len] = '\0';
}

static void puts_(struct out *o, const char *s)
{
  put(o, s, strlen(s));
}

/* A JSON string of `n` bytes, or null when `s` is NULL. */
static void put_string(struct out *o, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, run = 0;
  if(!s) {
    puts_(o, "null");
    return;
  }
  puts_(o, "\"");
  for(i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if(c == '"' || c == '\\' || c < 0x20) {
      char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      put(o, s + run, i - run);
      if(c == '"' || c == '\\') {
        esc[1] = (char)c;
        put(o, esc, 2);
      }
      else
        put(o, esc, 6);
      run = i + 1;
    }
  }
  put(o, s + run, n - run);
  puts_(o, "\"");
}

/* "MESSAGE (CURLUcode N)", as curl-urlapi's Error displays. */
static void put_error(struct out *o, const char *message, int code)
{
  char number[16];
  int neg = code < 0, i = (int)sizeof(number);
  unsigned int u = neg ? (unsigned int)-code : (unsigned int)code;
  number[--i] = '\0';
  do {
    number[--i] = (char)('0' + u % 10);
    u /= 10;
  } while(u);
  if(neg)
    number[--i] = '-';
  puts_(o, message);
  puts_(o, " (CURLUcode ");
  puts_(o, number + i);
  puts_(o, ")");
}

/* The answer of a failed parse: {"available": true, "version", "failure": true, "error"}. */
static char *failed(const char *prefix, const char *message, int code, size_t *len)
{
  struct out o = {0}, e = {0};
  puts_(&e, prefix);
  put_error(&e, message, code);
  puts_(&o, "{\"available\":true,\"version\":");
  put_string(&o, READING_VERSION, strlen(READING_VERSION));
  puts_(&o, ",\"failure\":true,\"error\":");
  put_string(&o, e.failed ? NULL : e.bytes, e.len);
  puts_(&o, ",\"scheme\":null,\"username\":null,\"password\":null,\"host\":null,"
            "\"port\":null,\"path\":null,\"query\":null,\"fragment\":null}");
  free(e.bytes);
  if(o.failed) {
    free(o.bytes);
    return NULL;
  }
  *len = o.len;
  return o.bytes;
}

/* The version the answers carry, for the worker's "ready". */
const char *urlscope_curl_version(void)
{
  return READING_VERSION;
}

static const struct {
  CURLUPart part;
  const char *name;
} parts[] = {
  {CURLUPART_SCHEME, "scheme"}, {CURLUPART_USER, "username"},
  {CURLUPART_PASSWORD, "password"}, {CURLUPART_HOST, "host"},
  {CURLUPART_PORT, "port"}, {CURLUPART_PATH, "path"},
  {CURLUPART_QUERY, "query"}, {CURLUPART_FRAGMENT, "fragment"},
};

/*
 * Reads `input` (`input_len` bytes), against `base` (`base_len` bytes) when `base` is not NULL.
 * Returns the answer's JSON (malloc'ed, `*len` bytes and a NUL after them; free it with free()),
 * or NULL when memory runs out.
 */
char *urlscope_curl_read(const char *input, size_t input_len, const char *base,
                         size_t base_len, size_t *len)
{
  const unsigned int flags = CURLU_NON_SUPPORT_SCHEME;
  CURLU *url;
  CURLUcode code;
  struct out o = {0}, errors = {0};
  char *values[sizeof(parts) / sizeof(parts[0])];
  size_t i;

  url = curl_url();
  if(!url)
    return failed("", curl_url_strerror(CURLUE_OUT_OF_MEMORY), CURLUE_OUT_OF_MEMORY, len);
  if(base) {
    if(memchr(base, '\0', base_len)) {
      curl_url_cleanup(url);
      return failed("the base is not a URL: ", NUL_MESSAGE, -1, len);
    }
    code = curl_url_set(url, CURLUPART_URL, base, flags);
    if(code) {
      curl_url_cleanup(url);
      return failed("the base is not a URL: ", curl_url_strerror(code), (int)code, len);
    }
  }
  if(memchr(input, '\0', input_len)) {
    curl_url_cleanup(url);
    return failed("", NUL_MESSAGE, -1, len);
  }
  code = curl_url_set(url, CURLUPART_URL, input, flags);
  if(code) {
    curl_url_cleanup(url);
    return failed("", curl_url_strerror(code), (int)code, len);
  }

  for(i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
    values[i] = NULL;
    code = curl_url_get(url, parts[i].part, &values[i], 0);
    if(code) {
      values[i] = NULL;
      /* CURLUE_NO_SCHEME .. CURLUE_NO_ZONEID: the part is absent, an answer, not an error */
      if(code >= CURLUE_NO_SCHEME && code <= CURLUE_NO_ZONEID)
        continue;
      if(errors.len)
        puts_(&errors, "; ");
      puts_(&errors, parts[i].name);
      puts_(&errors, ": ");
      put_error(&errors, curl_url_strerror(code), (int)code);
    }
  }
  curl_url_cleanup(url);

  puts_(&o, "{\"available\":true,\"version\":");
  put_string(&o, READING_VERSION, strlen(READING_VERSION));
  puts_(&o, ",\"failure\":false,\"error\":");
  put_string(&o, errors.len ? errors.bytes : NULL, errors.len);
  for(i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
    puts_(&o, ",\"");
    puts_(&o, parts[i].name);
    puts_(&o, "\":");
    put_string(&o, values[i], values[i] ? strlen(values[i]) : 0);
    curl_free(values[i]);
  }
  puts_(&o, "}");
  free(errors.bytes);
  if(o.failed || errors.failed) {
    free(o.bytes);
    return NULL;
  }
  *len = o.len;
  return o.bytes;
}
