/*
 * libFuzzer entry point: parses the input as a message and reads back every
 * decoded part, so that the sanitizers also check the decoded buffers.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mimedec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mimedec_message *msg = NULL;
  volatile uint32_t sink = 0;
  uint32_t h = 2166136261u;

  if (mimedec_parse((const char *)data, size, &msg) != MIMEDEC_OK) return 0;

  for (size_t i = 0; i < mimedec_part_count(msg); i++) {
    const mimedec_part *part = mimedec_part_at(msg, i);

    h = (h ^ (uint32_t)strlen(part->content_type)) * 16777619u;
    h = (h ^ (uint32_t)part->encoding) * 16777619u;
    for (size_t j = 0; j < part->size; j++) {
      h = (h ^ part->data[j]) * 16777619u;
    }
  }
  sink = h;
  (void)sink;

  mimedec_free(msg);
  return 0;
}
