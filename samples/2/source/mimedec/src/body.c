/*
 * Content-transfer decoding of a part body.
 *
 * Bodies are decoded in two passes: the functions here first measure the
 * exact decoded length, so that the output is allocated once and parts that
 * decode to nothing cost no memory, then the decoder for the encoding
 * (qp.c, base64.c) fills the buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Decoded length of a quoted-printable body; mirrors mimedec_qp_decode(). */
static size_t qp_decoded_size(const char *in, size_t len) {
  size_t i = 0, n = 0;

  while (i < len) {
    if (in[i] == '=') {
      size_t brk = mimedec_qp_soft_break(in, len, i);
      if (brk != 0) {
        i += brk;
        continue;
      }
      if (i + 2 < len) {
        /* "=XX" stands for a single octet. */
        n++;
        i += 3;
        continue;
      }
    }
    n++;
    i++;
  }
  return n;
}

/* Decoded length of a base64 body; mirrors mimedec_b64_decode(). */
static size_t b64_decoded_size(const char *in, size_t len) {
  size_t chars = 0;

  for (size_t i = 0; i < len && in[i] != '='; i++) {
    if (mimedec_b64val((unsigned char)in[i]) >= 0) chars++;
  }
  /* Every character carries 6 bits; a trailing partial octet is dropped. */
  return chars / 4 * 3 + (chars % 4) * 6 / 8;
}

static size_t decoded_size(mimedec_encoding enc, const char *in, size_t len) {
  switch (enc) {
  case MIMEDEC_ENC_QP:
    return qp_decoded_size(in, len);
  case MIMEDEC_ENC_BASE64:
    return b64_decoded_size(in, len);
  case MIMEDEC_ENC_IDENTITY:
  default:
    return len;
  }
}

int mimedec_decode_body(mimedec_encoding enc, const char *in, size_t len,
                        uint8_t **out, size_t *out_len) {
  size_t need = decoded_size(enc, in, len);
  size_t got;
  uint8_t *buf;

  *out = NULL;
  *out_len = 0;
  if (need == 0) return MIMEDEC_OK;

  buf = malloc(need);
  if (buf == NULL) return MIMEDEC_ERR_NOMEM;

  switch (enc) {
  case MIMEDEC_ENC_QP:
    got = mimedec_qp_decode(in, len, buf);
    break;
  case MIMEDEC_ENC_BASE64:
    got = mimedec_b64_decode(in, len, buf);
    break;
  case MIMEDEC_ENC_IDENTITY:
  default:
    memcpy(buf, in, len);
    got = len;
    break;
  }

  *out = buf;
  *out_len = got;
  return MIMEDEC_OK;
}
