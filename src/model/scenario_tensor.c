/* scenario_tensor: what a scenario's access of a tensor-era kind (ldmatrix, stmatrix, atomic,
 * cp.async) moves per lane, and the request fields it carries (see scenario.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kinds.h"
#include "scenario.h"

bool scenario_tensor_access(const scenario_access *a, int i, int *size, int *align, scenario_error *err)
{
    banks_request r = {
        .op = a->op, .width = *size, .matrices = a->matrices, .atomic = a->atomic, .returns = a->returns};
    const kinds_row *k = kinds_of(a->op);
    const char *what = "op";
    if (k && k->rule == KINDS_RULE_MATRIX) {
        /* the lane's index gives the first element of its row: the kind's one width (16 bytes) */
        r.width = __builtin_ctz(k->widths);
        what = "matrices";
    } else if (k && kinds_takes_key(k, "atomic")) {
        what = kinds_width_ok(k, *size) ? "atomic" : "array";
    } else if (k && k->rule != KINDS_RULE_WORDS) {
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
    if (kinds_of(in->req.op)->rule != KINDS_RULE_MATRIX)
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
    const kinds_row *k = kinds_of(r->op);
    if (k && kinds_takes_key(k, "matrices"))
        snprintf(buf, n, "%s.x%d%s", k->name, r->matrices, r->trans ? ".trans" : "");
    else if (k && kinds_takes_key(k, "atomic"))
        snprintf(buf, n, "%s.%s", r->returns ? "atom" : "red", banks_atomic_name(r->atomic));
    else
        snprintf(buf, n, "%s", k ? k->name : "?");
    return buf;
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
    const char *x = strstr(text, ".x");
    const kinds_row *k = NULL;
    char name[16];
    if (x && x - text < (ptrdiff_t)sizeof name) {
        snprintf(name, sizeof name, "%.*s", (int)(x - text), text);
        k = kinds_find(name);
    }
    if (k && kinds_takes_key(k, "matrices")) { /* ldmatrix.x4.trans */
        r->op = (banks_op)k->op;
        r->matrices = x[2] - '0';
        r->trans = strcmp(x + 3, ".trans") == 0;
        return (r->matrices == 1 || r->matrices == 2 || r->matrices == 4) && (r->trans || x[3] == '\0');
    }
    if (strncmp(text, "atom.", 5) == 0 || strncmp(text, "red.", 4) == 0) {
        r->op = BANKS_ATOMIC;
        r->returns = text[0] == 'a';
        return banks_atomic_parse(strchr(text, '.') + 1, &r->atomic);
    }
    k = kinds_find(text);
    if (!k || k->op < 0 || kinds_takes_key(k, "matrices") || kinds_takes_key(k, "atomic"))
        return false;
    r->op = (banks_op)k->op;
    return true;
}
