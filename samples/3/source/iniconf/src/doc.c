/*
 * In-memory document model: an array of sections, each holding an array
 * of key/value pairs in file order.  Documents are small, so lookups are
 * linear scans.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ini_entry {
    char *key;
    char *value;
};

struct ini_section {
    char *name;
    struct ini_entry *entries;
    size_t count;
    size_t cap;
};

struct ini_doc {
    struct ini_section *sections;
    size_t count;
    size_t cap;
    unsigned flags;
};

static char *dup_string(const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = malloc(len);

    if (p)
        memcpy(p, s, len);
    return p;
}

/* Grows *base so that it has room for at least one more element. */
static int reserve_one(void **base, size_t *cap, size_t count, size_t elem)
{
    size_t ncap;
    void *p;

    if (count < *cap)
        return 0;
    ncap = *cap ? *cap * 2 : 4;
    if (ncap > (size_t)-1 / elem)
        return -1;
    p = realloc(*base, ncap * elem);
    if (!p)
        return -1;
    *base = p;
    *cap = ncap;
    return 0;
}

ini_doc *ini_doc_new(unsigned flags)
{
    ini_doc *doc = calloc(1, sizeof(*doc));

    if (doc)
        doc->flags = flags;
    return doc;
}

void ini_doc_free(ini_doc *doc)
{
    size_t i, j;

    if (!doc)
        return;
    for (i = 0; i < doc->count; i++) {
        struct ini_section *sec = &doc->sections[i];
        for (j = 0; j < sec->count; j++) {
            free(sec->entries[j].key);
            free(sec->entries[j].value);
        }
        free(sec->entries);
        free(sec->name);
    }
    free(doc->sections);
    free(doc);
}

static const struct ini_section *find_section(const ini_doc *doc,
                                              const char *name, size_t *idx)
{
    size_t i;

    for (i = 0; i < doc->count; i++) {
        if (strcmp(doc->sections[i].name, name) == 0) {
            if (idx)
                *idx = i;
            return &doc->sections[i];
        }
    }
    return NULL;
}

/* A section that is opened twice is merged with its first occurrence. */
ini_status ini_doc_add_section(ini_doc *doc, const char *name, size_t *idx)
{
    struct ini_section *sec;

    if (find_section(doc, name, idx))
        return INI_OK;

    if (reserve_one((void **)&doc->sections, &doc->cap, doc->count,
                    sizeof(*doc->sections)) != 0)
        return INI_ERR_NOMEM;
    sec = &doc->sections[doc->count];
    memset(sec, 0, sizeof(*sec));
    sec->name = dup_string(name);
    if (!sec->name)
        return INI_ERR_NOMEM;
    *idx = doc->count++;
    return INI_OK;
}

ini_status ini_doc_set(ini_doc *doc, size_t sidx, const char *key,
                       const char *value)
{
    struct ini_section *sec = &doc->sections[sidx];
    struct ini_entry *ent;
    char *v;
    size_t i;

    for (i = 0; i < sec->count; i++) {
        if (strcmp(sec->entries[i].key, key) != 0)
            continue;
        if (doc->flags & INI_NO_DUPLICATES)
            return INI_ERR_DUPLICATE;
        /* Later assignments override earlier ones. */
        v = dup_string(value);
        if (!v)
            return INI_ERR_NOMEM;
        free(sec->entries[i].value);
        sec->entries[i].value = v;
        return INI_OK;
    }

    if (reserve_one((void **)&sec->entries, &sec->cap, sec->count,
                    sizeof(*sec->entries)) != 0)
        return INI_ERR_NOMEM;
    ent = &sec->entries[sec->count];
    ent->key = dup_string(key);
    ent->value = dup_string(value);
    if (!ent->key || !ent->value) {
        free(ent->key);
        free(ent->value);
        return INI_ERR_NOMEM;
    }
    sec->count++;
    return INI_OK;
}

const char *ini_get(const ini_doc *doc, const char *section, const char *key)
{
    const struct ini_section *sec = find_section(doc, section, NULL);
    size_t i;

    if (!sec)
        return NULL;
    for (i = 0; i < sec->count; i++)
        if (strcmp(sec->entries[i].key, key) == 0)
            return sec->entries[i].value;
    return NULL;
}

ini_status ini_get_int(const ini_doc *doc, const char *section,
                       const char *key, long *out)
{
    const char *v = ini_get(doc, section, key);

    return v ? ini_parse_long(v, out) : INI_ERR_SYNTAX;
}

ini_status ini_get_bool(const ini_doc *doc, const char *section,
                        const char *key, int *out)
{
    const char *v = ini_get(doc, section, key);

    return v ? ini_parse_bool(v, out) : INI_ERR_SYNTAX;
}

size_t ini_section_count(const ini_doc *doc)
{
    return doc->count;
}

const char *ini_section_name(const ini_doc *doc, size_t idx)
{
    return idx < doc->count ? doc->sections[idx].name : NULL;
}

size_t ini_key_count(const ini_doc *doc, size_t idx)
{
    return idx < doc->count ? doc->sections[idx].count : 0;
}

int ini_key_at(const ini_doc *doc, size_t sidx, size_t kidx,
               const char **key, const char **value)
{
    const struct ini_section *sec;

    if (sidx >= doc->count || kidx >= doc->sections[sidx].count)
        return -1;
    sec = &doc->sections[sidx];
    *key = sec->entries[kidx].key;
    *value = sec->entries[kidx].value;
    return 0;
}
