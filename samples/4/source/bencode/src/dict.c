/*
 * Dictionary helpers.
 *
 * Bencoded dictionaries must have unique keys sorted as raw byte strings.
 * Plenty of encoders in the wild get the ordering wrong, so by default the
 * decoder accepts unsorted dictionaries and only remembers whether the keys
 * were sorted; lookups use binary search when they were and fall back to a
 * linear scan otherwise.  Duplicate keys are always rejected because there
 * is no sensible answer to a lookup of a repeated key.
 */
#include <string.h>

#include "internal.h"

static int key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int r = n ? memcmp(a, b, n) : 0;

	if (r)
		return r;
	return (alen > blen) - (alen < blen);
}

/*
 * Record a fully decoded entry.  dict already holds the entry's key and
 * value as its last two children; key is the key node of that entry.
 */
enum be_error be_dict_add_entry(struct be_node *dict,
                                const struct be_node *key, unsigned flags)
{
	size_t nentries = dict->u.c.count / 2;
	const struct be_node *prev;
	int r;
	size_t i;

	if (key->type != BE_STR)
		return BE_EKEY;
	if (nentries == 1) {
		dict->flags |= BE_NODE_SORTED;
		return BE_OK;
	}

	if (dict->flags & BE_NODE_SORTED) {
		prev = &dict->u.c.items[dict->u.c.count - 4];
		r = key_cmp(key->u.s.ptr, key->u.s.len,
		            prev->u.s.ptr, prev->u.s.len);
		if (r > 0)
			return BE_OK;
		if (r == 0)
			return BE_EDUPKEY;
		if (flags & BE_STRICT)
			return BE_EORDER;
		dict->flags &= ~BE_NODE_SORTED;
	}

	/* Unsorted: a duplicate can be anywhere, so check every earlier key. */
	for (i = 0; i + 1 < nentries; i++) {
		const struct be_node *k = &dict->u.c.items[2 * i];

		if (!key_cmp(key->u.s.ptr, key->u.s.len, k->u.s.ptr, k->u.s.len))
			return BE_EDUPKEY;
	}
	return BE_OK;
}

size_t be_dict_len(const struct be_node *dict)
{
	return (dict && dict->type == BE_DICT) ? dict->u.c.count / 2 : 0;
}

const struct be_node *be_dict_key_at(const struct be_node *dict, size_t idx)
{
	if (idx >= be_dict_len(dict))
		return NULL;
	return &dict->u.c.items[2 * idx];
}

const struct be_node *be_dict_value_at(const struct be_node *dict, size_t idx)
{
	if (idx >= be_dict_len(dict))
		return NULL;
	return &dict->u.c.items[2 * idx + 1];
}

const struct be_node *be_dict_get(const struct be_node *dict,
                                  const char *key, size_t keylen)
{
	size_t n = be_dict_len(dict);
	size_t lo, hi, i;

	if (!n)
		return NULL;

	if (!(dict->flags & BE_NODE_SORTED)) {
		for (i = 0; i < n; i++) {
			const struct be_node *k = &dict->u.c.items[2 * i];

			if (!key_cmp(key, keylen, k->u.s.ptr, k->u.s.len))
				return &dict->u.c.items[2 * i + 1];
		}
		return NULL;
	}

	lo = 0;
	hi = n;
	while (lo < hi) {
		const struct be_node *k;
		int r;

		i = lo + (hi - lo) / 2;
		k = &dict->u.c.items[2 * i];
		r = key_cmp(key, keylen, k->u.s.ptr, k->u.s.len);
		if (r == 0)
			return &dict->u.c.items[2 * i + 1];
		if (r < 0)
			hi = i;
		else
			lo = i + 1;
	}
	return NULL;
}
