/* cli_measure: `bankscope measure FILE [--json] [--access N] [--iteration K]`: each access run
 * on the GPU, the measured cycles and counters printed beside the model's prediction. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "io/load.h"
#include "io/measure_plan.h"
#include "io/report.h"

/* Text block for one access. */
static void print_text(const scenario *s, const measure_plan *p, const gpu_measurement *m)
{
    char kt[32];
    if (s->is_trace)
        printf("\ntrace[%d]: %s, %d B per lane\n", p->access, scenario_kind_text(&s->trace[p->access], kt, sizeof kt),
               s->trace[p->access].width);
    else {
        const scenario_access *a = &s->accesses[p->access];
        banks_request kind = scenario_access_kind(a);
        printf("\naccess %d: %s %s", p->access, scenario_kind_text(&kind, kt, sizeof kt), s->arrays[a->array].name);
        for (int d = 0; d < a->nidx; d++)
            printf("[%s]", a->index_text[d]);
        printf("%s%s  (%s, %d B per lane)", a->field ? "." : "", a->field ? a->field : "", a->type_text, a->width);
        if (s->loop.var)
            printf("  %s = %lld", s->loop.var, (long long)s->loop_values[p->iteration]);
        printf("\n");
    }
    printf("  %-30s %12s %12s\n", "", "predicted", "measured");
    bool agree = measure_plan_agrees(p->cycles_per_access, m->cycles_per_access);
    printf("  %-30s %12.2f %12.3f   %s\n", "cycles per warp-access per SM", p->cycles_per_access,
           m->cycles_per_access,
           p->rq.counter_set == GPU_COUNT_LDGSTS ? "not compared: the model has the shared side only, the copy "
                                                   "from global memory sets the time"
           : agree                              ? "agree (within 5 % + 0.1)"
                                                : "DIFFER");
    if (p->data_cycles_per_access > p->cycles_per_access + 0.005)
        printf("  %-30s %12.2f %12s   the kernel stores zeros; register data costs a cycle per "
               "phase\n", "  storing register data", p->data_cycles_per_access, "-");
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
           "latency %.1f, counters %.1f\n", m->blocks_per_sm, m->warps_per_sm, m->total_ms, m->compile_ms,
           m->cached ? " (cached)" : "", m->throughput_ms, m->latency_ms, m->counters_ms);
}

static void print_json(const scenario *s, const measure_plan *p, const gpu_measurement *m, bool first)
{
    printf("%s\n    {\"access\": %d, \"iteration\": %d, \"op\": \"%s\", \"warps\": %d, \"active_warps\": %d,\n",
           first ? "" : ",", p->access, p->iteration,
           scenario_op_text(s->is_trace ? s->trace[p->access].op : s->accesses[p->access].op), p->warps,
           p->active_warps);
    printf("     \"predicted\": {\"cycles_per_access\": %.4f, \"wavefronts\": %lld, \"bank_conflicts\": %lld, "
           "\"conflict_degree\": %d},\n",
           p->cycles_per_access, (long long)p->wavefronts, (long long)p->bank_conflicts, p->worst_degree);
    printf("     \"measured\": {\"cycles_per_access\": %.4f, \"ns_per_access\": %.4f, \"blocks_per_sm\": %d, "
           "\"warps_per_sm\": %d, ",
           m->cycles_per_access, m->ns_per_access, m->blocks_per_sm, m->warps_per_sm);
    if (m->have_latency)
        printf("\"latency_cycles\": %.2f, ", m->latency_cycles);
    else
        printf("\"latency_cycles\": null, ");
    if (m->have_counters)
        printf("\"wavefronts\": %.0f, \"bank_conflicts\": %.0f, \"instructions\": %.0f, ", m->wavefronts,
               m->bank_conflicts, m->instructions);
    else
        printf("\"wavefronts\": null, \"bank_conflicts\": null, \"counters_note\": \"%s\", ", m->counters_note);
    printf("\"compile_ms\": %.2f, \"cached\": %s, \"throughput_ms\": %.2f, \"latency_ms\": %.2f, "
           "\"counters_ms\": %.2f, \"total_ms\": %.2f},\n", m->compile_ms, m->cached ? "true" : "false",
           m->throughput_ms, m->latency_ms, m->counters_ms, m->total_ms);
    printf("     \"agree\": {\"cycles\": %s, \"counters\": %s}}",
           p->rq.counter_set == GPU_COUNT_LDGSTS                             ? "null"
           : measure_plan_agrees(p->cycles_per_access, m->cycles_per_access) ? "true"
                                                                             : "false",
           !m->have_counters ? "null"
           : ((double)p->wavefronts == m->wavefronts && (double)p->bank_conflicts == m->bank_conflicts) ? "true" : "false");
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
        fprintf(stderr, "bankscope: measure: no usable GPU: %s\n", why);
        return CLI_NO_GPU;
    }
    if (c.json)
        printf("{\n  \"name\": \"%s\",\n  \"device\": {\"name\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, \"clock_khz\": %d},\n"
               "  \"arch_model\": \"%s\",\n  \"accesses\": [",
               s.name ? s.name : "", dev.name, dev.cc_major, dev.cc_minor, dev.sms, dev.clock_khz, s.arch->name);
    else
        printf("%s\nmeasured on %s (sm_%d%d, %d SMs, %d MHz); predicted by the %s model\n", s.name ? s.name : c.file,
               dev.name, dev.cc_major, dev.cc_minor, dev.sms, dev.clock_khz / 1000, s.arch->name);
    int rc = CLI_OK;
    for (int a = first; a < end; a++) {
        measure_plan p;
        gpu_measurement m;
        char msg[600];
        if (!measure_plan_make(&s, a, c.iteration, &p, msg, sizeof msg)) {
            fprintf(stderr, "bankscope: %s: access %d: %s\n", c.file, a, msg);
            rc = CLI_USAGE;
            break;
        }
        if (!gpu_measure(&p.rq, &m, msg, sizeof msg)) {
            fprintf(stderr, "bankscope: measure: access %d: %s\n", a, msg);
            measure_plan_free(&p);
            rc = CLI_FAIL;
            break;
        }
        if (m.cache_note[0])
            fprintf(stderr, "bankscope: measure: %s\n", m.cache_note);
        if (c.json)
            print_json(&s, &p, &m, a == first);
        else
            print_text(&s, &p, &m);
        measure_plan_free(&p);
    }
    if (c.json)
        printf("\n  ]\n}\n");
    gpu_close();
    scenario_free(&s);
    return rc;
}
