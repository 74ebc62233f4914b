/*
 * Line splitting for iniconf.
 *
 * The lexer never copies: it hands out (pointer, length) views into the
 * caller's buffer, already trimmed, and skips blank and comment-only lines
 * so that the parser only ever sees headers and assignments.
 */
#include <string.h>

#include "internal.h"

int ini_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

int ini_is_comment_start(int c)
{
    return c == ';' || c == '#';
}

void ini_lexer_init(struct ini_lexer *lx, const char *data, size_t size)
{
    lx->cur = data;
    lx->end = data + size;
    lx->lineno = 0;

    /* Editors on some platforms prepend a UTF-8 byte order mark. */
    if (size >= 3 && (unsigned char)data[0] == 0xEF &&
        (unsigned char)data[1] == 0xBB && (unsigned char)data[2] == 0xBF)
        lx->cur += 3;
}

/*
 * Returns 1 and fills *line with the next significant line, or 0 once the
 * input is exhausted.  Both "\n" and "\r\n" terminate a line; a lone "\r"
 * is treated as ordinary whitespace.
 */
int ini_lexer_next(struct ini_lexer *lx, struct ini_line *line)
{
    while (lx->cur < lx->end) {
        const char *start = lx->cur;
        const char *nl = memchr(start, '\n', (size_t)(lx->end - start));
        const char *stop = nl ? nl : lx->end;

        lx->cur = nl ? nl + 1 : lx->end;
        lx->lineno++;

        while (start < stop && (ini_is_space((unsigned char)*start) ||
                                *start == '\r'))
            start++;
        while (stop > start && (ini_is_space((unsigned char)stop[-1]) ||
                                stop[-1] == '\r'))
            stop--;

        if (start == stop || ini_is_comment_start((unsigned char)*start))
            continue;

        line->ptr = start;
        line->len = (size_t)(stop - start);
        line->lineno = lx->lineno;
        return 1;
    }
    return 0;
}
