// Runs a libFuzzer-style target on the files named on the command line, the way OSS-Fuzz's
// standalone driver does: the sample images have gcc, which has no libFuzzer, and a PoC only needs
// to be replayed, not found.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  // An exact-size heap copy, so that reads past the input are caught as they are under libFuzzer.
  uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
  size_t got = fread(buf, 1, (size_t)len, f);
  fclose(f);
  fprintf(stderr, "Running: %s (%zu bytes)\n", path, got);
  LLVMFuzzerTestOneInput(buf, got);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int failed = 0;
  for (int i = 1; i < argc; i++) failed |= run_file(argv[i]);
  return failed;
}
