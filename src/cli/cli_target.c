/* cli_target: what `bankscope WORD` means when WORD is not a command. A file or a catalog
 * pattern opens the interactive view; anything else is a usage error that names the commands,
 * points to --help and list, and suggests the closest command or pattern name. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "io/library.h"
#include "io/textsafe.h"

/* Levenshtein distance of a and b (both short), capped at 99. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* Keep name in best when it is closer to word than what best holds. */
static void consider(const char *word, const char *name, size_t len, char *best, size_t n, int *dist)
{
    char tmp[128];
    if (len >= sizeof tmp)
        return;
    memcpy(tmp, name, len);
    tmp[len] = '\0';
    int d = edit_distance(word, tmp);
    if (d < *dist) {
        *dist = d;
        snprintf(best, n, "%s", tmp);
    }
}

int cli_check_target(const char *word, const char *const *commands, int ncommands)
{
    struct stat st;
    if (word[0] == '-' || stat(word, &st) == 0 || library_entry_find(word))
        return CLI_OK;
    size_t wl = strlen(word);
    if (strchr(word, '/') || (wl > 5 && strcmp(word + wl - 5, ".json") == 0))
        return CLI_OK; /* a path: the interactive view says why it cannot be opened */
    char best[128] = "", t[300];
    int dist = 99;
    for (int i = 0; i < ncommands; i++)
        consider(word, commands[i], strlen(commands[i]), best, sizeof best, &dist);
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        size_t k = strlen(e[i].name);
        consider(word, e[i].name, k > 5 && strcmp(e[i].name + k - 5, ".json") == 0 ? k - 5 : k, best, sizeof best,
                 &dist);
    }
    fprintf(stderr, "bankscope: '%s' is not a command, a file or a pattern name\n", textsafe(word, t, sizeof t));
    fputs("  commands:", stderr);
    for (int i = 0; i < ncommands; i++)
        fprintf(stderr, "%s %s", i ? "," : "", commands[i]);
    fputs(" (see bankscope --help); the patterns: bankscope list\n", stderr);
    int limit = wl < 6 ? 2 : (int)wl / 3; /* a suggestion only when it is plausibly a typo */
    if (dist <= limit)
        fprintf(stderr, "  did you mean '%s'?\n", textsafe(best, t, sizeof t));
    return CLI_USAGE;
}
