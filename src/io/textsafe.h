/* textsafe: text from a file (names, labels, expressions, error messages quoting them) made safe
 * to show. A scenario must not be able to retitle or clear a terminal, nor break an SVG: control
 * characters (C0, DEL and the C1 range) and the bidirectional controls (U+202A..U+202E overrides
 * and embeddings, U+2066..U+2069 isolates, U+200E/U+200F marks, U+061C; they reorder what is
 * shown, so a line could read other than it is) become visible escapes such as \x1b, \u009b or
 * \u202e, bytes that
 * are not valid UTF-8 become \xNN, in XML also U+FFFE and U+FFFF, which XML 1.0 forbids (\ufffe,
 * \uffff), and cutting to a length never splits a UTF-8 sequence.
 * Pure functions over caller-owned buffers. */
#ifndef BANKSCOPE_TEXTSAFE_H
#define BANKSCOPE_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* True for the bidirectional control characters escaped above (cp a code point). */
bool textsafe_is_bidi(uint32_t cp);
/* Append s, made safe for a terminal, to sb. */
void textsafe_add(strbuf *sb, const char *s);
/* s made safe for a terminal in buf (n > 0 bytes, always NUL-terminated, cut on a character
 * boundary); returns buf, so it can be a printf argument. */
const char *textsafe(const char *s, char *buf, size_t n);
/* Write s made safe for a terminal to f. */
void textsafe_fputs(const char *s, FILE *f);
/* As textsafe_fputs, but newlines and tabs stay (multi-line logs, e.g. NVRTC's). */
void textsafe_fputs_lines(const char *s, FILE *f);
/* Append s made safe and escaped for XML character data and attribute values (&, <, >, ", '). */
void textsafe_xml_add(strbuf *sb, const char *s);
/* The length of the longest prefix of s (at most n bytes) that ends on a UTF-8 character
 * boundary: where a string may be cut. */
size_t textsafe_cut(const char *s, size_t n);

#endif
