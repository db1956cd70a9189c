/* expr_print: expressions (built or parsed) as expression-language text with the fewest
 * parentheses C's precedence allows; expr_parse_loops reads the text back as the same tree. */
#include "expr.h"

#include <stdint.h>

static const char *const op_text[] = {"-", "~",  "!",  "*",  "/", "%", "+", "-",  "<<", ">>",  "<",  "<=",
                                      ">", ">=", "==", "!=", "&", "^", "|", "&&", "||", "min", "max"};
static const char *const var_text[EXPR_LOOP] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y",
                                                "blockDim.z",  "lane",        "warp",        "tid"};

/* C precedence of a binary operator (higher binds tighter). */
static int prec(int op)
{
    switch (op) {
    case EXPR_MUL:
    case EXPR_DIV:
    case EXPR_MOD: return 12;
    case EXPR_ADD:
    case EXPR_SUB: return 11;
    case EXPR_SHL:
    case EXPR_SHR: return 10;
    case EXPR_LT:
    case EXPR_LE:
    case EXPR_GT:
    case EXPR_GE: return 9;
    case EXPR_EQ:
    case EXPR_NE: return 8;
    case EXPR_AND: return 7;
    case EXPR_XOR: return 6;
    case EXPR_OR: return 5;
    case EXPR_LAND: return 4;
    case EXPR_LOR: return 3;
    default: return 13;
    }
}

typedef struct printer {
    const expr_node *nodes;
    const char *const *loops;
    int nloops;
    strbuf *out;
    size_t limit; /* stop once out is longer */
} printer;

/* Print node i; ctx is the precedence of the surrounding operator (0: none), right whether i is
 * its right operand. */
static void print_at(const printer *pr, int i, int ctx, bool right)
{
    const expr_node *e = &pr->nodes[i];
    strbuf *out = pr->out;
    if (out->len > pr->limit)
        return;
    switch (e->kind) {
    case EXPR_NUM: strbuf_addf(out, e->value < 0 && ctx >= 11 ? "(%lld)" : "%lld", (long long)e->value); return;
    case EXPR_VAR: {
        int k = e->op - EXPR_LOOP;
        strbuf_addf(out, "%s",
                    e->op < EXPR_LOOP                ? var_text[e->op]
                    : k < pr->nloops && pr->loops[k] ? pr->loops[k]
                                                     : "?");
        return;
    }
    case EXPR_UNARY:
        strbuf_addf(out, "%s", op_text[e->op]);
        print_at(pr, e->a, 13, true);
        return;
    case EXPR_CALL:
        strbuf_addf(out, "%s(", op_text[e->op]);
        print_at(pr, e->a, 0, false);
        strbuf_addf(out, ", ");
        print_at(pr, e->b, 0, false);
        strbuf_addc(out, ')');
        return;
    case EXPR_COND: { /* C's ?: (precedence 2, below ||; groups to the right) */
        bool paren = ctx > 2 || (ctx == 2 && right);
        if (paren)
            strbuf_addc(out, '(');
        print_at(pr, e->a, 3, false);
        strbuf_addf(out, " ? ");
        print_at(pr, e->b, 0, false);
        strbuf_addf(out, " : ");
        print_at(pr, e->c, 2, false);
        if (paren)
            strbuf_addc(out, ')');
        return;
    }
    case EXPR_BINARY: {
        int p = prec(e->op);
        bool paren = p < ctx || (p == ctx && right);
        if (paren)
            strbuf_addc(out, '(');
        print_at(pr, e->a, p, false);
        strbuf_addf(out, " %s ", op_text[e->op]);
        print_at(pr, e->b, p, true);
        if (paren)
            strbuf_addc(out, ')');
        return;
    }
    }
}

void expr_pool_print(const expr_pool *p, expr_ref e, const char *const *loop_names, int nloop_names, strbuf *out)
{
    printer pr = {p->nodes, loop_names, nloop_names, out, out->len + EXPR_MAX_LEN};
    if (e > 0)
        print_at(&pr, e - 1, 0, false);
}

void expr_print(const expr *e, const char *const *loop_names, int nloop_names, strbuf *out)
{
    printer pr = {e->nodes, loop_names, nloop_names, out, SIZE_MAX};
    if (e->n > 0)
        print_at(&pr, e->root, 0, false);
}
