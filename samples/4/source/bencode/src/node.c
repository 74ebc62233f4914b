/*
 * Node storage and read-only accessors.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Initial child capacity; most lists and dicts in metainfo files are small. */
#define BE_MIN_CHILDREN 8

/*
 * Append a zeroed child slot to a list or dict and return it.  The returned
 * pointer refers into parent's child array and is only valid until the next
 * push onto the same parent.
 */
struct be_node *be_node_push(struct be_node *parent)
{
	struct be_node *child;

	if (parent->u.c.count == parent->u.c.cap) {
		size_t cap = parent->u.c.cap;
		struct be_node *items;

		/* Grow by half rather than doubling: long lists are common in
		 * metainfo files and doubling wastes a lot of memory there. */
		cap = cap < BE_MIN_CHILDREN ? BE_MIN_CHILDREN : cap + cap / 2;
		if (cap > SIZE_MAX / sizeof(*items))
			return NULL;
		items = realloc(parent->u.c.items, cap * sizeof(*items));
		if (!items)
			return NULL;
		parent->u.c.items = items;
		parent->u.c.cap = cap;
	}

	child = &parent->u.c.items[parent->u.c.count++];
	memset(child, 0, sizeof(*child));
	return child;
}

/* Free everything a node owns, but not the node itself. */
void be_node_release(struct be_node *node)
{
	size_t i;

	if (node->type != BE_LIST && node->type != BE_DICT)
		return;
	for (i = 0; i < node->u.c.count; i++)
		be_node_release(&node->u.c.items[i]);
	free(node->u.c.items);
	node->u.c.items = NULL;
	node->u.c.count = 0;
	node->u.c.cap = 0;
}

void be_free(struct be_node *node)
{
	if (!node)
		return;
	be_node_release(node);
	free(node);
}

enum be_type be_type(const struct be_node *node)
{
	return node ? node->type : BE_NONE;
}

int64_t be_int(const struct be_node *node)
{
	return (node && node->type == BE_INT) ? node->u.i : 0;
}

const char *be_str(const struct be_node *node, size_t *len)
{
	if (!node || node->type != BE_STR) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = node->u.s.len;
	return node->u.s.ptr;
}

size_t be_list_len(const struct be_node *list)
{
	return (list && list->type == BE_LIST) ? list->u.c.count : 0;
}

const struct be_node *be_list_get(const struct be_node *list, size_t idx)
{
	if (!list || list->type != BE_LIST || idx >= list->u.c.count)
		return NULL;
	return &list->u.c.items[idx];
}
