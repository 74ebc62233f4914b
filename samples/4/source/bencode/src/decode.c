/*
 * Recursive-descent bencode decoder.
 *
 *   int    i<decimal>e        no leading zeros, no "-0"
 *   string <length>:<bytes>   length is decimal, no leading zeros
 *   list   l<value>*e
 *   dict   d(<string><value>)*e
 */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

struct be_parser {
	const unsigned char *buf;
	size_t len;
	size_t pos;
	unsigned flags;
	unsigned depth;
	enum be_error err;
};

static int decode_node(struct be_parser *p, struct be_node *node);

static int fail(struct be_parser *p, enum be_error err)
{
	if (p->err == BE_OK)
		p->err = err;
	return -1;
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* Parse an unsigned decimal number ending at the byte `term`. */
static int parse_decimal(struct be_parser *p, unsigned char term, uint64_t max,
                         uint64_t *out)
{
	size_t start = p->pos;
	uint64_t v = 0;

	while (p->pos < p->len && is_digit(p->buf[p->pos])) {
		unsigned d = p->buf[p->pos] - '0';

		if (v > (max - d) / 10)
			return fail(p, BE_ERANGE);
		v = v * 10 + d;
		p->pos++;
	}
	if (p->pos == start)
		return fail(p, p->pos < p->len ? BE_ESYNTAX : BE_EOF);
	/* Canonical form only, so that decode/encode round-trips exactly. */
	if (p->buf[start] == '0' && p->pos - start > 1)
		return fail(p, BE_ESYNTAX);
	if (p->pos >= p->len)
		return fail(p, BE_EOF);
	if (p->buf[p->pos] != term)
		return fail(p, BE_ESYNTAX);
	p->pos++;
	*out = v;
	return 0;
}

static int decode_int(struct be_parser *p, struct be_node *node)
{
	int neg = 0;
	uint64_t v;

	p->pos++; /* 'i' */
	if (p->pos < p->len && p->buf[p->pos] == '-') {
		neg = 1;
		p->pos++;
	}
	if (parse_decimal(p, 'e', neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX,
	                  &v) < 0)
		return -1;
	if (neg && v == 0)
		return fail(p, BE_ESYNTAX);

	node->type = BE_INT;
	node->u.i = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int decode_string(struct be_parser *p, struct be_node *node)
{
	uint64_t n;

	if (parse_decimal(p, ':', UINT64_MAX, &n) < 0)
		return -1;
	if (n > p->len - p->pos)
		return fail(p, BE_EOF);

	node->type = BE_STR;
	node->u.s.ptr = (const char *)p->buf + p->pos;
	node->u.s.len = (size_t)n;
	p->pos += (size_t)n;
	return 0;
}

/* Decode the next value as a new last child of parent. */
static struct be_node *decode_child(struct be_parser *p, struct be_node *parent)
{
	struct be_node *child = be_node_push(parent);

	if (!child) {
		fail(p, BE_ENOMEM);
		return NULL;
	}
	if (decode_node(p, child) < 0)
		return NULL;
	return child;
}

/* Consume the closing 'e' of a container if it is next. */
static int at_end(struct be_parser *p)
{
	if (p->pos < p->len && p->buf[p->pos] == 'e') {
		p->pos++;
		return 1;
	}
	return 0;
}

static int decode_list(struct be_parser *p, struct be_node *list)
{
	p->pos++; /* 'l' */
	list->type = BE_LIST;

	while (!at_end(p)) {
		if (p->pos >= p->len)
			return fail(p, BE_EOF);
		if (!decode_child(p, list))
			return -1;
	}
	return 0;
}

static int decode_dict(struct be_parser *p, struct be_node *dict)
{
	p->pos++; /* 'd' */
	dict->type = BE_DICT;

	while (!at_end(p)) {
		struct be_node *key;
		enum be_error err;

		if (p->pos >= p->len)
			return fail(p, BE_EOF);
		if (!is_digit(p->buf[p->pos]))
			return fail(p, BE_EKEY);

		key = decode_child(p, dict);
		if (!key)
			return -1;
		if (!decode_child(p, dict))
			return -1;

		err = be_dict_add_entry(dict, key, p->flags);
		if (err != BE_OK)
			return fail(p, err);
	}
	return 0;
}

static int decode_node(struct be_parser *p, struct be_node *node)
{
	int ret;

	if (p->pos >= p->len)
		return fail(p, BE_EOF);

	switch (p->buf[p->pos]) {
	case 'i':
		return decode_int(p, node);
	case 'l':
	case 'd':
		if (p->depth >= BE_MAX_DEPTH)
			return fail(p, BE_EDEPTH);
		p->depth++;
		if (p->buf[p->pos] == 'l')
			ret = decode_list(p, node);
		else
			ret = decode_dict(p, node);
		p->depth--;
		return ret;
	default:
		if (is_digit(p->buf[p->pos]))
			return decode_string(p, node);
		return fail(p, BE_ESYNTAX);
	}
}

struct be_node *be_decode(const void *buf, size_t len, unsigned flags,
                          size_t *consumed, enum be_error *err)
{
	struct be_parser p = { 0 };
	struct be_node *root;

	p.buf = buf;
	p.len = len;
	p.flags = flags;

	root = calloc(1, sizeof(*root));
	if (!root) {
		fail(&p, BE_ENOMEM);
		goto out;
	}
	if (decode_node(&p, root) < 0)
		goto fail;
	if (p.pos != len && !(flags & BE_ALLOW_TRAILING)) {
		fail(&p, BE_ETRAILING);
		goto fail;
	}
	if (consumed)
		*consumed = p.pos;
	goto out;

fail:
	be_free(root);
	root = NULL;
out:
	if (err)
		*err = p.err;
	return root;
}

const char *be_strerror(enum be_error err)
{
	switch (err) {
	case BE_OK:        return "success";
	case BE_ENOMEM:    return "out of memory";
	case BE_EOF:       return "unexpected end of input";
	case BE_ESYNTAX:   return "syntax error";
	case BE_ERANGE:    return "number out of range";
	case BE_EDEPTH:    return "nesting too deep";
	case BE_EKEY:      return "dictionary key is not a string";
	case BE_EDUPKEY:   return "duplicate dictionary key";
	case BE_EORDER:    return "dictionary keys out of order";
	case BE_ETRAILING: return "trailing data after value";
	}
	return "unknown error";
}
