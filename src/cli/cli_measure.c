/* cli_measure: `bankscope measure FILE [--json] [--access N] [--iteration K]`: each access run
 * on the GPU, the measured cycles and counters printed beside the model's prediction. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "io/jsonw.h"
#include "io/load.h"
#include "io/textsafe.h"
#include "core/measure_plan.h"
#include "io/report.h"
#include "model/kernelgen.h"

/* Text block for one access. */
static void print_text(const scenario *s, const measure_plan *p, const gpu_measurement *m)
{
    char kt[32];
    if (!scenario_has_layout(s))
        printf("\ntrace[%d]: %s, %d B per lane\n", p->access, scenario_kind_text(&s->trace[p->access], kt, sizeof kt),
               s->trace[p->access].width);
    else {
        const scenario_access *a = &s->accesses[p->access];
        char t[400];
        printf("\naccess %d: %s %s", p->access, scenario_kind_text(&p->kind, kt, sizeof kt), s->arrays[a->array].name);
        for (int d = 0; d < a->nidx; d++)
            printf("[%s]", textsafe(a->index_text[d], t, sizeof t));
        printf("%s%s", a->field ? "." : "", a->field ? textsafe(a->field, t, sizeof t) : "");
        printf("  (%s, %d B per lane)", textsafe(a->type_text, t, sizeof t), a->width);
        strbuf it = {0};
        scenario_iteration_text(s, p->access, p->iteration, &it);
        if (it.len)
            printf("  %s", strbuf_str(&it));
        strbuf_free(&it);
        printf("\n");
    }
    printf("  %-30s %12s %12s\n", "", "predicted", "measured");
    if (m->addresses_checked)
        printf("  %-30s %12d %12d   exact: every thread's kernel address is the model's (checked on the GPU)\n",
               "addresses (threads of a block)", m->addresses_checked, m->addresses_checked);
    bool agree = measure_plan_agrees(p->cycles_per_access, m->cycles_per_access);
    if (!p->cycles_predicted)
        printf("  %-30s %12s %12.3f   %s\n", "cycles per warp-access per SM", "-", m->cycles_per_access,
               "not predicted: the model has the shared side only, the copy from global memory sets the time");
    else
        printf("  %-30s %12.2f %12.3f   %s\n", "cycles per warp-access per SM", p->cycles_per_access,
               m->cycles_per_access, agree ? "agree (within 5 % + 0.1)" : "DIFFER");
    if (p->data_cycles_per_access > p->cycles_per_access + 0.005)
        printf("  %-30s %12.2f %12s   the kernel stores zeros; register data costs a cycle per "
               "phase\n",
               "  storing register data", p->data_cycles_per_access, "-");
    if (m->have_counters) {
        printf("  %-30s %12lld %12.0f   %s\n", "wavefronts (one block)", (long long)p->wavefronts, m->wavefronts,
               (double)p->wavefronts == m->wavefronts ? "exact" : "DIFFER");
        printf("  %-30s %12lld %12.0f   %s\n", "bank conflicts (one block)", (long long)p->bank_conflicts,
               m->bank_conflicts, (double)p->bank_conflicts == m->bank_conflicts ? "exact" : "DIFFER");
        printf("  %-30s %12s %12.0f   (warp turns the counter kernel takes, predicated-off ones too)\n",
               "shared instructions executed", "-", m->instructions);
    } else {
        printf("  %-30s %12lld %12s   %s\n", "wavefronts (one block)", (long long)p->wavefronts, "-", m->counters_note);
    }
    if (m->have_latency)
        printf("  %-30s %12s %12.1f   cycles, one warp, dependent chain\n", "latency", "-", m->latency_cycles);
    if (m->cycles_per_access > 0) {
        double bpc = p->bytes_per_warp / m->cycles_per_access;
        printf("  %-30s %12s %12.2f   ns; %.1f useful B/clk/SM = %.1f %% of 128 B/clk\n", "time per warp-access per SM",
               "-", m->ns_per_access, bpc, 100.0 * bpc / 128.0);
    }
    printf("  occupancy %d blocks = %d active warps per SM; %.1f ms: compile %.1f%s, throughput %.1f, "
           "latency %.1f, counters %.1f\n",
           m->blocks_per_sm, m->warps_per_sm, m->total_ms, m->compile_ms, m->cached ? " (cached)" : "",
           m->throughput_ms, m->latency_ms, m->counters_ms);
}

