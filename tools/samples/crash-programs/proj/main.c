// Runs one bug of buffer.c, named by the first argument.
#include <stdio.h>
#include <string.h>
#include "buffer.h"

int main(int argc, char **argv) {
  const uint8_t data[4] = {40, 1, 2, 3};
  const char *bug = argc > 1 ? argv[1] : "";
  int result = 0;
  if (!strcmp(bug, "overflow")) result = checksum(data, sizeof data);
  if (!strcmp(bug, "use-after-free")) result = use_after_free(data, sizeof data);
  if (!strcmp(bug, "uninitialized")) result = read_flag(argc > 5);
  if (!strcmp(bug, "integer-overflow")) result = scale(argc + 1);
  if (!strcmp(bug, "stack-overflow")) result = depth(argc);
  if (!strcmp(bug, "segv")) result = poke(0x10 + (uintptr_t)argc);
  printf("%d\n", result);
  return 0;
}
