/* textsafe: escaping of untrusted text for terminals and XML (see textsafe.h). */
#include "textsafe.h"

#include <stdint.h>
#include <string.h>

#include "io/jsonw.h"

bool textsafe_is_bidi(uint32_t cp)
{
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
           cp == 0x061c;
}

/* Append the safe form of s to sb; xml also escapes the five XML specials; lines keeps newlines
 * and tabs (for multi-line logs such as a compiler's). */
static void add(strbuf *sb, const char *str, int xml, int lines)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strlen(str), i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c >= 0x20 && c < 0x7f) {
            if (xml && c == '&')
                strbuf_add(sb, "&amp;", 5);
            else if (xml && c == '<')
                strbuf_add(sb, "&lt;", 4);
            else if (xml && c == '>')
                strbuf_add(sb, "&gt;", 4);
            else if (xml && c == '"')
                strbuf_add(sb, "&quot;", 6);
            else if (xml && c == '\'')
                strbuf_add(sb, "&apos;", 6);
            else
                strbuf_addc(sb, (char)c);
            i++;
            continue;
        }
        if (lines && (c == '\n' || c == '\t')) {
            strbuf_addc(sb, (char)c);
            i++;
            continue;
        }
        uint32_t cp = 0;
        int k = c < 0x80 ? 0 : jsonw_utf8_next(s + i, n - i, &cp);
        if (c < 0x80 || k == 0) { /* a control character or a byte that is not UTF-8 */
            strbuf_addf(sb, "\\x%02x", c);
            i++;
        } else if ((cp >= 0x80 && cp < 0xa0) || textsafe_is_bidi(cp) || (xml && (cp == 0xfffe || cp == 0xffff))) {
            /* C1 controls (8-bit escape sequences); the bidirectional controls, which reorder
             * the text around them; U+FFFE and U+FFFF, the code points above
             * U+001F that XML 1.0's Char excludes (surrogates never decode: \xNN) */
            strbuf_addf(sb, "\\u%04x", (unsigned)cp);
            i += (size_t)k;
        } else {
            strbuf_add(sb, (const char *)s + i, (size_t)k);
            i += (size_t)k;
        }
    }
}

void textsafe_add(strbuf *sb, const char *s)
{
    add(sb, s ? s : "", 0, 0);
}

void textsafe_xml_add(strbuf *sb, const char *s)
{
    add(sb, s ? s : "", 1, 0);
}

size_t textsafe_cut(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strnlen(str, n + 1);
    if (len <= n)
        return len;
    /* s[n] is the first byte left out: back up while it continues a sequence */
    size_t k = n;
    while (k > 0 && (s[k] & 0xc0) == 0x80 && n - k < 3)
        k--;
    if ((s[k] & 0xc0) == 0x80) /* not UTF-8 anyway: any cut is as good */
        return n;
    return k;
}

const char *textsafe(const char *s, char *buf, size_t n)
{
    strbuf sb = {0};
    textsafe_add(&sb, s);
    size_t k = textsafe_cut(strbuf_str(&sb), n - 1);
    memcpy(buf, strbuf_str(&sb), k);
    buf[k] = '\0';
    strbuf_free(&sb);
    return buf;
}

void textsafe_fputs(const char *s, FILE *f)
{
    strbuf sb = {0};
    textsafe_add(&sb, s);
    fputs(strbuf_str(&sb), f);
    strbuf_free(&sb);
}

void textsafe_fputs_lines(const char *s, FILE *f)
{
    strbuf sb = {0};
    add(&sb, s ? s : "", 0, 1);
    fputs(strbuf_str(&sb), f);
    strbuf_free(&sb);
}