/* One measured access as a JSON object: the plan's prediction, the GPU's measurement and whether
 * the two agree. */
static void print_json(jsonw *w, const measure_plan *p, const gpu_measurement *m)
{
    jsonw_begin_object(w, JSONW_INLINE);
    jsonw_kv_int(w, "access", p->access);
    jsonw_kv_int(w, "iteration", p->iteration);
    report_json_kind(w, &p->kind);
    jsonw_kv_int(w, "warps", p->warps);
    jsonw_kv_int(w, "active_warps", p->active_warps);
    jsonw_key(w, "predicted");
    jsonw_begin_object(w, JSONW_INLINE);
    if (p->cycles_predicted)
        jsonw_kv_double(w, "cycles_per_access", p->cycles_per_access);
    else /* cp.async: not predicted (the time includes the copy from global memory) */
        jsonw_kv_null(w, "cycles_per_access");
    jsonw_kv_int(w, "wavefronts", p->wavefronts);
    jsonw_kv_int(w, "bank_conflicts", p->bank_conflicts);
    jsonw_kv_int(w, "conflict_degree", p->worst_degree);
    jsonw_end_object(w);
    jsonw_key(w, "measured");
    jsonw_begin_object(w, JSONW_INLINE);
    jsonw_kv_double(w, "cycles_per_access", m->cycles_per_access);
    jsonw_kv_double(w, "ns_per_access", m->ns_per_access);
    jsonw_kv_int(w, "blocks_per_sm", m->blocks_per_sm);
    jsonw_kv_int(w, "warps_per_sm", m->warps_per_sm);
    if (m->have_latency)
        jsonw_kv_double(w, "latency_cycles", m->latency_cycles);
    else
        jsonw_kv_null(w, "latency_cycles");
    if (m->have_counters) {
        jsonw_kv_double(w, "wavefronts", m->wavefronts);
        jsonw_kv_double(w, "bank_conflicts", m->bank_conflicts);
        jsonw_kv_double(w, "instructions", m->instructions);
    } else {
        jsonw_kv_null(w, "wavefronts");
        jsonw_kv_null(w, "bank_conflicts");
        jsonw_kv_string(w, "counters_note", m->counters_note);
    }
    jsonw_kv_int(w, "addresses_checked", m->addresses_checked);
    jsonw_kv_double(w, "compile_ms", m->compile_ms);
    jsonw_kv_bool(w, "cached", m->cached);
    jsonw_kv_double(w, "throughput_ms", m->throughput_ms);
    jsonw_kv_double(w, "latency_ms", m->latency_ms);
    jsonw_kv_double(w, "counters_ms", m->counters_ms);
    jsonw_kv_double(w, "total_ms", m->total_ms);
    jsonw_end_object(w);
    jsonw_key(w, "agree");
    jsonw_begin_object(w, JSONW_INLINE);
    if (!p->cycles_predicted) /* the model has the shared side only */
        jsonw_kv_null(w, "cycles");
    else
        jsonw_kv_bool(w, "cycles", measure_plan_agrees(p->cycles_per_access, m->cycles_per_access));
    if (m->have_counters)
        jsonw_kv_bool(w, "counters",
                      (double)p->wavefronts == m->wavefronts && (double)p->bank_conflicts == m->bank_conflicts);
    else
        jsonw_kv_null(w, "counters");
    jsonw_end_object(w);
    jsonw_end_object(w);
}

