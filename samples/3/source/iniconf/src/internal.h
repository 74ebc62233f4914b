/* Private interfaces shared between the iniconf translation units. */
#ifndef INICONF_INTERNAL_H
#define INICONF_INTERNAL_H

#include <stddef.h>

#include "iniconf.h"

/* lexer.c */
struct ini_line {
    const char *ptr; /* first non-blank character, not NUL terminated */
    size_t len;      /* length with surrounding whitespace removed */
    unsigned lineno;
};

struct ini_lexer {
    const char *cur;
    const char *end;
    unsigned lineno;
};

void ini_lexer_init(struct ini_lexer *lx, const char *data, size_t size);
int ini_lexer_next(struct ini_lexer *lx, struct ini_line *line);
int ini_is_space(int c);
int ini_is_comment_start(int c);

/* value.c */
ini_status ini_copy_plain(const char *src, size_t len, char *dst,
                          size_t dstsize);
ini_status ini_unescape(const char *src, size_t len, char *dst,
                        size_t dstsize, size_t *outlen);
ini_status ini_parse_long(const char *s, long *out);
ini_status ini_parse_bool(const char *s, int *out);

/* doc.c */
ini_doc *ini_doc_new(unsigned flags);
ini_status ini_doc_add_section(ini_doc *doc, const char *name, size_t *idx);
ini_status ini_doc_set(ini_doc *doc, size_t sidx, const char *key,
                       const char *value);

#endif /* INICONF_INTERNAL_H */
