/* cli_list: `bankscope list [--json | --names | --archs]`: the pattern catalog (built-in, installed and
 * user patterns and lessons), one entry each with its explanation wrapped to the terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/jsonw.h"
#include "io/library.h"
#include "io/textsafe.h"
#include "model/banks.h"

/* What list shows of one catalog entry, read from its head (library_head): list never loads or
 * analyses a pattern (a lesson naming a slow one took tens of seconds), so a file that is
 * malformed further in is found when it is opened. */
typedef struct list_item {
    char name[256];   /* without ".json" */
    const char *kind; /* "pattern" or "lesson" */
    const char *title, *description, *arch, *broken;
    library_head h;
} list_item;

/* One catalog entry as the listing shows it: its name without .json, kind, title, architecture,
 * and the problem that makes it broken (NULL when none). */
static void item_load(const library_entry *e, list_item *it)
{
    memset(it, 0, sizeof *it);
    snprintf(it->name, sizeof it->name, "%s", e->name);
    char *dot = strrchr(it->name, '.');
    if (dot)
        *dot = '\0';
    bool ok = library_head_read(e, &it->h);
    it->kind = it->h.lesson ? "lesson" : "pattern";
    it->title = it->h.title ? it->h.title : "";
    it->description = it->h.description ? it->h.description : "";
    it->arch = it->h.lesson ? "" : it->h.arch ? it->h.arch : banks_profile_default()->name;
    if (ok && !it->h.lesson && !banks_profile_find(it->arch))
        snprintf(it->h.problem, sizeof it->h.problem, "%.80s: unknown architecture '%.60s'", e->name, it->arch);
    it->broken = it->h.problem[0] ? it->h.problem : NULL;
}

static void item_free(list_item *it)
{
    library_head_free(&it->h);
}

/* Print text indented by indent, wrapped at width columns (words longer than a line are cut). */
static void wrap(const char *text, int indent, int width)
{
    strbuf sb = {0};
    textsafe_add(&sb, text);
    const char *p = strbuf_str(&sb);
    int avail = width - indent < 20 ? 20 : width - indent;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        /* take words while they fit (bytes; the library's texts are ASCII) */
        int n = 0, last = -1;
        while (n < avail && p[n]) {
            if (p[n] == ' ')
                last = n;
            n++;
        }
        if (p[n] && p[n] != ' ' && last > 0)
            n = last;
        printf("%*s%.*s\n", indent, "", n, p);
        p += n;
    }
    strbuf_free(&sb);
}

static int term_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 40 ? w : 80;
}

/* The catalog as text: a line per entry with its description wrapped to the terminal's width,
 * then how many entries each folder adds. */
static int list_text(const library_entry *e, int n)
{
    int width = term_width(), counts[3] = {0};
    char t[600];
    for (int i = 0; i < n; i++) {
        list_item it;
        item_load(&e[i], &it);
        counts[e[i].source]++;
        printf("%-24s ", textsafe(it.name, t, sizeof t));
        if (it.broken)
            printf("(broken: %s)\n", textsafe(it.broken, t, sizeof t));
        else if (it.h.lesson)
            printf("%-7s %s (%d step%s)\n", "lesson", textsafe(it.title, t, sizeof t), it.h.steps,
                   it.h.steps == 1 ? "" : "s");
        else
            printf("%-7s %s\n", it.arch, textsafe(it.title, t, sizeof t));
        if (e[i].source != LIBRARY_BUILTIN)
            printf("    %s: %s%s\n", library_source_text(e[i].source), textsafe(e[i].path, t, sizeof t),
                   e[i].shadows ? " (shadows the pattern of the same name below it)" : "");
        if (*it.description)
            wrap(it.description, 4, width);
        item_free(&it);
    }
    char dir[4096];
    if (counts[LIBRARY_INSTALLED] || counts[LIBRARY_USER]) {
        printf("\n%d built-in", counts[LIBRARY_BUILTIN]);
        for (int s = LIBRARY_INSTALLED; s <= LIBRARY_USER; s++)
            if (library_dir((library_source)s, dir, sizeof dir))
                printf(", %d %s from %s", counts[s], library_source_text((library_source)s),
                       textsafe(dir, t, sizeof t));
        printf("\n");
    }
    return cli_finish_stdout("list");
}

