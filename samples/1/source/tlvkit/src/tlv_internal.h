#ifndef TLV_INTERNAL_H
#define TLV_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tlvkit.h"

#define TLV_MAGIC "TLVK"
#define TLV_FILE_HEADER_SIZE 8   /* magic[4], version, flags, be16 header length */
#define TLV_RECORD_HEADER_SIZE 6 /* be16 type, be32 length */
#define TLV_CRC_SIZE 4

#define TLV_MAX_DEPTH 16
#define TLV_MAX_RECORDS 65536

/* One indexed record; offsets are relative to the start of the input. */
typedef struct {
  uint16_t type;
  uint16_t depth;
  size_t parent;
  size_t children;
  size_t offset; /* of the value, not of the record header */
  uint32_t length;
} tlv_entry;

typedef struct {
  tlv_entry *entries;
  size_t count;
  size_t capacity;
} tlv_index;

struct tlv_doc {
  const uint8_t *data;
  size_t size;
  uint8_t version;
  uint8_t flags;
  size_t body_start;
  size_t body_end;
  tlv_index index;
};

/*
 * Bounded big-endian reader over a byte range.  Every read is checked
 * against the length passed to tlv_cursor_init().
 */
typedef struct {
  const uint8_t *base;
  size_t length;
  size_t pos;
} tlv_cursor;

void tlv_cursor_init(tlv_cursor *c, const uint8_t *base, size_t length);
size_t tlv_cursor_remaining(const tlv_cursor *c);
int tlv_cursor_skip(tlv_cursor *c, size_t n);
int tlv_cursor_u8(tlv_cursor *c, uint8_t *out);
int tlv_cursor_be16(tlv_cursor *c, uint16_t *out);
int tlv_cursor_be32(tlv_cursor *c, uint32_t *out);
int tlv_cursor_be64(tlv_cursor *c, uint64_t *out);
int tlv_cursor_bytes(tlv_cursor *c, size_t n, const uint8_t **out);

int tlv_index_build(tlv_index *ix, const uint8_t *data, size_t start,
                    size_t end);
void tlv_index_free(tlv_index *ix);

#endif /* TLV_INTERNAL_H */
