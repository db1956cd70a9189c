/* replay: runs the fuzz harnesses over the saved inputs in tests/fuzz/regressions (every crash
 * a fuzzer found becomes one) and the hostile-input corpus, without libFuzzer, in make check. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"

int fuzz_load_one(const uint8_t *data, size_t size);
int fuzz_expr_one(const uint8_t *data, size_t size);

/* Feed every file of dir to the harness; returns the count. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        io_error err;
        char *text = load_read_file(path, &len, &err);
        if (!text)
            continue;
        if (strncmp(e->d_name, "expr-", 5) == 0) /* found by fuzz_expr */
            fuzz_expr_one((const uint8_t *)text, len);
        else
            fuzz_load_one((const uint8_t *)text, len);
        free(text);
        n++;
    }
    closedir(d);
    return n;
}

int main(void)
{
    const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
    char dir[512];
    int n = 0;
    snprintf(dir, sizeof dir, "%s/tests/fuzz/regressions", src);
    n += replay_dir(dir);
    snprintf(dir, sizeof dir, "%s/tests/golden/cases", src);
    n += replay_dir(dir);
    snprintf(dir, sizeof dir, "%s/patterns", src);
    n += replay_dir(dir);
    printf("1..1\nok 1 - replayed %d inputs without a crash\n", n);
    return 0;
}
