/* Declarations shared between the mimedec source files. Not installed. */
#ifndef MIMEDEC_INTERNAL_H
#define MIMEDEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mimedec.h"

#define MIMEDEC_BOUNDARY_MAX 70 /* RFC 2046, section 5.1.1 */
#define MIMEDEC_FIELD_MAX 998   /* RFC 5322 line length limit */
#define MIMEDEC_PARTS_MAX 64

struct mimedec_headers {
  char content_type[MIMEDEC_TYPE_MAX]; /* empty if no Content-Type field */
  char boundary[MIMEDEC_BOUNDARY_MAX + 1];
  mimedec_encoding encoding;
};

/* header.c */
int mimedec_next_line(const char *buf, size_t len, size_t *pos,
                      const char **line, size_t *line_len);
int mimedec_parse_headers(const char *buf, size_t len,
                          struct mimedec_headers *hdr, size_t *body_off);

/* body.c */
int mimedec_decode_body(mimedec_encoding enc, const char *in, size_t len,
                        uint8_t **out, size_t *out_len);

/* qp.c */
int mimedec_hexval(int c);
size_t mimedec_qp_soft_break(const char *in, size_t len, size_t i);
size_t mimedec_qp_decode(const char *in, size_t len, uint8_t *out);

/* base64.c */
int mimedec_b64val(int c);
size_t mimedec_b64_decode(const char *in, size_t len, uint8_t *out);

#endif /* MIMEDEC_INTERNAL_H */
