/* jsontree: a JSON document read by jsonstream (the program's one JSON reader) into a cJSON tree
 * (the in-memory form every loader walks), with the 1-based line and column of every value kept
 * beside it in a side table, for messages. Every duplicate member name is refused with its
 * position, whatever the nesting. The tree owns its nodes and the side table; positions are
 * those jsonstream gives (columns count UTF-8 characters; a byte-order mark is skipped). */
#ifndef BANKSCOPE_JSONTREE_H
#define BANKSCOPE_JSONTREE_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/jsonstream.h"

/* The longest string a tree keeps (a file's loader bounds its strings with its own messages,
 * such as the expression parser's "longer than 4096 characters" at the character past it). */
#define JSONTREE_MAX_STRING (16 << 20)

typedef struct jsontree_slot jsontree_slot;

typedef struct jsontree {
    cJSON *root;
    jsontree_slot *slots; /* node -> position (open addressing, by node address) */
    size_t cap, n;
} jsontree;

/* Where a value starts; found is false when a path led nowhere (the position is then that of
 * the deepest part of the path that exists). */
typedef struct jsontree_pos {
    int line, col;
    bool found;
} jsontree_pos;

/* A reason the document was refused: "malformed JSON: ...", "PATH: this key is given twice". */
typedef struct jsontree_error {
    char msg[480]; /* a path of up to 255 bytes and a message */
    int line, col;
} jsontree_error;

/* Read len bytes of text into t; false with err filled (t is then empty). */
bool jsontree_parse(const char *text, size_t len, jsontree *t, jsontree_error *err);
void jsontree_free(jsontree *t);
/* The position of a value of the tree (line 0 for a node that is not in it). */
jsontree_pos jsontree_at(const jsontree *t, const cJSON *node);
/* The position of the value at path ("accesses[2].index[1]"; "" is the whole document). */
jsontree_pos jsontree_locate(const jsontree *t, const char *path);

#endif
