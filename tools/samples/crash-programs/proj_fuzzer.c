// The fuzz harness, outside the project's folder, as OSS-Fuzz projects keep it.
#include <stddef.h>
#include <stdint.h>
#include "proj/buffer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  stop(data, size);
  spin(data, size);
  hoard(data, size);
  return 0;
}
