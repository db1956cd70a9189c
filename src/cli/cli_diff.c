/* cli_diff: `bankscope diff A.json B.json [--json]`: two recordings (or two scenarios imported
 * from source) line by line: lines matched by file and text, then by line number, each with its
 * predicted and measured wavefronts in A and in B and the change. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cli_whatif.h"
#include "core/diff_report.h"
#include "io/textsafe.h"

/* `diff A B [--json] [--arch NAME]`: load, match, print; exit 2 when a file does not read. */
int cli_diff(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'}, {"arch", required_argument, NULL, 'a'}, {0}};
    cli_args a;
    cli_args_init(&a, "diff", argc, argv, false);
    int c, rc = 0;
    bool json = false;
    const char *v, *arch = NULL;
    while (rc == 0 && (c = cli_args_next(&a, "", opts, &v)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'a')
            arch = v;
        else
            rc = CLI_USAGE;
    }
    if (rc == 0 && a.noperands != 2)
        rc = cli_usage_error("diff: two files (A.json B.json), got %d", a.noperands);
    if (rc) {
        cli_args_free(&a);
        return rc;
    }
    const char *fa = a.operands[0], *fb = a.operands[1];
    diff_result d;
    char err[1200];
    if (!diff_lines_files(fa, fb, arch, &d, err, sizeof err)) {
        cli_args_free(&a);
        fputs("bankscope: diff: ", stderr);
        textsafe_fputs(err, stderr);
        fputc('\n', stderr);
        return CLI_USAGE;
    }
    diff_report rep = {.d = &d, .a = fa, .b = fb};
    const char *why;
    if (json)
        rc = diff_report_json(&rep, stdout, &why) ? CLI_OK : cli_write_error("diff", why);
    else
        diff_report_text(&rep, stdout);
    diff_result_free(&d);
    cli_args_free(&a);
    return rc ? rc : cli_finish_stdout("diff");
}
