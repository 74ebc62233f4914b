/*
 * libFuzzer entry point: parses the input as a configuration file and, if
 * it is accepted, walks every section and key through the lookup and typed
 * accessors.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iniconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ini_doc *doc = NULL;
    ini_error err;
    size_t s, k, nsec;

    /* Larger inputs only slow the fuzzer down without reaching new code. */
    if (size > 65536)
        return 0;

    if (ini_parse_buffer((const char *)data, size, INI_INLINE_COMMENTS, &doc,
                         &err) != INI_OK) {
        (void)ini_strerror(err.status);
        return 0;
    }

    nsec = ini_section_count(doc);
    for (s = 0; s < nsec; s++) {
        const char *sec = ini_section_name(doc, s);
        size_t nkeys = ini_key_count(doc, s);

        for (k = 0; k < nkeys; k++) {
            const char *key, *value, *found;
            long l;
            int b;

            if (ini_key_at(doc, s, k, &key, &value) != 0)
                continue;
            found = ini_get(doc, sec, key);
            if (!found || strcmp(found, value) != 0)
                __builtin_trap();
            (void)ini_get_int(doc, sec, key, &l);
            (void)ini_get_bool(doc, sec, key, &b);
        }
    }

    ini_doc_free(doc);
    return 0;
}
