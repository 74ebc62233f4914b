/*
 * libFuzzer entry point: open the input as a TLV container, then read
 * every record through the typed accessors and exercise tag lookup.
 */
#include <stddef.h>
#include <stdint.h>

#include "tlvkit.h"

struct totals {
  uint64_t sum;
  uint32_t crc;
  size_t text;
  size_t containers;
};

static int visit(const tlv_doc *doc, size_t index, const tlv_record *rec,
                 void *user) {
  struct totals *t = user;
  const uint8_t *blob;
  size_t n;

  (void)doc;
  (void)index;
  if (tlv_record_is_container(rec)) {
    t->containers += rec->children;
    return 0;
  }

  switch (TLV_TYPE_KIND(rec->type)) {
  case TLV_KIND_BLOB:
    if (tlv_record_blob(rec, &blob, &n) == TLV_OK)
      t->crc ^= tlv_crc32(blob, n);
    break;
  case TLV_KIND_UTF8: {
    char buf[32];
    if (tlv_record_string(rec, buf, sizeof(buf), &n) == TLV_OK)
      t->text += n + (size_t)buf[0];
    break;
  }
  default: {
    uint64_t v;
    if (tlv_record_uint(rec, &v) == TLV_OK)
      t->sum += v;
    break;
  }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct totals totals = {0, 0, 0, 0};
  tlv_doc *doc;
  tlv_record rec;
  size_t at, found;

  if (tlv_doc_open(data, size, &doc) != TLV_OK)
    return 0;

  tlv_doc_walk(doc, visit, &totals);

  /* Tag lookup, following each hit up to its outermost container. */
  for (at = 0; tlv_doc_find(doc, 0x001, at, &found) == TLV_OK; at = found + 1) {
    size_t i = found;
    while (tlv_doc_get(doc, i, &rec) == TLV_OK && rec.parent != TLV_NO_PARENT)
      i = rec.parent;
  }

  (void)tlv_strerror(tlv_doc_count(doc) ? TLV_OK : TLV_ERR_NOTFOUND);
  tlv_doc_close(doc);
  return 0;
}
