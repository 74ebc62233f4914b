/*
 * Typed access to record values.
 */
#include <string.h>

#include "tlv_internal.h"

int tlv_record_is_container(const tlv_record *rec) {
  return (rec->type & TLV_TYPE_CONTAINER) != 0;
}

static size_t kind_width(unsigned kind) {
  switch (kind) {
  case TLV_KIND_U8: return 1;
  case TLV_KIND_U16: return 2;
  case TLV_KIND_U32: return 4;
  case TLV_KIND_U64: return 8;
  default: return 0;
  }
}

int tlv_record_uint(const tlv_record *rec, uint64_t *out) {
  tlv_cursor c;
  unsigned kind;
  size_t width;
  int rc;

  if (tlv_record_is_container(rec))
    return TLV_ERR_KIND;
  kind = TLV_TYPE_KIND(rec->type);
  width = kind_width(kind);
  if (width == 0)
    return TLV_ERR_KIND;
  /* Integers are stored at exactly their width; a writer that pads or
   * shortens them is broken, and guessing which bytes matter is worse. */
  if (rec->length != width)
    return TLV_ERR_RANGE;

  tlv_cursor_init(&c, rec->value, rec->length);
  switch (kind) {
  case TLV_KIND_U8: {
    uint8_t v;
    if ((rc = tlv_cursor_u8(&c, &v)) == TLV_OK)
      *out = v;
    break;
  }
  case TLV_KIND_U16: {
    uint16_t v;
    if ((rc = tlv_cursor_be16(&c, &v)) == TLV_OK)
      *out = v;
    break;
  }
  case TLV_KIND_U32: {
    uint32_t v;
    if ((rc = tlv_cursor_be32(&c, &v)) == TLV_OK)
      *out = v;
    break;
  }
  default:
    rc = tlv_cursor_be64(&c, out);
    break;
  }
  return rc;
}

/*
 * Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
 * NUL is rejected too, since callers get the value as a C string.
 */
static int utf8_validate(const uint8_t *s, size_t n) {
  size_t i = 0;

  while (i < n) {
    uint8_t lead = s[i];
    uint32_t cp, min;
    size_t need, k;

    if (lead == 0)
      return TLV_ERR_ENCODING;
    if (lead < 0x80) {
      i++;
      continue;
    }
    if ((lead & 0xe0) == 0xc0) {
      need = 1, cp = lead & 0x1fu, min = 0x80;
    } else if ((lead & 0xf0) == 0xe0) {
      need = 2, cp = lead & 0x0fu, min = 0x800;
    } else if ((lead & 0xf8) == 0xf0) {
      need = 3, cp = lead & 0x07u, min = 0x10000;
    } else {
      return TLV_ERR_ENCODING;
    }
    if (need >= n - i)
      return TLV_ERR_ENCODING;
    for (k = 1; k <= need; k++) {
      if ((s[i + k] & 0xc0) != 0x80)
        return TLV_ERR_ENCODING;
      cp = (cp << 6) | (s[i + k] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return TLV_ERR_ENCODING;
    i += need + 1;
  }
  return TLV_OK;
}

/*
 * Copy a UTF-8 value into buf as a NUL-terminated string, truncating on a
 * character boundary if it does not fit.  *length gets the full length.
 */
int tlv_record_string(const tlv_record *rec, char *buf, size_t bufsize,
                      size_t *length) {
  tlv_cursor c;
  const uint8_t *s;
  size_t n;
  int rc;

  if (tlv_record_is_container(rec) ||
      TLV_TYPE_KIND(rec->type) != TLV_KIND_UTF8)
    return TLV_ERR_KIND;

  tlv_cursor_init(&c, rec->value, rec->length);
  if ((rc = tlv_cursor_bytes(&c, rec->length, &s)) != TLV_OK)
    return rc;
  if ((rc = utf8_validate(s, rec->length)) != TLV_OK)
    return rc;

  if (length != NULL)
    *length = rec->length;
  if (bufsize == 0)
    return TLV_OK;

  n = rec->length;
  if (n > bufsize - 1) {
    n = bufsize - 1;
    while (n > 0 && (s[n] & 0xc0) == 0x80)
      n--;
  }
  memcpy(buf, s, n);
  buf[n] = '\0';
  return TLV_OK;
}

int tlv_record_blob(const tlv_record *rec, const uint8_t **data,
                    size_t *length) {
  if (tlv_record_is_container(rec) ||
      TLV_TYPE_KIND(rec->type) != TLV_KIND_BLOB)
    return TLV_ERR_KIND;
  *data = rec->value;
  *length = rec->length;
  return TLV_OK;
}
