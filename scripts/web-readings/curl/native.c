/*
 * The curl reading of reading.c as a command, built natively by `build --native FILE` from the
 * same libcurl source as the page's module: tests/web/reading-curl.test.mjs compares the page's
 * answers with this one's, byte for byte.
 *
 * Standard input: requests, each a header line "INPUT_LENGTH BASE_LENGTH\n" (BASE_LENGTH -1 for
 * no base) followed by the input's bytes and the base's bytes, so that any byte (newline, NUL)
 * can be read. Standard output: one answer's JSON a line, in order.
 */
#include <stdio.h>
#include <stdlib.h>

char *urlscope_curl_read(const char *input, size_t input_len, const char *base,
                         size_t base_len, size_t *len);

static char *read_bytes(long n)
{
  char *bytes = malloc((size_t)n + 1);
  if(!bytes || fread(bytes, 1, (size_t)n, stdin) != (size_t)n)
    exit(2);
  bytes[n] = '\0';
  return bytes;
}

int main(void)
{
  long input_len, base_len;
  while(scanf("%ld %ld", &input_len, &base_len) == 2 && getchar() == '\n') {
    char *input, *base = NULL, *answer;
    size_t len;
    if(input_len < 0)
      return 2;
    input = read_bytes(input_len);
    if(base_len >= 0)
      base = read_bytes(base_len);
    answer = urlscope_curl_read(input, (size_t)input_len, base,
                                base ? (size_t)base_len : 0, &len);
    if(!answer)
      return 3;
    fwrite(answer, 1, len, stdout);
    putchar('\n');
    fflush(stdout);
    free(answer);
    free(input);
    free(base);
  }
  return 0;
}