/* The catalog as one JSON document (bankscope-list/1): the folders searched and one object per
 * entry. */
static int list_json(const library_entry *e, int n)
{
    static jsonw w;
    char dir[4096];
    jsonw_init(&w, stdout);
    jsonw_begin_object(&w, JSONW_LINES);
    jsonw_kv_string(&w, "format", "bankscope-list/1");
    jsonw_key(&w, "folders");
    jsonw_begin_object(&w, JSONW_INLINE);
    jsonw_kv_string(&w, "installed", library_dir(LIBRARY_INSTALLED, dir, sizeof dir));
    jsonw_kv_string(&w, "user", library_dir(LIBRARY_USER, dir, sizeof dir));
    jsonw_end_object(&w);
    jsonw_key(&w, "patterns");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < n; i++) {
        list_item it;
        item_load(&e[i], &it);
        jsonw_begin_object(&w, JSONW_INLINE);
        jsonw_kv_string(&w, "name", it.name);
        jsonw_kv_string(&w, "kind", it.kind);
        jsonw_kv_string(&w, "title", it.title);
        jsonw_kv_string(&w, "description", it.description);
        if (!it.broken && !it.h.lesson)
            jsonw_kv_string(&w, "arch", it.arch);
        else
            jsonw_kv_null(&w, "arch");
        if (it.h.lesson)
            jsonw_kv_int(&w, "steps", it.h.steps);
        jsonw_kv_string(&w, "source", library_source_text(e[i].source));
        jsonw_kv_string(&w, "path", e[i].path);
        jsonw_kv_bool(&w, "shadows", e[i].shadows);
        if (it.broken)
            jsonw_kv_string(&w, "error", it.broken);
        jsonw_end_object(&w);
        item_free(&it);
    }
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    const char *why;
    return jsonw_finish(&w, &why) ? CLI_OK : cli_write_error("list", why);
}

int cli_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'}, {"names", no_argument, NULL, 'n'}, {"archs", no_argument, NULL, 'a'}, {0}};
    bool json = false, names = false, archs = false;
    cli_args a;
    cli_args_init(&a, "list", argc, argv, false);
    int o;
    const char *v;
    while ((o = cli_args_next(&a, "", opts, &v)) != -1) {
        if (o == CLI_ARGS_ERROR) {
            cli_args_free(&a);
            return CLI_USAGE;
        }
        json |= o == 'j';
        names |= o == 'n';
        archs |= o == 'a';
    }
    if (a.noperands > 0) {
        int rc = cli_usage_error("list: unknown argument '%s' (list takes --json, --names or --archs)", a.operands[0]);
        cli_args_free(&a);
        return rc;
    }
    cli_args_free(&a);
    if (archs) { /* the names --arch accepts, for scripts and completion */
        int na;
        const banks_profile *p = banks_profiles(&na);
        for (int i = 0; i < na; i++)
            printf("%s\n", p[i].name);
        return cli_finish_stdout("list");
    }
    int n;
    const library_entry *e = library_patterns(&n);
    if (json)
        return list_json(e, n);
    if (names) {
        char t[600];
        for (int i = 0; i < n; i++) {
            size_t k = strlen(e[i].name);
            if (k > 5 && strcmp(e[i].name + k - 5, ".json") == 0)
                k -= 5;
            printf("%s\n", textsafe(e[i].name, t, k + 1 < sizeof t ? k + 1 : sizeof t));
        }
        return cli_finish_stdout("list");
    }
    return list_text(e, n);
}
