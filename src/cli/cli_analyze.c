/* cli_analyze: `bankscope analyze FILE [--json] [--warp N] [--all] [--summary] [--sass] [--arch NAME]`.
 * The instructions come from an instr_source: a trace file streams (read as it is analysed, in
 * bounded memory); for any output but the text summary a first pass checks the whole trace so
 * that a bad file prints nothing. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/analysis.h"
#include "core/recording_lines.h"
#include "core/recording_sass.h"
#include "io/instr_source.h"
#include "io/load.h"
#include "io/report.h"
#include "io/textsafe.h"
#include "io/trace_stream.h"
#include "io/work.h"

/* "bankscope: MSG" on stderr; the message quotes the file's text, so it is made safe. */
static void load_error(const char *msg)
{
    fputs("bankscope: ", stderr);
    textsafe_fputs(msg, stderr);
    fputc('\n', stderr);
}

/* analyze --json's members of a recording: its source lines, then its SASS page. */
static void recording_json(struct jsonw *w, void *ctx)
{
    record_lines_json(w, ctx);
    record_sass_json(w, ctx);
}

/* Read the lines of the recording c->file (record_lines_load) into *lines: 1 read, 0 not a
 * recording, -1 an error and -2 interrupted, both said on stderr. */
static int analyze_lines(const cli_common *c, const scenario *s, record_lines **lines)
{
    char msg[800];
    work_exit_on_signal(true); /* reading writes nothing: a signal may end it at once */
    int lr = record_lines_load(c->file, s->arch, lines, msg, sizeof msg);
    work_exit_on_signal(false);
    if (lr == -2)
        fprintf(stderr, "bankscope: analyze: interrupted (%s)\n", work_signal_name());
    else if (lr < 0)
        load_error(msg);
    return lr;
}

