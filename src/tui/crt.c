/* crt: all terminal setup in one place: curses start and stop, colours as named roles with a
 * monochrome scheme, UTF-8 glyphs only when the locale says so, mouse on request. */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui.h"

static bool crt_active_flag;

/* Foreground, background and monochrome attribute of each role. */
static const struct { short fg, bg; int mono; } roles[ROLE_COUNT] = {
    [ROLE_NORMAL] = {-1, -1, A_NORMAL},
    [ROLE_TITLE] = {COLOR_BLACK, COLOR_CYAN, A_REVERSE},
    [ROLE_BAR] = {COLOR_BLACK, COLOR_WHITE, A_REVERSE},
    [ROLE_KEY] = {COLOR_YELLOW, -1, A_BOLD},
    [ROLE_DIM] = {COLOR_BLUE, -1, A_DIM},
    [ROLE_FRAME] = {COLOR_CYAN, -1, A_NORMAL},
    [ROLE_OK] = {COLOR_GREEN, -1, A_BOLD},
    [ROLE_CONFLICT] = {COLOR_WHITE, COLOR_RED, A_REVERSE},
    [ROLE_BROADCAST] = {COLOR_BLACK, COLOR_YELLOW, A_UNDERLINE},
    [ROLE_SELECTED] = {COLOR_BLACK, COLOR_GREEN, A_REVERSE | A_BOLD},
    [ROLE_PADDING] = {COLOR_MAGENTA, -1, A_DIM},
    [ROLE_HILITE] = {COLOR_BLACK, COLOR_CYAN, A_BOLD},
    [ROLE_ERROR] = {COLOR_RED, -1, A_BOLD},
    [ROLE_BIG] = {COLOR_RED, -1, A_BOLD},
    [ROLE_BANK_A] = {COLOR_WHITE, -1, A_NORMAL},
    [ROLE_BANK_B] = {COLOR_CYAN, -1, A_UNDERLINE},
};

void crt_init(tui_crt *c, bool want_color, bool want_mouse)
{
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    c->utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    initscr();
    crt_active_flag = true;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    c->color = want_color && has_colors() && getenv("NO_COLOR") == NULL;
    if (c->color) {
        start_color();
        use_default_colors();
        for (int r = 1; r < ROLE_COUNT; r++)
            init_pair((short)r, roles[r].fg, roles[r].bg);
    }
    c->mouse = want_mouse;
    if (want_mouse)
        mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
}

void crt_done(void)
{
    if (!crt_active_flag)
        return;
    crt_active_flag = false;
    curs_set(1);
    endwin();
}

int crt_attr(const tui_crt *c, tui_role r)
{
    if (r == ROLE_NORMAL)
        return A_NORMAL;
    if (!c->color)
        return roles[r].mono;
    int extra = (r == ROLE_BIG || r == ROLE_OK || r == ROLE_KEY || r == ROLE_ERROR) ? A_BOLD : 0;
    return COLOR_PAIR(r) | extra;
}

const char *crt_glyph(const tui_crt *c, const char *utf8, const char *ascii)
{
    return c->utf8 ? utf8 : ascii;
}
