/*
 * tlvkit - a small reader for TLV (type-length-value) record containers.
 *
 * A container is a fixed file header followed by a sequence of records.
 * Each record is a big-endian 16-bit type, a big-endian 32-bit length and
 * `length` bytes of value.  Records whose type has TLV_TYPE_CONTAINER set
 * hold further records in their value, up to TLV_MAX_DEPTH levels deep.
 *
 * The whole input is validated and indexed once by tlv_doc_open(); every
 * other call works from that index and never re-parses the input.
 */
#ifndef TLVKIT_H
#define TLVKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLVKIT_FORMAT_VERSION 1

enum {
  TLV_OK = 0,
  TLV_ERR_NOMEM = -1,
  TLV_ERR_MAGIC = -2,
  TLV_ERR_VERSION = -3,
  TLV_ERR_TRUNCATED = -4,
  TLV_ERR_DEPTH = -5,
  TLV_ERR_LIMIT = -6,
  TLV_ERR_CHECKSUM = -7,
  TLV_ERR_KIND = -8,
  TLV_ERR_RANGE = -9,
  TLV_ERR_ENCODING = -10,
  TLV_ERR_NOTFOUND = -11
};

/* Value kinds, carried in bits 12..14 of a record type. */
typedef enum {
  TLV_KIND_BLOB = 0,
  TLV_KIND_U8 = 1,
  TLV_KIND_U16 = 2,
  TLV_KIND_U32 = 3,
  TLV_KIND_U64 = 4,
  TLV_KIND_UTF8 = 5
} tlv_kind;

#define TLV_TYPE_CONTAINER 0x8000u
#define TLV_TYPE_KIND(t) ((unsigned)(((t) >> 12) & 0x7u))
#define TLV_TYPE_TAG(t) ((unsigned)((t) & 0x0fffu))

/* File header flags. */
#define TLV_FLAG_CRC32 0x01u /* a big-endian CRC-32 of the rest trails the file */

#define TLV_NO_PARENT ((size_t)-1)

typedef struct tlv_doc tlv_doc;

typedef struct {
  uint16_t type;
  uint16_t depth;     /* 0 for top-level records */
  size_t parent;      /* index of the enclosing container, or TLV_NO_PARENT */
  size_t children;    /* direct children, containers only */
  const uint8_t *value;
  uint32_t length;
} tlv_record;

/* Return non-zero to stop the walk; that value is returned by tlv_doc_walk(). */
typedef int (*tlv_visit_fn)(const tlv_doc *doc, size_t index,
                            const tlv_record *rec, void *user);

int tlv_doc_open(const uint8_t *data, size_t size, tlv_doc **out);
void tlv_doc_close(tlv_doc *doc);
size_t tlv_doc_count(const tlv_doc *doc);
int tlv_doc_get(const tlv_doc *doc, size_t index, tlv_record *out);
int tlv_doc_find(const tlv_doc *doc, unsigned tag, size_t start, size_t *found);
int tlv_doc_walk(const tlv_doc *doc, tlv_visit_fn fn, void *user);

int tlv_record_is_container(const tlv_record *rec);
int tlv_record_uint(const tlv_record *rec, uint64_t *out);
int tlv_record_string(const tlv_record *rec, char *buf, size_t bufsize,
                      size_t *length);
int tlv_record_blob(const tlv_record *rec, const uint8_t **data, size_t *length);

uint32_t tlv_crc32(const uint8_t *data, size_t length);
const char *tlv_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* TLVKIT_H */
