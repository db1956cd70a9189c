/* crt: all terminal setup in one place: curses start and stop, colours as named roles with a
 * monochrome scheme and a high-contrast one for projectors, UTF-8 glyphs only when the locale says
 * so, mouse on request, and the terminal restored however the program ends (exit, a fatal signal,
 * a sanitizer report). */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tui/crt.h"

static volatile sig_atomic_t crt_active_flag;

/* Foreground, background and monochrome attribute of each role. */
static const struct {
    short fg, bg;
    int mono;
} roles[ROLE_COUNT] = {
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
    [ROLE_BANK_B] = {COLOR_CYAN, -1, A_NORMAL},
    [ROLE_WARN] = {COLOR_WHITE, COLOR_RED, A_REVERSE | A_BOLD},
};

/* Restore the terminal and die of the same signal (fatal signals, sanitizer reports). */
static void crt_fatal(int sig)
{
    if (crt_active_flag) {
        crt_active_flag = 0;
        endwin();
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A sanitizer's death callback, when the program is built with one (weak: absent otherwise). */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

void crt_init(tui_crt *c, bool want_color, bool want_mouse)
{
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    c->utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    initscr();
    crt_active_flag = 1;
    atexit(crt_done);
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], crt_fatal);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(crt_done);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Home and End as the common terminals send them, whatever the terminfo entry says (tmux and
     * screen send ESC [1~ and ESC [4~ under TERM=xterm-256color), as htop does */
    static const struct {
        const char *seq;
        int key;
    } extra[] = {{"\033[1~", KEY_HOME}, {"\033[4~", KEY_END}, {"\033[7~", KEY_HOME}, {"\033[8~", KEY_END},
                 {"\033[H", KEY_HOME},  {"\033[F", KEY_END},  {"\033OH", KEY_HOME},  {"\033OF", KEY_END}};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (key_defined(extra[i].seq) == 0)
            define_key(extra[i].seq, extra[i].key);
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

bool crt_terminal_size(int *rows, int *cols)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0)
        return false;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return true;
}

void crt_done(void)
{
    if (!crt_active_flag)
        return;
    crt_active_flag = 0;
    curs_set(1);
    endwin();
}

int crt_attr(const tui_crt *c, tui_role r)
{
    if (r == ROLE_NORMAL)
        return A_NORMAL;
    if (!c->color)
        return roles[r].mono;
    if (c->contrast && r == ROLE_DIM) /* no dim blue on black on a projector */
        return A_BOLD;
    int extra = (r == ROLE_BIG || r == ROLE_OK || r == ROLE_KEY || r == ROLE_ERROR || r == ROLE_WARN) ? A_BOLD : 0;
    if (c->contrast && (r == ROLE_CONFLICT || r == ROLE_BROADCAST || r == ROLE_BANK_A))
        extra |= A_BOLD;
    return COLOR_PAIR(r) | extra;
}

int crt_attr_mark(const tui_crt *c, tui_role r, int marks)
{
    int at = crt_attr(c, r);
    if (marks & MARK_SELECT) /* on top of the role: reverse (mono: bold and underlined, reverse stays the
                                role's: bold alone hardly parts a selected conflict from its neighbours) */
        at |= c->color ? (A_REVERSE | A_BOLD) : (A_BOLD | A_UNDERLINE);
    if (marks & MARK_ALT)
        at |= A_UNDERLINE;
    if (marks & MARK_STEP)
        at |= A_BOLD;
    return at;
}

const char *crt_glyph(const tui_crt *c, const char *utf8, const char *ascii)
{
    return c->utf8 ? utf8 : ascii;
}

unsigned long crt_mouse_wheel(const tui_crt *c)
{
    if (!c->mouse)
        return 0;
    mmask_t old = 0;
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, &old);
    return (unsigned long)old;
}

void crt_mouse_restore(const tui_crt *c, unsigned long mask)
{
    if (c->mouse)
        mousemask((mmask_t)mask, NULL);
}
