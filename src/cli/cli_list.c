/* cli_list: `bankscope list` prints the embedded pattern library with one line each. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "io/library.h"
#include "io/lesson.h"
#include "io/load.h"

int cli_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 0)
        return cli_usage_error("list takes no arguments");
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        scenario s;
        io_error err = {{0}};
        char name[128];
        snprintf(name, sizeof name, "%s", e[i].name);
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = '\0';
        if (lesson_is(e[i].text, e[i].len)) {
            lesson l;
            if (lesson_load_text(e[i].text, e[i].len, e[i].name, &l, &err)) {
                printf("%-24s %-7s %s (%d steps)\n", name, "lesson", l.title, l.nsteps);
                lesson_free(&l);
            } else {
                printf("%-24s (broken: %s)\n", name, err.text);
            }
            continue;
        }
        if (!load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &s, &err)) {
            printf("%-24s (broken: %s)\n", name, err.text);
            continue;
        }
        const char *title = s.name ? s.name : "";
        printf("%-24s %-7s %s\n", name, s.arch->name, title);
        scenario_free(&s);
    }
    return cli_finish_stdout("list");
}
