/* scenario_tensor: what a scenario's access of a tensor-era kind (ldmatrix, stmatrix, atomic,
 * cp.async) moves per lane, and the request fields it carries (see scenario.h). */
#include <stdio.h>
#include <string.h>

#include "scenario.h"

bool scenario_tensor_access(const scenario_access *a, int i, int *size, int *align, scenario_error *err)
{
    banks_request r = {
        .op = a->op, .width = *size, .matrices = a->matrices, .atomic = a->atomic, .returns = a->returns};
    const char *what = "op";
    if (a->op == BANKS_LDMATRIX || a->op == BANKS_STMATRIX) {
        /* the lane's index gives the first element of its 16-byte row */
        r.width = 16;
        what = "matrices";
    } else if (a->op == BANKS_ATOMIC) {
        what = *size == 4 || *size == 8 ? "atomic" : "array";
    } else if (a->op == BANKS_CP_ASYNC) {
        what = "array";
    }
    const char *why = banks_request_problem(&r);
    if (why) {
        err->expr_pos = -1;
        snprintf(err->msg, sizeof err->msg, "%s (here %d bytes per lane)", why, r.width);
        snprintf(err->path, sizeof err->path, "accesses[%d].%s", i, a->vector && r.width == *size ? "vector" : what);
        return false;
    }
    *size = r.width;
    *align = banks_request_align(&r);
    return true;
}

void scenario_tensor_request(const scenario_access *a, banks_request *req)
{
    req->matrices = a->matrices;
    req->trans = a->trans;
    req->atomic = a->atomic;
    req->returns = a->returns;
}

void scenario_tensor_lanes(scenario_instr *in)
{
    if (in->req.op != BANKS_LDMATRIX && in->req.op != BANKS_STMATRIX)
        return;
    for (int l = 8 * in->req.matrices; l < BANKS_WARP; l++) {
        in->req.active &= ~(1u << l);
        if (in->lane[l].state != SCENARIO_LANE_NO_THREAD)
            in->lane[l].state = SCENARIO_LANE_MASKED;
    }
}

banks_request scenario_access_kind(const scenario_access *a)
{
    banks_request r = {.op = a->op, .width = a->width};
    scenario_tensor_request(a, &r);
    return r;
}

const char *scenario_kind_text(const banks_request *r, char *buf, size_t n)
{
    if (r->op == BANKS_LDMATRIX || r->op == BANKS_STMATRIX)
        snprintf(buf, n, "%s.x%d%s", banks_op_name(r->op), r->matrices, r->trans ? ".trans" : "");
    else if (r->op == BANKS_ATOMIC)
        snprintf(buf, n, "%s.%s", r->returns ? "atom" : "red", banks_atomic_name(r->atomic));
    else
        snprintf(buf, n, "%s", banks_op_name(r->op));
    return buf;
}

void scenario_kind_json(const banks_request *r, strbuf *o)
{
    if (r->op == BANKS_LDMATRIX || r->op == BANKS_STMATRIX)
        strbuf_addf(o, ", \"matrices\": %d, \"trans\": %s", r->matrices, r->trans ? "true" : "false");
    else if (r->op == BANKS_ATOMIC)
        strbuf_addf(o, ", \"atomic\": \"%s\", \"returns\": %s", banks_atomic_name(r->atomic),
                    r->returns ? "true" : "false");
}

bool scenario_kind_parse(const char *text, banks_request *r)
{
    r->matrices = 0;
    r->trans = false;
    r->returns = true;
    if (strcmp(text, "ld") == 0 || strcmp(text, "st") == 0) {
        r->op = text[0] == 'l' ? BANKS_LOAD : BANKS_STORE;
        return true;
    }
    if (strncmp(text, "ldmatrix.x", 10) == 0 || strncmp(text, "stmatrix.x", 10) == 0) {
        r->op = text[0] == 'l' ? BANKS_LDMATRIX : BANKS_STMATRIX;
        r->matrices = text[10] - '0';
        r->trans = strcmp(text + 11, ".trans") == 0;
        return (r->matrices == 1 || r->matrices == 2 || r->matrices == 4) && (r->trans || text[11] == '\0');
    }
    if (strncmp(text, "atom.", 5) == 0 || strncmp(text, "red.", 4) == 0) {
        r->op = BANKS_ATOMIC;
        r->returns = text[0] == 'a';
        return banks_atomic_parse(strchr(text, '.') + 1, &r->atomic);
    }
    return banks_op_parse(text, &r->op) && r->op != BANKS_LDMATRIX && r->op != BANKS_STMATRIX && r->op != BANKS_ATOMIC;
}
