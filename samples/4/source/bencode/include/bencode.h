/*
 * bencode - a small decoder/encoder for the BitTorrent bencoding format.
 *
 * Decoding produces a tree of nodes.  String nodes point into the buffer
 * that was decoded (no copies are made), so that buffer must outlive the
 * tree.  The whole tree is released with a single be_free() on the root.
 */
#ifndef BENCODE_H
#define BENCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum be_type {
	BE_NONE = 0,
	BE_INT,
	BE_STR,
	BE_LIST,
	BE_DICT
};

enum be_error {
	BE_OK = 0,
	BE_ENOMEM,      /* allocation failure */
	BE_EOF,         /* input ended inside a value */
	BE_ESYNTAX,     /* unexpected byte */
	BE_ERANGE,      /* integer or string length out of range */
	BE_EDEPTH,      /* containers nested too deeply */
	BE_EKEY,        /* dictionary key is not a string */
	BE_EDUPKEY,     /* dictionary key repeated */
	BE_EORDER,      /* dictionary keys not sorted (strict mode only) */
	BE_ETRAILING    /* bytes left after the top-level value */
};

/* Decoder flags. */
#define BE_STRICT          0x1u  /* reject dictionaries with unsorted keys */
#define BE_ALLOW_TRAILING  0x2u  /* ignore bytes after the top-level value */

/* Nesting limit for lists and dictionaries. */
#define BE_MAX_DEPTH 256

struct be_node;

/*
 * Decode one bencoded value from buf.  Returns the root node, or NULL with
 * *err set (err may be NULL).  If consumed is not NULL it receives the
 * number of bytes that made up the value.
 */
struct be_node *be_decode(const void *buf, size_t len, unsigned flags,
                          size_t *consumed, enum be_error *err);
void be_free(struct be_node *node);
const char *be_strerror(enum be_error err);

enum be_type be_type(const struct be_node *node);
int64_t be_int(const struct be_node *node);
const char *be_str(const struct be_node *node, size_t *len);

size_t be_list_len(const struct be_node *list);
const struct be_node *be_list_get(const struct be_node *list, size_t idx);

size_t be_dict_len(const struct be_node *dict);
const struct be_node *be_dict_key_at(const struct be_node *dict, size_t idx);
const struct be_node *be_dict_value_at(const struct be_node *dict, size_t idx);
const struct be_node *be_dict_get(const struct be_node *dict,
                                  const char *key, size_t keylen);

/*
 * Encoding.  be_encoded_size() returns the exact number of bytes
 * be_encode() will write.  be_encode() returns the number of bytes written,
 * or 0 if cap is too small.
 */
size_t be_encoded_size(const struct be_node *node);
size_t be_encode(const struct be_node *node, void *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* BENCODE_H */
