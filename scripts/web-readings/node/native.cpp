// The node reading of reading.cpp as a command, built natively by `build --native` from the
// same Ada source as the page's module: tests/web/reading-node.test.mjs compares the page's
// answers with this one's, byte for byte.
//
// Standard input: requests, each a header line "INPUT_LENGTH BASE_LENGTH\n" (BASE_LENGTH -1 for
// no base) followed by the input's bytes and the base's bytes. Standard output: one answer's
// JSON a line, in order.
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" char *urlscope_node_read(const char *input, size_t input_len, const char *base,
                                    size_t base_len, size_t *len);

static std::string read_bytes(long n) {
  std::string bytes(static_cast<size_t>(n), '\0');
  if (n > 0 && std::fread(bytes.data(), 1, bytes.size(), stdin) != bytes.size()) std::exit(2);
  return bytes;
}

int main() {
  long input_len, base_len;
  while (std::scanf("%ld %ld", &input_len, &base_len) == 2 && std::getchar() == '\n') {
    if (input_len < 0) return 2;
    std::string input = read_bytes(input_len);
    std::string base = base_len >= 0 ? read_bytes(base_len) : std::string();
    size_t len = 0;
    char *answer = urlscope_node_read(input.data(), input.size(), base_len >= 0 ? base.data() : nullptr,
                                      base.size(), &len);
    if (answer == nullptr) return 3;
    std::fwrite(answer, 1, len, stdout);
    std::putchar('\n');
    std::fflush(stdout);
    std::free(answer);
  }
  return 0;
}
