// urlscope's node reading, in C++: what assets/parsers/node.js's `whatwg` reading does with
// Node's global URL, over Ada (the parser Node's URL is), from the source the ada-url crate
// carries. scripts/web-readings/node/build compiles it with Ada to WebAssembly for the page
// (readings/node/worker.js calls urlscope_node_read).
//
// As node.js reads: `new URL(input)`, or `new URL(input, base)`, which parses the base first
// and throws when either fails; Node's TypeError then has the code ERR_INVALID_URL and the
// message "Invalid URL", which node.js writes as "CODE: MESSAGE". Then the URL API's getters,
// strings (the API has no null): protocol less its ":", username, password, hostname, port,
// pathname, search less its "?", hash less its "#".
//
// The answer is the JSON object `urlscope diff --json` prints under parsers.node. Ada's getters
// give UTF-8 (every URL's href is ASCII but for an opaque... it is ASCII); only '"', '\' and
// the C0 controls are escaped.
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "ada.h"

namespace {

void put_string(std::string &out, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

std::string_view without_prefix(std::string_view value, char prefix) {
  return !value.empty() && value.front() == prefix ? value.substr(1) : value;
}

std::string_view without_colon(std::string_view protocol) {
  return !protocol.empty() && protocol.back() == ':' ? protocol.substr(0, protocol.size() - 1) : protocol;
}

char *finish(const std::string &json, size_t *len) {
  char *bytes = static_cast<char *>(std::malloc(json.size() + 1));
  if (bytes == nullptr) return nullptr;
  std::memcpy(bytes, json.data(), json.size());
  bytes[json.size()] = '\0';
  *len = json.size();
  return bytes;
}

}  // namespace

extern "C" {

/// Ada's version, the answers' `version`.
const char *urlscope_node_version(void) { return ADA_VERSION; }

/// Reads `input` (`input_len` bytes of UTF-8), against `base` when it is not NULL. Returns the
/// answer's JSON (malloc'ed, `*len` bytes and a NUL; free it with free()), or NULL when memory
/// runs out.
char *urlscope_node_read(const char *input, size_t input_len, const char *base, size_t base_len,
                         size_t *len) {
  std::string json = "{\"available\":true,\"version\":";
  put_string(json, ADA_VERSION);
  ada::result<ada::url_aggregator> url;
  if (base == nullptr) {
    url = ada::parse<ada::url_aggregator>(std::string_view(input, input_len));
  } else {
    auto parsed_base = ada::parse<ada::url_aggregator>(std::string_view(base, base_len));
    if (parsed_base) {
      url = ada::parse<ada::url_aggregator>(std::string_view(input, input_len), &*parsed_base);
    } else {
      url = parsed_base;
    }
  }
  if (!url) {
    json += ",\"failure\":true,\"error\":\"ERR_INVALID_URL: Invalid URL\",\"scheme\":null,"
            "\"username\":null,\"password\":null,\"host\":null,\"port\":null,\"path\":null,"
            "\"query\":null,\"fragment\":null}";
    return finish(json, len);
  }
  json += ",\"failure\":false,\"error\":null,\"scheme\":";
  put_string(json, without_colon(url->get_protocol()));
  json += ",\"username\":";
  put_string(json, url->get_username());
  json += ",\"password\":";
  put_string(json, url->get_password());
  json += ",\"host\":";
  put_string(json, url->get_hostname());
  json += ",\"port\":";
  put_string(json, url->get_port());
  json += ",\"path\":";
  put_string(json, url->get_pathname());
  json += ",\"query\":";
  put_string(json, without_prefix(url->get_search(), '?'));
  json += ",\"fragment\":";
  put_string(json, without_prefix(url->get_hash(), '#'));
  json += "}";
  return finish(json, len);
}

}  // extern "C"
