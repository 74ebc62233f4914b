/*
 * Line-level grammar:
 *
 *   line     = section | entry
 *   section  = "[" name "]" [comment]
 *   entry    = key ("=" | ":") [value] [comment]
 *   value    = '"' escaped-text '"' | "'" literal-text "'" | bare-text
 *
 * Blank lines and lines starting with ';' or '#' are dropped by the lexer.
 */
#include <string.h>

#include "internal.h"

struct ini_parser {
    ini_doc *doc;
    unsigned flags;
    size_t section;   /* index of the current section */
    int have_section; /* 0 until the first header or entry */
};

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && ini_is_space((unsigned char)*p))
        p++;
    return p;
}

static const char *trim_right(const char *start, const char *end)
{
    while (end > start && ini_is_space((unsigned char)end[-1]))
        end--;
    return end;
}

/* Whatever follows a header or a quoted value may only be a comment. */
static int only_comment(const char *p, const char *end)
{
    p = skip_space(p, end);
    return p == end || ini_is_comment_start((unsigned char)*p);
}

static int valid_name_char(int c)
{
    return c > 0x20 && c != 0x7f && c != '[' && c != ']' && c != '=' &&
           c != ':' && c != ';' && c != '#' && c != '"' && c != '\'';
}

static ini_status parse_section(struct ini_parser *p,
                                const struct ini_line *ln)
{
    char name[INI_MAX_SECTION];
    const char *end = ln->ptr + ln->len;
    const char *s = skip_space(ln->ptr + 1, end);
    const char *close = memchr(s, ']', (size_t)(end - s));
    const char *e, *q;
    ini_status st;

    if (!close || !only_comment(close + 1, end))
        return INI_ERR_SYNTAX;
    e = trim_right(s, close);
    if (e == s)
        return INI_ERR_SYNTAX;

    /* Dotted and spaced names ("server.eu west") are allowed. */
    for (q = s; q < e; q++)
        if (*q != ' ' && !valid_name_char((unsigned char)*q))
            return INI_ERR_SYNTAX;

    st = ini_copy_plain(s, (size_t)(e - s), name, sizeof(name));
    if (st != INI_OK)
        return st;

    st = ini_doc_add_section(p->doc, name, &p->section);
    if (st == INI_OK)
        p->have_section = 1;
    return st;
}

/* Finds the closing double quote, stepping over backslash escapes. */
static const char *find_close_quote(const char *p, const char *end)
{
    while (p < end) {
        if (*p == '\\') {
            if (end - p < 2)
                return NULL;
            p += 2;
            continue;
        }
        if (*p == '"')
            return p;
        p++;
    }
    return NULL;
}

static ini_status parse_value(struct ini_parser *p, const char *v,
                              const char *end, char *out, size_t outsize)
{
    const char *close;

    if (v < end && *v == '"') {
        close = find_close_quote(v + 1, end);
        if (!close || !only_comment(close + 1, end))
            return INI_ERR_SYNTAX;
        return ini_unescape(v + 1, (size_t)(close - (v + 1)), out, outsize,
                            NULL);
    }

    if (v < end && *v == '\'') {
        /* Single quotes are literal: no escapes at all. */
        close = memchr(v + 1, '\'', (size_t)(end - (v + 1)));
        if (!close || !only_comment(close + 1, end))
            return INI_ERR_SYNTAX;
        return ini_copy_plain(v + 1, (size_t)(close - (v + 1)), out,
                              outsize);
    }

    if (p->flags & INI_INLINE_COMMENTS) {
        /* A comment marker only starts a comment after whitespace, so
         * that values such as "http://host/#anchor" survive. */
        const char *q;
        for (q = v; q < end; q++) {
            if (ini_is_comment_start((unsigned char)*q) && q > v &&
                ini_is_space((unsigned char)q[-1])) {
                end = q;
                break;
            }
        }
        end = trim_right(v, end);
    }
    return ini_copy_plain(v, (size_t)(end - v), out, outsize);
}

static ini_status parse_entry(struct ini_parser *p, const struct ini_line *ln)
{
    char key[INI_MAX_KEY];
    char value[INI_MAX_VALUE];
    const char *end = ln->ptr + ln->len;
    const char *sep, *k_end, *q;
    ini_status st;

    for (sep = ln->ptr; sep < end; sep++)
        if (*sep == '=' || *sep == ':')
            break;
    if (sep == end)
        return INI_ERR_SYNTAX;

    k_end = trim_right(ln->ptr, sep);
    if (k_end == ln->ptr)
        return INI_ERR_SYNTAX;
    for (q = ln->ptr; q < k_end; q++)
        if (!valid_name_char((unsigned char)*q))
            return INI_ERR_SYNTAX;

    st = ini_copy_plain(ln->ptr, (size_t)(k_end - ln->ptr), key, sizeof(key));
    if (st != INI_OK)
        return st;

    st = parse_value(p, skip_space(sep + 1, end), end, value, sizeof(value));
    if (st != INI_OK)
        return st;

    /* Entries before any header belong to the unnamed global section. */
    if (!p->have_section) {
        st = ini_doc_add_section(p->doc, "", &p->section);
        if (st != INI_OK)
            return st;
        p->have_section = 1;
    }
    return ini_doc_set(p->doc, p->section, key, value);
}

static ini_status parse_line(struct ini_parser *p, const struct ini_line *ln)
{
    if (ln->ptr[0] == '[')
        return parse_section(p, ln);
    return parse_entry(p, ln);
}

ini_status ini_parse_buffer(const char *data, size_t size, unsigned flags,
                            ini_doc **out, ini_error *err)
{
    struct ini_parser p;
    struct ini_lexer lx;
    struct ini_line ln;
    ini_status st = INI_OK;

    memset(&p, 0, sizeof(p));
    p.flags = flags;
    p.doc = ini_doc_new(flags);
    if (!p.doc) {
        st = INI_ERR_NOMEM;
        goto done;
    }

    ini_lexer_init(&lx, data, size);
    while (ini_lexer_next(&lx, &ln)) {
        st = parse_line(&p, &ln);
        if (st != INI_OK)
            break;
    }

done:
    if (err) {
        err->status = st;
        err->line = st == INI_OK || st == INI_ERR_NOMEM ? 0 : ln.lineno;
    }
    if (st != INI_OK) {
        ini_doc_free(p.doc);
        p.doc = NULL;
    }
    *out = p.doc;
    return st;
}

const char *ini_strerror(ini_status st)
{
    switch (st) {
    case INI_OK:            return "success";
    case INI_ERR_NOMEM:     return "out of memory";
    case INI_ERR_SYNTAX:    return "syntax error";
    case INI_ERR_TOO_LONG:  return "name or value too long";
    case INI_ERR_ESCAPE:    return "invalid escape sequence";
    case INI_ERR_DUPLICATE: return "duplicate key";
    case INI_ERR_RANGE:     return "number out of range";
    }
    return "unknown error";
}
