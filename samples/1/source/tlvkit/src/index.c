/*
 * Record index.
 *
 * tlv_doc_open() validates the record structure once, here, and stores
 * where every value lives, so that lookups and accessors never have to
 * walk the input again.
 */
#include <stdlib.h>
#include <string.h>

#include "tlv_internal.h"

static int index_push(tlv_index *ix, const tlv_entry *e, size_t *slot) {
  if (ix->count == ix->capacity) {
    size_t capacity = ix->capacity ? ix->capacity * 2 : 16;
    tlv_entry *grown;

    if (capacity > TLV_MAX_RECORDS)
      capacity = TLV_MAX_RECORDS;
    if (ix->count >= capacity)
      return TLV_ERR_LIMIT;
    grown = realloc(ix->entries, capacity * sizeof(*grown));
    if (grown == NULL)
      return TLV_ERR_NOMEM;
    ix->entries = grown;
    ix->capacity = capacity;
  }
  ix->entries[ix->count] = *e;
  *slot = ix->count++;
  return TLV_OK;
}

static int kind_is_known(uint16_t type) {
  return TLV_TYPE_KIND(type) <= TLV_KIND_UTF8;
}

/*
 * Index the records in data[pos, end).  `parent` is the slot of the
 * container whose value this span is, or TLV_NO_PARENT for the body.
 * Children are pushed right after their container, so the index is in
 * document (pre-)order.
 */
static int index_span(tlv_index *ix, const uint8_t *data, size_t pos,
                      size_t end, uint16_t depth, size_t parent) {
  if (depth > TLV_MAX_DEPTH)
    return TLV_ERR_DEPTH;

  while (pos < end) {
    size_t avail = end - pos;
    tlv_cursor c;
    tlv_entry e;
    uint16_t type;
    uint32_t length;
    size_t slot;
    int rc;

    if (avail < TLV_RECORD_HEADER_SIZE)
      return TLV_ERR_TRUNCATED;

    tlv_cursor_init(&c, data + pos, TLV_RECORD_HEADER_SIZE);
    if ((rc = tlv_cursor_be16(&c, &type)) != TLV_OK ||
        (rc = tlv_cursor_be32(&c, &length)) != TLV_OK)
      return rc;

    /* Compare against what is left instead of computing pos + length,
     * which can wrap for lengths near 4 GiB when size_t is 32 bits. */
    if (length > avail)
      return TLV_ERR_TRUNCATED;

    /* Containers carry no value kind of their own. */
    if ((type & TLV_TYPE_CONTAINER) ? TLV_TYPE_KIND(type) != TLV_KIND_BLOB
                                    : !kind_is_known(type))
      return TLV_ERR_KIND;

    e.type = type;
    e.depth = depth;
    e.parent = parent;
    e.children = 0;
    e.offset = pos + TLV_RECORD_HEADER_SIZE;
    e.length = length;
    if ((rc = index_push(ix, &e, &slot)) != TLV_OK)
      return rc;
    if (parent != TLV_NO_PARENT)
      ix->entries[parent].children++;

    if (type & TLV_TYPE_CONTAINER) {
      rc = index_span(ix, data, e.offset, e.offset + length,
                      (uint16_t)(depth + 1), slot);
      if (rc != TLV_OK)
        return rc;
    }
    pos = e.offset + length;
  }
  return TLV_OK;
}

int tlv_index_build(tlv_index *ix, const uint8_t *data, size_t start,
                    size_t end) {
  int rc;

  memset(ix, 0, sizeof(*ix));
  if (start > end)
    return TLV_ERR_TRUNCATED;
  rc = index_span(ix, data, start, end, 0, TLV_NO_PARENT);
  if (rc != TLV_OK)
    tlv_index_free(ix);
  return rc;
}

void tlv_index_free(tlv_index *ix) {
  free(ix->entries);
  ix->entries = NULL;
  ix->count = 0;
  ix->capacity = 0;
}
