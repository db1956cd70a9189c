/* util: allocation that never returns NULL, and a growable text buffer.
 * Allocation failure is fatal through util_oom() (the one place that decides how to die);
 * everything else in bankscope reports errors as values. */
#ifndef BANKSCOPE_UTIL_H
#define BANKSCOPE_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define UTIL_NORETURN [[noreturn]]
#else
#define UTIL_NORETURN _Noreturn
#endif

/* Print "out of memory" and exit 1; never returns. */
UTIL_NORETURN void util_oom(void);

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* The n bytes at s (which may hold NULs) as a NUL-terminated string of their own. */
char *xstrdup_n(const char *s, size_t n);

/* A NUL-terminated string that grows; owns its bytes. A zeroed strbuf is empty and valid. */
typedef struct strbuf {
    char *data;
    size_t len;
    size_t cap;
} strbuf;

void strbuf_addf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap);
void strbuf_add(strbuf *sb, const char *s, size_t n);
void strbuf_addc(strbuf *sb, char c);
/* Empty the text, keeping the memory for reuse. */
void strbuf_clear(strbuf *sb);
/* Return the text (never NULL) and keep ownership in sb. */
const char *strbuf_str(const strbuf *sb);
/* Hand the text to the caller (never NULL); sb becomes empty. */
char *strbuf_take(strbuf *sb);
void strbuf_free(strbuf *sb);

#ifdef __cplusplus
}
#endif

#endif
