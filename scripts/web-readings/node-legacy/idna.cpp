// ada::idna::to_ascii for the page's node-legacy reading: what Node's url.parse calls as
// internalBinding('encoding_binding').toASCII (src/encoding_binding.cc runs
// ada::idna::to_ascii on the hostname's UTF-8), from the ada amalgamation of the version Node
// bundles (process.versions.ada), built by ./build with emcc into a standalone idna.wasm.
#include "ada.cpp"

#include <string>
#include <string_view>

static std::string input;
static std::string output;

extern "C" {
// Room for `length` bytes of UTF-8: the caller writes the domain there.
__attribute__((export_name("input_buffer"))) char* input_buffer(unsigned long length) {
  input.resize(length);
  return input.data();
}

// ada::idna::to_ascii of the input; the output's length ("" where the domain is not valid).
__attribute__((export_name("to_ascii"))) unsigned long to_ascii() {
  output = ada::idna::to_ascii(std::string_view(input));
  return output.size();
}

__attribute__((export_name("output_buffer"))) const char* output_buffer() {
  return output.data();
}
}
