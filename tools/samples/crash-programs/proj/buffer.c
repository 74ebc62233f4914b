// A small "project" whose bugs the sanitizers report; each function is one kind of bug.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "buffer.h"

size_t record_length(const uint8_t *data, size_t size) {
  /* The length field is trusted: the root cause of the overflow below. */
  return size > 0 ? data[0] : 0;
}

int checksum(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size);
  memcpy(copy, data, size);
  size_t length = record_length(copy, size);
  int sum = 0;
  for (size_t i = 0; i < length; i++) sum += copy[i];
  free(copy);
  return sum;
}

int use_after_free(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size + 1);
  memcpy(copy, data, size);
  free(copy);
  return copy[0];
}

int read_flag(int set) {
  int flag;
  if (set) flag = 1;
  if (flag) return 2;
  return 3;
}

int scale(int value) {
  return value * 65536 * 65536;
}

int depth(int n) {
  volatile char frame[256];
  frame[0] = (char)n;
  return depth(n + 1) + frame[0];
}

int poke(uintptr_t address) {
  return *(volatile int *)address;
}

void stop(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == 'A') abort();
}

void spin(const uint8_t *data, size_t size) {
  while (size > 0 && data[0] == 'L') {
  }
}

void *hoard(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == 'M') return malloc((size_t)1 << 32);
  return NULL;
}
