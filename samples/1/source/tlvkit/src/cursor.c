#include "tlv_internal.h"

void tlv_cursor_init(tlv_cursor *c, const uint8_t *base, size_t length) {
  c->base = base;
  c->length = length;
  c->pos = 0;
}

size_t tlv_cursor_remaining(const tlv_cursor *c) {
  return c->length - c->pos;
}

int tlv_cursor_skip(tlv_cursor *c, size_t n) {
  if (n > tlv_cursor_remaining(c))
    return TLV_ERR_TRUNCATED;
  c->pos += n;
  return TLV_OK;
}

int tlv_cursor_u8(tlv_cursor *c, uint8_t *out) {
  if (tlv_cursor_remaining(c) < 1)
    return TLV_ERR_TRUNCATED;
  *out = c->base[c->pos++];
  return TLV_OK;
}

int tlv_cursor_be16(tlv_cursor *c, uint16_t *out) {
  const uint8_t *p;

  if (tlv_cursor_remaining(c) < 2)
    return TLV_ERR_TRUNCATED;
  p = c->base + c->pos;
  *out = (uint16_t)((p[0] << 8) | p[1]);
  c->pos += 2;
  return TLV_OK;
}

int tlv_cursor_be32(tlv_cursor *c, uint32_t *out) {
  const uint8_t *p;

  if (tlv_cursor_remaining(c) < 4)
    return TLV_ERR_TRUNCATED;
  p = c->base + c->pos;
  *out = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
  c->pos += 4;
  return TLV_OK;
}

int tlv_cursor_be64(tlv_cursor *c, uint64_t *out) {
  uint32_t hi, lo;
  int rc;

  /* Check up front so a short read leaves the cursor where it was. */
  if (tlv_cursor_remaining(c) < 8)
    return TLV_ERR_TRUNCATED;
  if ((rc = tlv_cursor_be32(c, &hi)) != TLV_OK)
    return rc;
  if ((rc = tlv_cursor_be32(c, &lo)) != TLV_OK)
    return rc;
  *out = ((uint64_t)hi << 32) | lo;
  return TLV_OK;
}

int tlv_cursor_bytes(tlv_cursor *c, size_t n, const uint8_t **out) {
  if (n > tlv_cursor_remaining(c))
    return TLV_ERR_TRUNCATED;
  *out = c->base + c->pos;
  c->pos += n;
  return TLV_OK;
}
