/*
 * Value decoding for iniconf: quoted strings with escapes, plus the
 * integer and boolean conversions used by the typed accessors.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads exactly 'digits' hex digits from src; fails if fewer are left. */
static int read_hex(const char *src, size_t avail, int digits,
                    unsigned long *out)
{
    unsigned long v = 0;
    int i;

    if (avail < (size_t)digits)
        return -1;
    for (i = 0; i < digits; i++) {
        int d = hex_digit((unsigned char)src[i]);
        if (d < 0)
            return -1;
        v = (v << 4) | (unsigned long)d;
    }
    *out = v;
    return 0;
}

ini_status ini_copy_plain(const char *src, size_t len, char *dst,
                          size_t dstsize)
{
    if (len >= dstsize)
        return INI_ERR_TOO_LONG;
    memcpy(dst, src, len);
    dst[len] = '\0';
    return INI_OK;
}

/*
 * Decodes the body of a double-quoted value (without the quotes) into dst.
 * Supported escapes: \\ \" \' \n \r \t \; \# \xHH and \uXXXX, the latter
 * being stored as UTF-8.  NUL cannot be represented in the C strings the
 * accessors return, so \x00 and \u0000 are rejected, as are surrogates.
 */
ini_status ini_unescape(const char *src, size_t len, char *dst,
                        size_t dstsize, size_t *outlen)
{
    size_t i = 0, n = 0;

    if (dstsize == 0)
        return INI_ERR_TOO_LONG;

    while (i < len) {
        unsigned char c = (unsigned char)src[i++];
        unsigned long cp;

        /* Always keep one byte for the terminator. */
        if (n + 1 >= dstsize)
            return INI_ERR_TOO_LONG;

        if (c != '\\') {
            dst[n++] = (char)c;
            continue;
        }
        if (i >= len)
            return INI_ERR_ESCAPE;

        c = (unsigned char)src[i++];
        switch (c) {
        case '\\':
        case '"':
        case '\'':
        case ';':
        case '#':
            dst[n++] = (char)c;
            break;
        case 'n':
            dst[n++] = '\n';
            break;
        case 'r':
            dst[n++] = '\r';
            break;
        case 't':
            dst[n++] = '\t';
            break;
        case 'x':
            if (read_hex(src + i, len - i, 2, &cp) != 0 || cp == 0)
                return INI_ERR_ESCAPE;
            i += 2;
            dst[n++] = (char)cp;
            break;
        case 'u':
            if (read_hex(src + i, len - i, 4, &cp) != 0)
                return INI_ERR_ESCAPE;
            i += 4;
            if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
                return INI_ERR_ESCAPE;
            if (cp < 0x80) {
                dst[n++] = (char)cp;
            } else if (cp < 0x800) {
                dst[n++] = (char)(0xC0 | (cp >> 6));
                dst[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                dst[n++] = (char)(0xE0 | (cp >> 12));
                dst[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                dst[n++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        default:
            return INI_ERR_ESCAPE;
        }
    }

    dst[n] = '\0';
    if (outlen)
        *outlen = n;
    return INI_OK;
}

/* Decimal, or hexadecimal with a 0x prefix, with an optional sign. */
ini_status ini_parse_long(const char *s, long *out)
{
    unsigned long limit, v = 0;
    int neg = 0, base = 10, any = 0;

    if (*s == '+' || *s == '-')
        neg = (*s++ == '-');
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    limit = neg ? (unsigned long)LONG_MAX + 1ul : (unsigned long)LONG_MAX;

    for (; *s; s++) {
        int d = hex_digit((unsigned char)*s);
        if (d < 0 || d >= base)
            return INI_ERR_SYNTAX;
        if (v > (limit - (unsigned long)d) / (unsigned long)base)
            return INI_ERR_RANGE;
        v = v * (unsigned long)base + (unsigned long)d;
        any = 1;
    }
    if (!any)
        return INI_ERR_SYNTAX;

    if (neg)
        *out = v == (unsigned long)LONG_MAX + 1ul ? LONG_MIN : -(long)v;
    else
        *out = (long)v;
    return INI_OK;
}

ini_status ini_parse_bool(const char *s, int *out)
{
    static const char *const yes[] = { "1", "true", "yes", "on" };
    static const char *const no[] = { "0", "false", "no", "off" };
    size_t i;

    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = 1;
            return INI_OK;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = 0;
            return INI_OK;
        }
    }
    return INI_ERR_SYNTAX;
}
