/*
 * Message level: top-level headers, multipart splitting (RFC 2046, section
 * 5.1) and the public API.
 *
 * Nested multiparts are not descended into; such a part is returned with its
 * body undecoded, which is also what its identity encoding requires.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct mimedec_message {
  mimedec_part *parts;
  size_t count;
  size_t capacity;
};

static int add_part(mimedec_message *msg, const struct mimedec_headers *hdr,
                    const char *body, size_t len) {
  mimedec_part *part;
  int rc;

  if (msg->count == msg->capacity) {
    size_t cap = msg->capacity ? msg->capacity * 2 : 4;
    mimedec_part *grown;

    if (msg->count >= MIMEDEC_PARTS_MAX) return MIMEDEC_ERR_LIMIT;
    grown = realloc(msg->parts, cap * sizeof(*grown));
    if (grown == NULL) return MIMEDEC_ERR_NOMEM;
    msg->parts = grown;
    msg->capacity = cap;
  }

  part = &msg->parts[msg->count];
  memset(part, 0, sizeof(*part));
  /* RFC 2045, section 5.2: the default is text/plain. */
  strcpy(part->content_type,
         hdr->content_type[0] != '\0' ? hdr->content_type : "text/plain");
  part->encoding = hdr->encoding;

  rc = mimedec_decode_body(hdr->encoding, body, len, &part->data, &part->size);
  if (rc != MIMEDEC_OK) return rc;
  msg->count++;
  return MIMEDEC_OK;
}

static int parse_part(mimedec_message *msg, const char *buf, size_t len) {
  struct mimedec_headers hdr;
  size_t body_off;
  int rc;

  rc = mimedec_parse_headers(buf, len, &hdr, &body_off);
  if (rc != MIMEDEC_OK) return rc;
  return add_part(msg, &hdr, buf + body_off, len - body_off);
}

/*
 * Classifies a line against the boundary: 1 for a delimiter "--b", 2 for
 * the close delimiter "--b--", 0 otherwise. Trailing whitespace is allowed.
 */
static int delimiter_kind(const char *line, size_t len, const char *b,
                          size_t blen) {
  size_t i = blen + 2;
  int kind = 1;

  if (len < i || line[0] != '-' || line[1] != '-' ||
      memcmp(line + 2, b, blen) != 0) {
    return 0;
  }
  if (len - i >= 2 && line[i] == '-' && line[i + 1] == '-') {
    kind = 2;
    i += 2;
  }
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  return i == len ? kind : 0;
}

static int split_multipart(mimedec_message *msg, const char *body, size_t len,
                           const char *boundary) {
  size_t blen = strlen(boundary), pos = 0, part_start = 0, line_len;
  const char *line;
  int in_part = 0, rc;

  for (;;) {
    size_t line_off = pos;
    int kind;

    if (!mimedec_next_line(body, len, &pos, &line, &line_len)) break;
    kind = delimiter_kind(line, line_len, boundary, blen);
    if (kind == 0) continue;

    if (in_part) {
      /* The line break before a delimiter belongs to the delimiter. */
      size_t end = line_off;
      if (end > part_start && body[end - 1] == '\n') end--;
      if (end > part_start && body[end - 1] == '\r') end--;
      rc = parse_part(msg, body + part_start, end - part_start);
      if (rc != MIMEDEC_OK) return rc;
    }
    if (kind == 2) return MIMEDEC_OK; /* the epilogue is ignored */
    in_part = 1;
    part_start = pos;
  }

  /* No close delimiter: keep what was there rather than losing it. */
  if (in_part) return parse_part(msg, body + part_start, len - part_start);
  return MIMEDEC_ERR_SYNTAX;
}

int mimedec_parse(const char *buf, size_t len, mimedec_message **out) {
  struct mimedec_headers top;
  mimedec_message *msg;
  size_t body_off;
  int rc;

  *out = NULL;
  msg = calloc(1, sizeof(*msg));
  if (msg == NULL) return MIMEDEC_ERR_NOMEM;

  rc = mimedec_parse_headers(buf, len, &top, &body_off);
  if (rc == MIMEDEC_OK) {
    if (strncmp(top.content_type, "multipart/", 10) != 0) {
      rc = add_part(msg, &top, buf + body_off, len - body_off);
    } else if (top.boundary[0] == '\0') {
      rc = MIMEDEC_ERR_SYNTAX;
    } else {
      rc = split_multipart(msg, buf + body_off, len - body_off, top.boundary);
    }
  }

  if (rc != MIMEDEC_OK) {
    mimedec_free(msg);
    return rc;
  }
  *out = msg;
  return MIMEDEC_OK;
}

size_t mimedec_part_count(const mimedec_message *msg) {
  return msg != NULL ? msg->count : 0;
}

const mimedec_part *mimedec_part_at(const mimedec_message *msg, size_t index) {
  if (msg == NULL || index >= msg->count) return NULL;
  return &msg->parts[index];
}

void mimedec_free(mimedec_message *msg) {
  if (msg == NULL) return;
  for (size_t i = 0; i < msg->count; i++) free(msg->parts[i].data);
  free(msg->parts);
  free(msg);
}

const char *mimedec_strerror(int err) {
  switch (err) {
  case MIMEDEC_OK:
    return "success";
  case MIMEDEC_ERR_NOMEM:
    return "out of memory";
  case MIMEDEC_ERR_SYNTAX:
    return "malformed message";
  case MIMEDEC_ERR_LIMIT:
    return "message exceeds a decoder limit";
  case MIMEDEC_ERR_ENCODING:
    return "unsupported content-transfer-encoding";
  default:
    return "unknown error";
  }
}
