/*
 * Bencode encoder.  Children are written in stored order, so a tree that
 * came from be_decode() encodes back to the exact bytes it was decoded from.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static size_t decimal_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static size_t signed_len(int64_t v)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	return decimal_len(mag) + (v < 0);
}

size_t be_encoded_size(const struct be_node *node)
{
	size_t n, i;

	if (!node)
		return 0;

	switch (node->type) {
	case BE_INT:
		return 2 + signed_len(node->u.i);
	case BE_STR:
		return decimal_len(node->u.s.len) + 1 + node->u.s.len;
	case BE_LIST:
	case BE_DICT:
		n = 2;
		for (i = 0; i < node->u.c.count; i++)
			n += be_encoded_size(&node->u.c.items[i]);
		return n;
	case BE_NONE:
		break;
	}
	return 0;
}

struct be_writer {
	unsigned char *buf;
	size_t cap;
	size_t pos;
};

static int put(struct be_writer *w, const void *data, size_t len)
{
	if (len > w->cap - w->pos)
		return -1;
	memcpy(w->buf + w->pos, data, len);
	w->pos += len;
	return 0;
}

static int put_byte(struct be_writer *w, unsigned char c)
{
	return put(w, &c, 1);
}

static int write_node(struct be_writer *w, const struct be_node *node)
{
	char tmp[32];
	size_t i;
	int n;

	switch (node->type) {
	case BE_INT:
		n = snprintf(tmp, sizeof(tmp), "i%" PRId64 "e", node->u.i);
		return put(w, tmp, (size_t)n);
	case BE_STR:
		n = snprintf(tmp, sizeof(tmp), "%zu:", node->u.s.len);
		if (put(w, tmp, (size_t)n) < 0)
			return -1;
		return put(w, node->u.s.ptr, node->u.s.len);
	case BE_LIST:
	case BE_DICT:
		if (put_byte(w, node->type == BE_LIST ? 'l' : 'd') < 0)
			return -1;
		for (i = 0; i < node->u.c.count; i++) {
			if (write_node(w, &node->u.c.items[i]) < 0)
				return -1;
		}
		return put_byte(w, 'e');
	case BE_NONE:
		break;
	}
	return -1;
}

size_t be_encode(const struct be_node *node, void *buf, size_t cap)
{
	struct be_writer w;

	if (!node)
		return 0;
	w.buf = buf;
	w.cap = cap;
	w.pos = 0;
	if (write_node(&w, node) < 0)
		return 0;
	return w.pos;
}
