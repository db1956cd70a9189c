/* expr_reference: the tree-walking evaluator that bankscope used before expressions were
 * compiled (expr_prog.c), kept as the reference the compiled programs must agree with: same
 * value, same error, same position. Recursive, so only for the small expressions of tests. */
#include "expr_reference.h"

typedef struct evaluator {
    const expr *e;
    const expr_env *env;
    expr_status st;
    int pos;
} evaluator;

static int64_t eval_node(evaluator *ev, int i);

/* A binary operator with every C undefined behaviour turned into an error. */
static int64_t eval_binary(evaluator *ev, const expr_node *n)
{
    int64_t a = eval_node(ev, n->a), r = 0;
    if (ev->st != EXPR_OK)
        return 0;
    if (n->op == EXPR_LAND && !a)
        return 0;
    if (n->op == EXPR_LOR && a)
        return 1;
    int64_t b = eval_node(ev, n->b);
    if (ev->st != EXPR_OK)
        return 0;
    bool ovf = false;
    switch ((expr_op)n->op) {
    case EXPR_ADD: ovf = __builtin_add_overflow(a, b, &r); break;
    case EXPR_SUB: ovf = __builtin_sub_overflow(a, b, &r); break;
    case EXPR_MUL: ovf = __builtin_mul_overflow(a, b, &r); break;
    case EXPR_DIV:
    case EXPR_MOD:
        if (b == 0) {
            ev->st = EXPR_DIV_ZERO;
            ev->pos = n->pos;
            return 0;
        }
        if (a == INT64_MIN && b == -1)
            ovf = true;
        else
            r = n->op == EXPR_DIV ? a / b : a % b;
        break;
    case EXPR_SHL:
    case EXPR_SHR:
        if (b < 0 || b > 63) {
            ev->st = EXPR_BAD_SHIFT;
            ev->pos = n->pos;
            return 0;
        }
        if (n->op == EXPR_SHR)
            r = a >> b;
        else if (a == 0)
            r = 0;
        else
            ovf = a < 0 || b == 63 || __builtin_mul_overflow(a, (int64_t)1 << b, &r);
        break;
    case EXPR_LT: r = a < b; break;
    case EXPR_LE: r = a <= b; break;
    case EXPR_GT: r = a > b; break;
    case EXPR_GE: r = a >= b; break;
    case EXPR_EQ: r = a == b; break;
    case EXPR_NE: r = a != b; break;
    case EXPR_AND: r = a & b; break;
    case EXPR_XOR: r = a ^ b; break;
    case EXPR_OR: r = a | b; break;
    case EXPR_LAND:
    case EXPR_LOR: r = b != 0; break;
    case EXPR_MIN: r = a < b ? a : b; break;
    case EXPR_MAX: r = a > b ? a : b; break;
    default: break;
    }
    if (ovf) {
        ev->st = EXPR_OVERFLOW;
        ev->pos = n->pos;
        return 0;
    }
    return r;
}

static int64_t eval_node(evaluator *ev, int i)
{
    const expr_node *n = &ev->e->nodes[i];
    switch (n->kind) {
    case EXPR_NUM: return n->value;
    case EXPR_VAR: return ev->env->v[n->op];
    case EXPR_UNARY: {
        int64_t a = eval_node(ev, n->a);
        if (n->op == EXPR_NEG) {
            if (a == INT64_MIN) {
                ev->st = EXPR_OVERFLOW;
                ev->pos = n->pos;
                return 0;
            }
            return -a;
        }
        return n->op == EXPR_BNOT ? ~a : !a;
    }
    case EXPR_BINARY:
    case EXPR_CALL: return eval_binary(ev, n);
    case EXPR_COND: { /* only the chosen arm: the other raises no error */
        int64_t c = eval_node(ev, n->a);
        if (ev->st != EXPR_OK)
            return 0;
        return eval_node(ev, c ? n->b : n->c);
    }
    }
    return 0;
}

expr_status expr_reference_eval(const expr *e, const expr_env *env, int64_t *out, int *pos)
{
    evaluator ev = {.e = e, .env = env, .st = EXPR_OK};
    int64_t v = eval_node(&ev, e->root);
    if (ev.st != EXPR_OK) {
        *pos = ev.pos;
        return ev.st;
    }
    *out = v;
    return EXPR_OK;
}

/* xorshift: the same random expressions on every run */
static uint64_t rng_state = 88172645463325252ull;
uint64_t expr_reference_rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random expression over every operator, variable and some edge constants. */
void expr_reference_random(strbuf *sb, int depth)
{
    static const char *const leaves[] = {"tx",
                                         "ty",
                                         "tz",
                                         "lane",
                                         "warp",
                                         "tid",
                                         "i",
                                         "blockDim.x",
                                         "warpSize",
                                         "0",
                                         "1",
                                         "2",
                                         "3",
                                         "7",
                                         "31",
                                         "32",
                                         "63",
                                         "64",
                                         "1024",
                                         "9223372036854775807",
                                         "4611686018427387904",
                                         "0x7fffffff"};
    static const char *const ops[] = {
        "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||"};
    int r = (int)(expr_reference_rnd() % 16);
    if (depth > 5 || r < 5) {
        strbuf_addf(sb, "%s", leaves[expr_reference_rnd() % (sizeof leaves / sizeof leaves[0])]);
    } else if (r < 7) {
        strbuf_addf(sb, "%c(", "-~!"[expr_reference_rnd() % 3]);
        expr_reference_random(sb, depth + 1);
        strbuf_addc(sb, ')');
    } else if (r < 8) {
        strbuf_addf(sb, "%s(", expr_reference_rnd() % 2 ? "min" : "max");
        expr_reference_random(sb, depth + 1);
        strbuf_addf(sb, ", ");
        expr_reference_random(sb, depth + 1);
        strbuf_addc(sb, ')');
    } else if (r < 9) { /* c ? a : b, parenthesised or not */
        bool paren = expr_reference_rnd() % 2;
        if (paren)
            strbuf_addc(sb, '(');
        expr_reference_random(sb, depth + 1);
        strbuf_addf(sb, " ? ");
        expr_reference_random(sb, depth + 1);
        strbuf_addf(sb, " : ");
        expr_reference_random(sb, depth + 1);
        if (paren)
            strbuf_addc(sb, ')');
    } else {
        bool paren = expr_reference_rnd() % 2;
        if (paren)
            strbuf_addc(sb, '(');
        expr_reference_random(sb, depth + 1);
        strbuf_addf(sb, " %s ", ops[expr_reference_rnd() % (sizeof ops / sizeof ops[0])]);
        expr_reference_random(sb, depth + 1);
        if (paren)
            strbuf_addc(sb, ')');
    }
}
