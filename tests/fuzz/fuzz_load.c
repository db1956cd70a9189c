/* fuzz_load: libFuzzer harness for the scenario / trace / lesson loaders. Every input that
 * loads is also analysed, saved back to JSON and reloaded, so the model and the writer see
 * what the fuzzer finds too; small ones are also reported as JSON (which must parse back) and
 * rendered as SVG, so hostile names reach the output writers. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "io/report.h"
#include "io/svg.h"

#include "io/lesson.h"
#include "io/load.h"
#include "io/save.h"
#include "model/banks.h"

int fuzz_load_one(const uint8_t *data, size_t size);

int fuzz_load_one(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    scenario s;
    io_error err;
    if (load_scenario_text(text, size, "fuzz.json", NULL, &s, &err)) {
        scenario_instr in;
        banks_result r;
        static banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
        int64_t n = scenario_instr_count(&s);
        for (int64_t k = 0; k < n && k < 64; k++) {
            scenario_instr_at(&s, k, &in);
            banks_analyze(s.arch, &in.req, &r, cells);
        }
        if (n <= 256) {
            char *json = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&json, &len);
            report_options o = {.engine = &analysis_engine, .warp = -1};
            const char *why;
            if (f && report_json(f, &s, &o, &why)) {
                fclose(f);
                cJSON *doc = cJSON_ParseWithLength(json, len);
                if (!doc) /* the writer produced invalid JSON: a finding */
                    abort();
                cJSON_Delete(doc);
            } else if (f) {
                fclose(f);
            }
            free(json);
            strbuf svg = {0};
            if (n > 0)
                analysis_svg(&s, 0, &svg);
            strbuf_free(&svg);
        }
        scenario copy;
        if (save_clone(&s, &copy))
            scenario_free(&copy);
        scenario_free(&s);
    }
    lesson l;
    if (size < 4096 && lesson_load_text(text, size, "fuzz.json", NULL, &l, &err))
        lesson_free(&l);
    return 0;
}

#ifndef BANKSCOPE_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_load_one(data, size);
}
#endif
