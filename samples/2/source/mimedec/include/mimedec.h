/*
 * mimedec - a small decoder for MIME-style messages.
 *
 * mimedec parses a message made of a header block and a body, splits
 * multipart bodies on their boundary delimiter (RFC 2046) and undoes the
 * content-transfer-encoding of every part (RFC 2045): quoted-printable,
 * base64, or the identity encodings 7bit / 8bit / binary.
 *
 * The input does not need to be NUL-terminated and is never modified.
 */
#ifndef MIMEDEC_H
#define MIMEDEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MIMEDEC_TYPE_MAX 64 /* room for "type/subtype" plus NUL */

enum {
  MIMEDEC_OK = 0,
  MIMEDEC_ERR_NOMEM = -1,    /* allocation failure */
  MIMEDEC_ERR_SYNTAX = -2,   /* malformed header or multipart structure */
  MIMEDEC_ERR_LIMIT = -3,    /* a built-in limit was exceeded */
  MIMEDEC_ERR_ENCODING = -4  /* unknown Content-Transfer-Encoding */
};

typedef enum {
  MIMEDEC_ENC_IDENTITY = 0, /* 7bit, 8bit, binary */
  MIMEDEC_ENC_QP,
  MIMEDEC_ENC_BASE64
} mimedec_encoding;

typedef struct {
  char content_type[MIMEDEC_TYPE_MAX]; /* lower-cased, parameters removed */
  mimedec_encoding encoding;           /* encoding the body arrived in */
  uint8_t *data;                       /* decoded body, owned by the message */
  size_t size;
} mimedec_part;

typedef struct mimedec_message mimedec_message;

/*
 * Parses and decodes the message in buf[0..len). On success *out holds a
 * message that must be released with mimedec_free(); on failure *out is
 * NULL and a negative MIMEDEC_ERR_* code is returned.
 */
int mimedec_parse(const char *buf, size_t len, mimedec_message **out);

size_t mimedec_part_count(const mimedec_message *msg);
const mimedec_part *mimedec_part_at(const mimedec_message *msg, size_t index);
void mimedec_free(mimedec_message *msg);

const char *mimedec_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* MIMEDEC_H */
