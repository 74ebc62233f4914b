/*
 * Header block parsing: line splitting, folded fields, and the two fields
 * mimedec cares about (Content-Type with its boundary parameter, and
 * Content-Transfer-Encoding). Other fields are skipped.
 */
#include <string.h>

#include "internal.h"

static int is_wsp(char c) { return c == ' ' || c == '\t'; }

static int to_lower(int c) {
  return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* Case-insensitive comparison of s[0..n) with the NUL-terminated lit. */
static int token_eq(const char *s, size_t n, const char *lit) {
  size_t i;

  for (i = 0; i < n; i++) {
    if (lit[i] == '\0' || to_lower((unsigned char)s[i]) != lit[i]) return 0;
  }
  return lit[i] == '\0';
}

/*
 * Returns the next line of buf starting at *pos, without its line ending
 * (LF or CRLF), and advances *pos past the ending. Returns 0 at the end.
 */
int mimedec_next_line(const char *buf, size_t len, size_t *pos,
                      const char **line, size_t *line_len) {
  size_t start = *pos, end;
  const char *nl;

  if (start >= len) return 0;
  nl = memchr(buf + start, '\n', len - start);
  end = nl != NULL ? (size_t)(nl - buf) : len;
  *pos = nl != NULL ? end + 1 : len;
  if (end > start && buf[end - 1] == '\r') end--;
  *line = buf + start;
  *line_len = end - start;
  return 1;
}

/* Parses the ";name=value" parameter list of a Content-Type field. */
static int parse_params(struct mimedec_headers *hdr, const char *p,
                        const char *end) {
  while (p < end) {
    char value[MIMEDEC_BOUNDARY_MAX + 1];
    size_t vlen = 0;
    const char *name;
    size_t nlen;

    while (p < end && (*p == ';' || is_wsp(*p))) p++;
    name = p;
    while (p < end && *p != '=' && *p != ';' && !is_wsp(*p)) p++;
    nlen = (size_t)(p - name);
    while (p < end && is_wsp(*p)) p++;
    if (p >= end || *p != '=') continue; /* attribute without a value */
    p++;
    while (p < end && is_wsp(*p)) p++;

    /* Values longer than the buffer are only measured, not stored. */
    if (p < end && *p == '"') {
      for (p++; p < end && *p != '"'; p++) {
        if (*p == '\\' && p + 1 < end) p++; /* quoted-pair */
        if (vlen < sizeof(value)) value[vlen] = *p;
        vlen++;
      }
      if (p >= end) return MIMEDEC_ERR_SYNTAX; /* unterminated string */
      p++;
    } else {
      for (; p < end && *p != ';' && !is_wsp(*p); p++) {
        if (vlen < sizeof(value)) value[vlen] = *p;
        vlen++;
      }
    }

    if (token_eq(name, nlen, "boundary")) {
      if (vlen == 0) return MIMEDEC_ERR_SYNTAX;
      if (vlen > MIMEDEC_BOUNDARY_MAX) return MIMEDEC_ERR_LIMIT;
      memcpy(hdr->boundary, value, vlen);
      hdr->boundary[vlen] = '\0';
    }
  }
  return MIMEDEC_OK;
}

static int parse_content_type(struct mimedec_headers *hdr, const char *v,
                              const char *end) {
  const char *p = v;
  size_t n;

  while (p < end && *p != ';' && !is_wsp(*p)) p++;
  n = (size_t)(p - v);
  if (n == 0 || memchr(v, '/', n) == NULL) return MIMEDEC_ERR_SYNTAX;
  if (n >= sizeof(hdr->content_type)) return MIMEDEC_ERR_LIMIT;
  for (size_t i = 0; i < n; i++) {
    hdr->content_type[i] = (char)to_lower((unsigned char)v[i]);
  }
  hdr->content_type[n] = '\0';
  return parse_params(hdr, p, end);
}

static int parse_encoding(struct mimedec_headers *hdr, const char *v,
                          const char *end) {
  size_t n = (size_t)(end - v);

  if (token_eq(v, n, "7bit") || token_eq(v, n, "8bit") ||
      token_eq(v, n, "binary")) {
    hdr->encoding = MIMEDEC_ENC_IDENTITY;
  } else if (token_eq(v, n, "quoted-printable")) {
    hdr->encoding = MIMEDEC_ENC_QP;
  } else if (token_eq(v, n, "base64")) {
    hdr->encoding = MIMEDEC_ENC_BASE64;
  } else {
    return MIMEDEC_ERR_ENCODING;
  }
  return MIMEDEC_OK;
}

/* Handles one unfolded "Name: value" field. */
static int parse_field(struct mimedec_headers *hdr, const char *f, size_t n) {
  const char *colon = memchr(f, ':', n);
  const char *name_end, *v, *end = f + n;

  if (colon == NULL || colon == f) return MIMEDEC_ERR_SYNTAX;
  for (name_end = colon; name_end > f && is_wsp(name_end[-1]); name_end--) {
  }
  for (v = colon + 1; v < end && is_wsp(*v); v++) {
  }
  while (end > v && is_wsp(end[-1])) end--;

  if (token_eq(f, (size_t)(name_end - f), "content-type")) {
    return parse_content_type(hdr, v, end);
  }
  if (token_eq(f, (size_t)(name_end - f), "content-transfer-encoding")) {
    return parse_encoding(hdr, v, end);
  }
  return MIMEDEC_OK;
}

/*
 * Parses the header block at the start of buf[0..len). The block ends at the
 * first empty line; *body_off receives the offset just past it. A block that
 * runs to the end of the input leaves an empty body.
 */
int mimedec_parse_headers(const char *buf, size_t len,
                          struct mimedec_headers *hdr, size_t *body_off) {
  char field[MIMEDEC_FIELD_MAX];
  size_t flen = 0, pos = 0, line_len;
  const char *line;
  int rc;

  memset(hdr, 0, sizeof(*hdr));
  hdr->encoding = MIMEDEC_ENC_IDENTITY;

  while (mimedec_next_line(buf, len, &pos, &line, &line_len)) {
    if (line_len == 0) break;

    if (!is_wsp(line[0])) {
      /* A new field starts: the previous one is complete. */
      if (flen != 0 && (rc = parse_field(hdr, field, flen)) != MIMEDEC_OK) {
        return rc;
      }
      flen = 0;
    } else if (flen == 0) {
      return MIMEDEC_ERR_SYNTAX; /* continuation line with nothing to continue */
    }
    if (line_len > sizeof(field) - flen) return MIMEDEC_ERR_LIMIT;
    memcpy(field + flen, line, line_len);
    flen += line_len;
  }

  if (flen != 0 && (rc = parse_field(hdr, field, flen)) != MIMEDEC_OK) {
    return rc;
  }
  *body_off = pos;
  return MIMEDEC_OK;
}
