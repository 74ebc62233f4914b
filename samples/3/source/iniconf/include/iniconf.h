/*
 * iniconf - a small INI / configuration file parser.
 *
 * Documents are parsed from a memory buffer into an in-memory tree of
 * sections and key/value pairs.  All strings handed out by the accessors
 * are owned by the document and stay valid until ini_doc_free().
 */
#ifndef INICONF_H
#define INICONF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits on the decoded length of names and values, terminator included. */
#define INI_MAX_SECTION 128
#define INI_MAX_KEY     128
#define INI_MAX_VALUE   256

/* Parser flags. */
#define INI_INLINE_COMMENTS  0x01u /* allow "key = value ; comment" */
#define INI_NO_DUPLICATES    0x02u /* reject a key set twice in one section */

typedef enum {
    INI_OK = 0,
    INI_ERR_NOMEM,
    INI_ERR_SYNTAX,
    INI_ERR_TOO_LONG,
    INI_ERR_ESCAPE,
    INI_ERR_DUPLICATE,
    INI_ERR_RANGE
} ini_status;

typedef struct {
    ini_status status;
    unsigned line; /* 1-based line of the error, 0 if not line related */
} ini_error;

typedef struct ini_doc ini_doc;

ini_status ini_parse_buffer(const char *data, size_t size, unsigned flags,
                            ini_doc **out, ini_error *err);
void ini_doc_free(ini_doc *doc);

/* Entries that appear before the first [section] live in section "". */
const char *ini_get(const ini_doc *doc, const char *section, const char *key);
ini_status ini_get_int(const ini_doc *doc, const char *section,
                       const char *key, long *out);
ini_status ini_get_bool(const ini_doc *doc, const char *section,
                        const char *key, int *out);

size_t ini_section_count(const ini_doc *doc);
const char *ini_section_name(const ini_doc *doc, size_t idx);
size_t ini_key_count(const ini_doc *doc, size_t idx);
int ini_key_at(const ini_doc *doc, size_t sidx, size_t kidx,
               const char **key, const char **value);

const char *ini_strerror(ini_status st);

#ifdef __cplusplus
}
#endif

#endif /* INICONF_H */