int cli_analyze(int argc, char **argv)
{
    cli_common c;
    if (cli_parse(argc, argv, "analyze", "json warp all arch summary force sass", &c))
        return CLI_USAGE;
    bool summary = c.summary && !c.json;
    instr_source src;
    io_error err;
    work_catch_signals();
    work_exit_on_signal(true); /* loading writes nothing: a signal may end it at once */
    /* a recording's members are read in the pass over the trace that opens it, and its lines are
     * predicted in the checking pass (or, for the summary, which has none, in the report's walk):
     * the file is read once for the lines and the report */
    record_lines_pass lp = {.path = c.file, .predict = !summary, .src = &src};
    bool opened =
        instr_source_open_keep(&src, c.file, c.arch, !summary, TRACE_KEEP_INDEXES, record_lines_on_check, &lp, &err);
    work_exit_on_signal(false);
    if (!opened) {
        load_error(err.text);
        record_lines_free(lp.lines);
        return CLI_USAGE;
    }
    const scenario *s = src.s;
    if (cli_check_indexes(&c, s, "analyze")) {
        record_lines_free(lp.lines);
        instr_source_close(&src);
        return CLI_USAGE;
    }
    if (scenario_has_layout(s) && !c.force) { /* estimate before starting (a trace costs what its file holds) */
        work_estimate e;
        work_estimate_analyze(s, c.warp,
                              c.json      ? WORK_OUT_JSON
                              : c.summary ? WORK_OUT_SUMMARY
                              : c.all     ? WORK_OUT_ALL
                                          : WORK_OUT_TEXT,
                              true, &e);
        char msg[400];
        if (!work_within_limits(&e, "analyze", "--warp N or fewer loop iterations", "--summary or --warp N", msg,
                                sizeof msg)) {
            record_lines_free(lp.lines);
            instr_source_close(&src);
            return cli_usage_error("%s", msg);
        }
    }
    /* A recording: its lines, checked against the trace before any output. Whether a trace is one
     * is known before its instructions when it says so first (as `record` writes it), or after the
     * checking pass; a summary is printed only at the end, so the lines of a trace that says so
     * after its instructions are read then, and a plain trace is read once. */
    record_lines *lines = lp.lines;
    char msg[800];
    int lr = lp.rc;
    if (lr == 1 && !summary) /* predicted in the checking pass: the trace's end, the derived numbers */
        lr = record_lines_end(lines, lp.err, sizeof lp.err);
    if (lr < 0) {
        if (lr == -2)
            fprintf(stderr, "bankscope: analyze: interrupted (%s)\n", work_signal_name());
        else
            load_error(lp.err);
        record_lines_free(lines);
        instr_source_close(&src);
        return lr == -2 ? work_exit_status() : CLI_USAGE;
    }
    if (lr == 0 && !scenario_has_layout(s) && src.recording) /* its lines after the trace: read again */
        lr = analyze_lines(&c, s, &lines);
    if (lr < 0) {
        instr_source_close(&src);
        return lr == -2 ? work_exit_status() : CLI_USAGE;
    }
    instr_source_set_warp(&src, !scenario_has_layout(s) ? -1 : c.warp);
    src.progress = "analyze";
    record_lines_ctx lines_ctx = {.lines = lines};
    report_options o = {.engine = &analysis_engine,
                        .all_lanes = c.all,
                        .summary = c.summary,
                        .warp = !scenario_has_layout(s) ? -1 : c.warp,
                        .source = &src,
                        /* a recording: its source lines, predicted and measured */
                        .json_extra = !scenario_has_layout(s) ? recording_json : NULL,
                        .json_extra_ctx = &lines_ctx,
                        /* the summary's lines, from the report's own walk */
                        .observe = lines && lp.rc == 1 && summary ? record_lines_observe : NULL,
                        .observe_ctx = &lp};
    /* a summary is printed only once every instruction was read (a streamed trace: found good)
     * and none was skipped (not interrupted) */
    char *buf = NULL;
    size_t buflen = 0;
    FILE *out = summary ? open_memstream(&buf, &buflen) : stdout;
    if (!out)
        out = stdout;
    int rc = CLI_OK;
    const char *why = NULL;
    bool written = true;
    if (c.json)
        written = report_json(out, s, &o, &why);
    else
        report_text(out, s, &o);
    if (out != stdout)
        fclose(out);
    work_progress_end();
    /* a summary of a trace not known to be a recording before its instructions: one that said so
     * after them, or one that failed before its end (whose lines, when bad, are the error shown) */
    if (o.observe && !work_cancelled()) { /* the lines fed by the walk: an entry in no line comes first */
        const char *bad = record_lines_error(lines);
        if (!bad && !src.failed && record_lines_end(lines, msg, sizeof msg) < 0)
            bad = msg;
        if (bad) {
            load_error(bad);
            free(buf);
            record_lines_free(lines);
            instr_source_close(&src);
            return CLI_USAGE;
        }
    }
    if (!scenario_has_layout(s) && summary && !lines && !work_cancelled() && (src.recording || src.failed)) {
        lr = analyze_lines(&c, s, &lines);
        if (lr < 0) {
            free(buf);
            instr_source_close(&src);
            return lr == -2 ? work_exit_status() : CLI_USAGE;
        }
    }
    if (work_cancelled()) { /* stopped by a signal: the summary is dropped, the exit says why */
        fprintf(stderr, "bankscope: analyze: interrupted (%s)\n", work_signal_name());
        rc = work_exit_status();
    } else if (src.failed) {
        load_error(src.err.text);
        rc = CLI_USAGE;
    } else if (!written) {
        rc = cli_write_error("analyze", why);
    } else {
        if (buf)
            fwrite(buf, 1, buflen, stdout);
        if (!c.json && lines)
            record_lines_print(lines, stdout); /* a recording: its source lines */
        if (!c.json && c.sass)
            record_sass_report(lines, stdout); /* and its SASS instructions */
        rc = cli_finish_stdout("analyze");
    }
    free(buf);
    record_lines_free(lines);
    instr_source_close(&src);
    return rc;
}
