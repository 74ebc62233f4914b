#ifndef BENCODE_INTERNAL_H
#define BENCODE_INTERNAL_H

#include "bencode.h"

/* Node flags. */
#define BE_NODE_SORTED 0x1u  /* dict keys are in ascending order */

/*
 * Children of a container are stored inline in one growable array.  A
 * dictionary keeps its entries as alternating key/value nodes, so entry i
 * has its key at items[2*i] and its value at items[2*i + 1].
 */
struct be_node {
	enum be_type type;
	unsigned flags;
	union {
		int64_t i;
		struct {
			const char *ptr;
			size_t len;
		} s;
		struct {
			struct be_node *items;
			size_t count;
			size_t cap;
		} c;
	} u;
};

/* node.c */
struct be_node *be_node_push(struct be_node *parent);
void be_node_release(struct be_node *node);

/* dict.c */
enum be_error be_dict_add_entry(struct be_node *dict,
                                const struct be_node *key, unsigned flags);

#endif /* BENCODE_INTERNAL_H */
