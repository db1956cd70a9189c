/* lineedit: the one line editor every prompt uses (file names, the index expression, the
 * swizzle, the kernel view's search). It owns a fixed buffer of printable ASCII and a cursor, and
 * knows the readline keys: Left/Right, Home/End and Ctrl-A/Ctrl-E move; Backspace and Delete
 * erase a character; Ctrl-U erases to the start, Ctrl-K to the end, Ctrl-W the word before the
 * cursor. A pre-filled text starts selected: the first character typed replaces it and the first
 * erase removes it whole, so a proposed file name is never appended to. No drawing here.
 * Invariants: 0 <= cur <= len < LINE_MAX_TEXT, buf NUL-terminated at len. */
#ifndef BANKSCOPE_TUI_LINEEDIT_H
#define BANKSCOPE_TUI_LINEEDIT_H

#include <stdbool.h>

/* room for an index expression (EXPR_MAX_LEN, 4096 bytes) or a path (PATH_MAX) whole */
#define LINE_MAX_TEXT 4097

typedef struct tui_line {
    char buf[LINE_MAX_TEXT];
    int len, cur;
    bool selected; /* the whole text is selected (pre-filled, untouched) */
} tui_line;

/* What a key did: changed the text, only moved the cursor, or was not an editing key. */
enum { LINE_IGNORED = 0, LINE_MOVED = 1, LINE_CHANGED = 2 };

/* Set the text with the cursor at its end; select: typing replaces it. False (and an empty
 * line) when text does not fit: it is never cut silently. */
bool line_set(tui_line *l, const char *text, bool select);
/* Apply one key (a curses key code); returns LINE_IGNORED, LINE_MOVED or LINE_CHANGED. */
int line_key(tui_line *l, int key);
/* True when key is one line_key acts on (printable characters included). */
bool line_is_key(int key);

#endif