int cli_measure(int argc, char **argv)
{
    cli_common c;
    scenario s;
    int rc0 = cli_open(argc, argv, "measure", "json access iteration arch", &c, &s);
    if (rc0)
        return rc0;
    int first, end;
    if (cli_access_range(&c, &s, "measure", &first, &end) != CLI_OK) {
        scenario_free(&s);
        return CLI_USAGE;
    }
    gpu_device dev;
    char why[256];
    if (!gpu_open(&dev, why, sizeof why)) {
        scenario_free(&s);
        cli_error("measure: no usable GPU: %s", why);
        return CLI_NO_GPU;
    }
    /* the measurement is compared with the model of the GPU's own architecture, never with
     * another one's rules (cc 1.x half-warps on an sm_90) */
    char arch_note[400];
    const banks_profile *asked = s.arch, *model = measure_plan_compare_arch(asked, dev.cc_major, dev.cc_minor,
                                                                            arch_note, sizeof arch_note);
    if (model != asked) {
        scenario_free(&s);
        io_error err;
        if (!load_scenario_file(c.file, model->name, &s, &err)) {
            gpu_close();
            cli_error("measure: the GPU (sm_%d%d) runs the %s bank rules, and under them %s", dev.cc_major,
                      dev.cc_minor, model->name, err.text);
            return CLI_USAGE;
        }
    }
    static jsonw w;
    char title[400];
    if (c.json) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", dev.cc_major, dev.cc_minor);
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w, JSONW_LINES);
        jsonw_kv_string(&w, "format", "bankscope-measure/1");
        jsonw_kv_string(&w, "name", s.name ? s.name : "");
        jsonw_key(&w, "device");
        jsonw_begin_object(&w, JSONW_INLINE);
        jsonw_kv_string(&w, "name", dev.name);
        jsonw_kv_string(&w, "cc", cc);
        jsonw_kv_int(&w, "sms", dev.sms);
        jsonw_kv_int(&w, "clock_khz", dev.clock_khz);
        jsonw_end_object(&w);
        jsonw_kv_string(&w, "arch_model", s.arch->name);
        if (model != asked)
            jsonw_kv_string(&w, "arch_asked", asked->name);
        if (arch_note[0])
            jsonw_kv_string(&w, "arch_note", arch_note);
        jsonw_key(&w, "accesses");
        jsonw_begin_array(&w, JSONW_LINES);
    } else
        printf("%s\nmeasured on %s (sm_%d%d, %d SMs, %d MHz); predicted by the %s model\n",
               textsafe(s.name ? s.name : c.file, title, sizeof title), dev.name, dev.cc_major, dev.cc_minor, dev.sms,
               dev.clock_khz / 1000, s.arch->name);
    if (!c.json && arch_note[0])
        printf("note: %s\n", arch_note);
    int rc = CLI_OK;
    int64_t smem = kernelgen_smem_bytes(&s); /* once: a trace's reads every entry */
    for (int a = first; a < end; a++) {
        measure_plan p;
        gpu_measurement m;
        char msg[600];
        if (!measure_plan_make_sized(&s, a, c.iteration, smem, &p, msg, sizeof msg)) {
            cli_error("%s: access %d: %s", c.file, a, msg);
            rc = CLI_USAGE;
            break;
        }
        if (!gpu_measure(&p.rq, &m, msg, sizeof msg)) {
            fprintf(stderr, "bankscope: measure: access %d: ", a); /* may be a compiler log */
            textsafe_fputs_lines(msg, stderr);
            fputc('\n', stderr);
            measure_plan_free(&p);
            rc = CLI_FAIL;
            break;
        }
        if (m.cache_note[0])
            cli_error("measure: %s", m.cache_note);
        if (c.json)
            print_json(&w, &p, &m);
        else
            print_text(&s, &p, &m);
        measure_plan_free(&p);
    }
    gpu_close();
    scenario_free(&s);
    if (c.json) {
        /* the document is completed even after a failed access, so what was measured stays readable */
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        const char *why;
        if (!jsonw_finish(&w, &why))
            return cli_write_error("measure", why);
        return rc;
    }
    return rc == CLI_OK ? cli_finish_stdout("measure") : rc;
}
