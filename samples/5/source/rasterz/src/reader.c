/* Byte-level input helpers. All multi-byte fields in RSTZ are big-endian. */
#include "rz_internal.h"

void rz_reader_init(rz_reader *r, const uint8_t *data, size_t size) {
  r->data = data;
  r->size = data ? size : 0;
  r->pos = 0;
}

size_t rz_reader_remaining(const rz_reader *r) {
  return r->size - r->pos;
}

int rz_read_u8(rz_reader *r, uint8_t *v) {
  if (rz_reader_remaining(r) < 1)
    return 0;
  *v = r->data[r->pos++];
  return 1;
}

int rz_read_be32(rz_reader *r, uint32_t *v) {
  const uint8_t *p = rz_read_bytes(r, 4);
  if (!p)
    return 0;
  *v = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
  return 1;
}

const uint8_t *rz_read_bytes(rz_reader *r, size_t n) {
  const uint8_t *p;

  if (rz_reader_remaining(r) < n)
    return NULL;
  p = r->data + r->pos;
  r->pos += n;
  return p;
}
