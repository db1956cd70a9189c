/* crt: all terminal setup in one place (crt.c): curses start and stop, colours as named roles
 * with a monochrome scheme and a high-contrast one, UTF-8 glyphs only when the locale says so,
 * the mouse on request. The bottom layer of the TUI: it knows nothing of scenarios or views. */
#ifndef BANKSCOPE_TUI_CRT_H
#define BANKSCOPE_TUI_CRT_H

#include <stdbool.h>

/* Colour roles; crt maps them to colour pairs or to monochrome attributes. */
typedef enum tui_role {
    ROLE_NORMAL,
    ROLE_TITLE,
    ROLE_BAR,
    ROLE_KEY,
    ROLE_DIM,
    ROLE_FRAME,
    ROLE_OK,
    ROLE_CONFLICT,
    ROLE_BROADCAST,
    ROLE_SELECTED,
    ROLE_PADDING,
    ROLE_HILITE,
    ROLE_ERROR,
    ROLE_BIG,
    ROLE_BANK_A,
    ROLE_BANK_B,
    ROLE_WARN,
    ROLE_COUNT
} tui_role;

/* Attribute modifiers drawn on top of a role, never instead of it. */
enum { MARK_NONE = 0, MARK_SELECT = 1, MARK_ALT = 2, MARK_STEP = 4 };

typedef struct tui_crt {
    bool color, utf8, mouse, contrast; /* contrast: presentation colours (no dim blue) */
} tui_crt;

void crt_init(tui_crt *c, bool want_color, bool want_mouse);
/* While a scrolling view is open: clicks and the wheel reach it. Returns the mask to give back to
 * crt_mouse_restore when the view closes (0 without the mouse). */
unsigned long crt_mouse_wheel(const tui_crt *c);
void crt_mouse_restore(const tui_crt *c, unsigned long mask);
void crt_done(void);
/* The terminal's size now, which curses learns only when it reads the resize; false when unknown. */
bool crt_terminal_size(int *rows, int *cols);
int crt_attr(const tui_crt *c, tui_role r);
/* Attribute of role with modifiers (selection, alternate bank, step) added on top. */
int crt_attr_mark(const tui_crt *c, tui_role r, int marks);
const char *crt_glyph(const tui_crt *c, const char *utf8, const char *ascii);

#endif
