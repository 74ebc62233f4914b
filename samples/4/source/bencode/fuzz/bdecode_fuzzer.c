/*
 * Fuzz target: decode arbitrary bytes, check that lookups agree with the
 * stored entries, that the tree encodes back to the input, and pull the
 * usual fields out of a torrent metainfo dictionary.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bencode.h"

static void check_tree(const struct be_node *node)
{
	size_t i, n;

	switch (be_type(node)) {
	case BE_LIST:
		n = be_list_len(node);
		for (i = 0; i < n; i++)
			check_tree(be_list_get(node, i));
		break;
	case BE_DICT:
		n = be_dict_len(node);
		for (i = 0; i < n; i++) {
			size_t klen;
			const char *k = be_str(be_dict_key_at(node, i), &klen);
			const struct be_node *v = be_dict_value_at(node, i);

			if (be_dict_get(node, k, klen) != v)
				abort();
			check_tree(v);
		}
		break;
	default:
		break;
	}
}

static const struct be_node *get(const struct be_node *dict, const char *key)
{
	return be_dict_get(dict, key, strlen(key));
}

static uint64_t inspect_metainfo(const struct be_node *root)
{
	const struct be_node *info = get(root, "info");
	const struct be_node *files;
	uint64_t total = 0;
	size_t i, j, len;

	if (be_type(info) != BE_DICT)
		return 0;

	be_str(get(info, "name"), &len);
	total += len;
	be_str(get(info, "pieces"), &len);
	total += len / 20;
	total += (uint64_t)be_int(get(info, "piece length"));
	total += (uint64_t)be_int(get(info, "length"));

	files = get(info, "files");
	for (i = 0; i < be_list_len(files); i++) {
		const struct be_node *f = be_list_get(files, i);
		const struct be_node *path = get(f, "path");

		total += (uint64_t)be_int(get(f, "length"));
		for (j = 0; j < be_list_len(path); j++) {
			be_str(be_list_get(path, j), &len);
			total += len;
		}
	}
	return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile uint64_t sink;
	enum be_error err;
	struct be_node *root;
	size_t used = 0, n;
	unsigned char *out;

	root = be_decode(data, size, BE_ALLOW_TRAILING, &used, &err);
	if (!root) {
		sink += (uintptr_t)be_strerror(err);
		return 0;
	}

	check_tree(root);
	sink += inspect_metainfo(root);

	/* The decoder only accepts canonical forms, so re-encoding must
	 * reproduce the consumed bytes exactly. */
	n = be_encoded_size(root);
	if (n != used)
		abort();
	out = malloc(n);
	if (!out)
		abort();
	if (be_encode(root, out, n) != n || memcmp(out, data, n) != 0)
		abort();
	free(out);

	be_free(root);
	return 0;
}
