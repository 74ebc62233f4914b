/*
 * Document handling: file header, optional CRC trailer, and record lookup
 * through the index built by index.c.
 */
#include <stdlib.h>
#include <string.h>

#include "tlv_internal.h"

uint32_t tlv_crc32(const uint8_t *data, size_t length) {
  uint32_t crc = 0xffffffffu;
  size_t i;
  int bit;

  for (i = 0; i < length; i++) {
    crc ^= data[i];
    for (bit = 0; bit < 8; bit++)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return crc ^ 0xffffffffu;
}

static int parse_header(tlv_doc *doc) {
  tlv_cursor c;
  const uint8_t *magic;
  uint16_t header_len;
  int rc;

  tlv_cursor_init(&c, doc->data, doc->size);
  if ((rc = tlv_cursor_bytes(&c, 4, &magic)) != TLV_OK)
    return rc;
  if (memcmp(magic, TLV_MAGIC, 4) != 0)
    return TLV_ERR_MAGIC;
  if ((rc = tlv_cursor_u8(&c, &doc->version)) != TLV_OK ||
      (rc = tlv_cursor_u8(&c, &doc->flags)) != TLV_OK ||
      (rc = tlv_cursor_be16(&c, &header_len)) != TLV_OK)
    return rc;
  if (doc->version != TLVKIT_FORMAT_VERSION)
    return TLV_ERR_VERSION;

  /* Newer writers may append header fields; header_len lets us skip them. */
  if (header_len < TLV_FILE_HEADER_SIZE)
    return TLV_ERR_RANGE;
  if (header_len > doc->size)
    return TLV_ERR_TRUNCATED;
  doc->body_start = header_len;
  doc->body_end = doc->size;

  if (doc->flags & TLV_FLAG_CRC32) {
    uint32_t stored;

    if (doc->size - header_len < TLV_CRC_SIZE)
      return TLV_ERR_TRUNCATED;
    doc->body_end = doc->size - TLV_CRC_SIZE;
    tlv_cursor_init(&c, doc->data + doc->body_end, TLV_CRC_SIZE);
    if ((rc = tlv_cursor_be32(&c, &stored)) != TLV_OK)
      return rc;
    if (stored != tlv_crc32(doc->data, doc->body_end))
      return TLV_ERR_CHECKSUM;
  }
  return TLV_OK;
}

int tlv_doc_open(const uint8_t *data, size_t size, tlv_doc **out) {
  tlv_doc *doc;
  int rc;

  *out = NULL;
  if (data == NULL)
    return TLV_ERR_TRUNCATED;

  doc = calloc(1, sizeof(*doc));
  if (doc == NULL)
    return TLV_ERR_NOMEM;
  doc->data = data;
  doc->size = size;

  if ((rc = parse_header(doc)) != TLV_OK ||
      (rc = tlv_index_build(&doc->index, data, doc->body_start,
                            doc->body_end)) != TLV_OK) {
    free(doc);
    return rc;
  }
  *out = doc;
  return TLV_OK;
}

void tlv_doc_close(tlv_doc *doc) {
  if (doc == NULL)
    return;
  tlv_index_free(&doc->index);
  free(doc);
}

size_t tlv_doc_count(const tlv_doc *doc) {
  return doc->index.count;
}

int tlv_doc_get(const tlv_doc *doc, size_t index, tlv_record *out) {
  const tlv_entry *e;

  if (index >= doc->index.count)
    return TLV_ERR_RANGE;
  e = &doc->index.entries[index];
  out->type = e->type;
  out->depth = e->depth;
  out->parent = e->parent;
  out->children = e->children;
  out->value = doc->data + e->offset;
  out->length = e->length;
  return TLV_OK;
}

int tlv_doc_find(const tlv_doc *doc, unsigned tag, size_t start,
                 size_t *found) {
  size_t i;

  for (i = start; i < doc->index.count; i++) {
    if (TLV_TYPE_TAG(doc->index.entries[i].type) == tag) {
      *found = i;
      return TLV_OK;
    }
  }
  return TLV_ERR_NOTFOUND;
}

int tlv_doc_walk(const tlv_doc *doc, tlv_visit_fn fn, void *user) {
  tlv_record rec;
  size_t i;
  int rc;

  for (i = 0; i < doc->index.count; i++) {
    if ((rc = tlv_doc_get(doc, i, &rec)) != TLV_OK)
      return rc;
    if ((rc = fn(doc, i, &rec, user)) != 0)
      return rc;
  }
  return TLV_OK;
}

const char *tlv_strerror(int err) {
  switch (err) {
  case TLV_OK: return "success";
  case TLV_ERR_NOMEM: return "out of memory";
  case TLV_ERR_MAGIC: return "not a TLV container";
  case TLV_ERR_VERSION: return "unsupported format version";
  case TLV_ERR_TRUNCATED: return "truncated input";
  case TLV_ERR_DEPTH: return "containers nested too deeply";
  case TLV_ERR_LIMIT: return "too many records";
  case TLV_ERR_CHECKSUM: return "checksum mismatch";
  case TLV_ERR_KIND: return "wrong or unknown value kind";
  case TLV_ERR_RANGE: return "value out of range";
  case TLV_ERR_ENCODING: return "invalid string encoding";
  case TLV_ERR_NOTFOUND: return "record not found";
  default: return "unknown error";
  }
}
