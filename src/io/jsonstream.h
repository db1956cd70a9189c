/* jsonstream: a pull tokenizer for JSON read from a file or from memory, one token at a time,
 * in bounded memory whatever the size of the document (a 64 KiB window, strings and keys of at
 * most JSONSTREAM_MAX_STRING bytes, numbers of at most JSONSTREAM_MAX_NUMBER characters, at most
 * JSONSTREAM_MAX_DEPTH nested containers). It checks the grammar (commas, colons, brackets, one
 * document and nothing after it) and gives every token its 1-based line and column; columns
 * count UTF-8 characters. A UTF-8 byte-order mark before the document is skipped (it is not a
 * column). Errors are values: the JSONSTREAM_ERROR token, with a message and a position. The one
 * JSON reader of the program: the streaming trace reader pulls tokens from it, jsontree builds
 * cJSON trees from it. Owns its window and its string buffer, nothing else. */
#ifndef BANKSCOPE_JSONSTREAM_H
#define BANKSCOPE_JSONSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONSTREAM_MAX_STRING 4096 /* the default bound of one string (jsonstream_max_string) */
#define JSONSTREAM_MAX_NUMBER 64
#define JSONSTREAM_MAX_DEPTH 64
#define JSONSTREAM_WINDOW (64 << 10)

typedef enum jsonstream_token {
    JSONSTREAM_OBJECT,     /* { */
    JSONSTREAM_OBJECT_END, /* } */
    JSONSTREAM_ARRAY,      /* [ */
    JSONSTREAM_ARRAY_END,  /* ] */
    JSONSTREAM_KEY,        /* a member name (text in str) */
    JSONSTREAM_STRING,     /* text in str */
    JSONSTREAM_NUMBER,     /* num; is_int and ival when it is a whole number that fits int64 */
    JSONSTREAM_TRUE,
    JSONSTREAM_FALSE,
    JSONSTREAM_NULL,
    JSONSTREAM_END,   /* the document ended (and only whitespace follows) */
    JSONSTREAM_ERROR, /* msg, line and col say what and where */
} jsonstream_token;

typedef struct jsonstream {
    /* source: a FILE (not owned) or a memory block */
    FILE *f;
    const char *mem;
    size_t memlen;
    /* window: buf[pos..len) not yet read; buf[0] is byte `base` of the document */
    char *buf;
    size_t pos, len;
    int64_t base;
    bool eof;
    /* position bookkeeping: lines seen, where the current line starts, and how many UTF-8
     * continuation bytes it has had so far (they do not count as columns) */
    int64_t line, line_start, cont;
    /* grammar */
    unsigned char stack[JSONSTREAM_MAX_DEPTH]; /* 'o' object, 'a' array */
    int depth;
    int state;
    /* the last token */
    int64_t line_tok, col_tok;
    char *str; /* owned; strcap bytes (grown as needed up to maxstr and a NUL) */
    size_t slen, maxstr, strcap;
    bool started; /* the byte-order mark check was made */
    double num;
    bool is_int;
    int64_t ival;
    char msg[160];
} jsonstream;

/* Start reading f (from its current position) or len bytes at text. Never fails. */
void jsonstream_open_file(jsonstream *js, FILE *f);
void jsonstream_open_mem(jsonstream *js, const char *text, size_t len);
/* Read the n bytes of head (at most JSONSTREAM_WINDOW, copied), then f: a pipe whose first
 * bytes were read to see what it holds. */
void jsonstream_open_file_head(jsonstream *js, FILE *f, const char *head, size_t n);
void jsonstream_close(jsonstream *js);
/* Allow strings and member names of up to max bytes (default JSONSTREAM_MAX_STRING); call
 * before the first token. */
void jsonstream_max_string(jsonstream *js, size_t max);
/* The next token. After JSONSTREAM_ERROR or JSONSTREAM_END, it returns the same again. */
jsonstream_token jsonstream_next(jsonstream *js);
/* The fast path of arrays of numbers: read up to max next elements of the current array while
 * they are plain non-negative integers of at most 15 digits (or null, given as -1) on the
 * current line, with their columns; stops, having read nothing more, before anything else (that
 * is left to jsonstream_next). Returns how many were read. */
int jsonstream_ints(jsonstream *js, int64_t *vals, int64_t *cols, int max);
/* Skip the rest of a value whose first token was just read (nothing to do for scalars); false
 * after an error. */
bool jsonstream_skip(jsonstream *js, jsonstream_token first);
/* Like jsonstream_skip, several times faster: only strings and brackets are followed, nothing
 * is checked and positions are no longer exact afterwards. For a look-ahead over a document that
 * another pass reads properly. */
bool jsonstream_skip_fast(jsonstream *js, jsonstream_token first);
/* Byte offset of the next unread byte (for progress). */
int64_t jsonstream_offset(const jsonstream *js);

#endif
