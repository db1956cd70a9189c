/* expr: lexer, recursive-descent parser (nesting bounded by EXPR_MAX_DEPTH) and CUDA emitter;
 * evaluation is in expr_prog.c. */
#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s;
    int pos;
    int depth;
    const char *const *loops; /* EXPR_MAX_LOOPS names, NULL where none */
    expr *e;
    expr_error *err;
    bool failed;
} parser;

static const struct {
    const char *name;
    expr_var var;
} var_names[] = {
    {"threadIdx.x", EXPR_TX}, {"threadIdx.y", EXPR_TY}, {"threadIdx.z", EXPR_TZ}, {"tx", EXPR_TX},
    {"ty", EXPR_TY},          {"tz", EXPR_TZ},          {"blockDim.x", EXPR_BDX}, {"blockDim.y", EXPR_BDY},
    {"blockDim.z", EXPR_BDZ}, {"lane", EXPR_LANE},      {"warp", EXPR_WARP},      {"tid", EXPR_TID},
};

/* Record the first error only; later ones are consequences. */
static void fail(parser *p, int pos, const char *fmt, const char *arg)
{
    if (p->failed)
        return;
    p->failed = true;
    p->err->pos = pos;
    snprintf(p->err->msg, sizeof p->err->msg, fmt, arg);
}

static int node_new(parser *p, expr_kind k, int op, int a, int b, int pos)
{
    expr *e = p->e;
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->nodes = xrealloc(e->nodes, sizeof *e->nodes * (size_t)e->cap);
    }
    e->nodes[e->n] = (expr_node){.kind = k, .op = op, .a = a, .b = b, .c = -1, .pos = pos};
    return e->n++;
}

static void skip_ws(parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r')
        p->pos++;
}

/* Consume token tok if it comes next (and is not the start of a longer operator). */
static bool accept(parser *p, const char *tok)
{
    skip_ws(p);
    size_t n = strlen(tok);
    if (strncmp(p->s + p->pos, tok, n) != 0)
        return false;
    char next = p->s[p->pos + (int)n];
    if (n == 1 && (tok[0] == '<' || tok[0] == '>') && (next == tok[0] || next == '='))
        return false;
    if (n == 1 && (tok[0] == '&' || tok[0] == '|') && next == tok[0])
        return false;
    if (n == 1 && tok[0] == '!' && next == '=')
        return false;
    p->pos += (int)n;
    return true;
}

static int parse_expr(parser *p);

/* A decimal or 0x hexadecimal literal; the node's index, or -1 after an error (a bad digit, a
 * value past int64). */
static int parse_number(parser *p)
{
    int start = p->pos;
    int64_t v = 0;
    int base = 10;
    if (p->s[p->pos] == '0' && (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
        if (!isxdigit((unsigned char)p->s[p->pos])) {
            fail(p, p->pos, "expected hex digits after 0x%s", "");
            return -1;
        }
    }
    while (isxdigit((unsigned char)p->s[p->pos])) {
        char c = p->s[p->pos];
        int d = isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
        if (d >= base)
            break;
        if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) {
            fail(p, start, "integer literal too large%s", "");
            return -1;
        }
        p->pos++;
    }
    if (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_') {
        fail(p, p->pos, "unexpected character '%s' in number", (char[]){p->s[p->pos], '\0'});
        return -1;
    }
    int n = node_new(p, EXPR_NUM, 0, -1, -1, start);
    p->e->nodes[n].value = v;
    return n;
}

/* True when the len bytes at id spell exactly word. */
static bool ident_is(const char *id, int len, const char *word)
{
    return strncmp(id, word, (size_t)len) == 0 && word[len] == '\0';
}

bool expr_is_builtin_name(const char *name)
{
    static const char *const words[] = {"threadIdx", "blockDim", "tx",  "ty",  "tz",      "lane", "warp",
                                        "tid",       "warpSize", "min", "max", "swizzle", NULL};
    for (int i = 0; words[i]; i++)
        if (strcmp(name, words[i]) == 0)
            return true;
    return false;
}

/* CuTe's Swizzle<b,m,s> (0 <= b <= 16, 0 <= m <= 32, |s| >= b, m + |s| + b <= 62): the bits of
 * x it reads (b bits from bit m + s for s >= 0, from bit m for s < 0), and x with those bits
 * XOR-ed into the b bits |s| lower (s >= 0) or higher (s < 0). The expression function
 * swizzle(B, M, S, x) and the array option "swizzle" are both this arithmetic. */
static int64_t expr_swizzle_mask(int b, int m, int s)
{
    int at = m + (s > 0 ? s : 0); /* unsigned: bits shifted past bit 63 simply leave */
    return at > 63 ? 0 : (int64_t)((((uint64_t)1 << b) - 1) << at);
}

int64_t expr_swizzle(int b, int m, int s, int64_t x)
{
    int64_t sel = x & expr_swizzle_mask(b, m, s);
    return x ^ (s < 0 ? (int64_t)((uint64_t)sel << -s) : sel >> s);
}

/* One integer constant argument of swizzle( ) in [lo, hi], followed by sep. */
static bool swizzle_arg(parser *p, const char *what, int lo, int hi, const char *sep, int *out)
{
    skip_ws(p);
    int at = p->pos, before = p->e->n, n = parse_expr(p);
    if (n < 0 || p->failed)
        return false;
    const expr_node *nd = &p->e->nodes[n];
    bool neg = nd->kind == EXPR_UNARY && nd->op == EXPR_NEG && p->e->nodes[nd->a].kind == EXPR_NUM;
    int64_t v = neg ? -p->e->nodes[nd->a].value : nd->value;
    if ((nd->kind != EXPR_NUM && !neg) || v < lo || v > hi) {
        char msg[64];
        snprintf(msg, sizeof msg, "swizzle: %s must be a whole number %d..%d", what, lo, hi);
        fail(p, at, "%s", msg);
        return false;
    }
    *out = (int)v;
    p->e->n = before; /* a constant: no nodes (the tree stays in post-order) */
    if (!accept(p, sep)) {
        fail(p, p->pos, "expected '%s' in swizzle(B, M, S, x)", sep);
        return false;
    }
    return true;
}

/* swizzle(B, M, S, x): CuTe's Swizzle<B,M,S> applied to x, i.e. the B bits of x from bit M + S
 * (S >= 0; from bit M for S < 0) XOR-ed into the B bits from bit M (from bit M - S). Written
 * with the operators of the language, so every evaluator and the CUDA emitter agree; x is
 * parsed twice (the tree has no shared nodes). */
static int parse_swizzle(parser *p, int start)
{
    int b, m, sh;
    if (!accept(p, "(")) {
        fail(p, p->pos, "expected '(' after swizzle%s", "");
        return -1;
    }
    if (!swizzle_arg(p, "B", 0, 16, ",", &b) || !swizzle_arg(p, "M", 0, 32, ",", &m) ||
        !swizzle_arg(p, "S", -32, 32, ",", &sh))
        return -1;
    if ((sh < 0 ? -sh : sh) < b) {
        fail(p, start, "swizzle: |S| must be at least B (CuTe's Swizzle<B,M,S>)%s", "");
        return -1;
    }
    /* post-order of x ^ ((x & mask) >> s): x, x, mask, &, s, >>, ^ */
    skip_ws(p);
    int xpos = p->pos, x2 = parse_expr(p);
    if (x2 < 0 || p->failed)
        return -1;
    int end = p->pos;
    p->pos = xpos;
    int x1 = parse_expr(p);
    if (x1 < 0 || p->failed || p->pos != end)
        return -1;
    if (!accept(p, ")")) {
        fail(p, p->pos, "expected ')' to close swizzle(%s", "");
        return -1;
    }
    int mask = node_new(p, EXPR_NUM, 0, -1, -1, start);
    p->e->nodes[mask].value = expr_swizzle_mask(b, m, sh); /* the same arithmetic as expr_swizzle */
    int sel = node_new(p, EXPR_BINARY, EXPR_AND, x1, mask, start);
    int amt = node_new(p, EXPR_NUM, 0, -1, -1, start);
    p->e->nodes[amt].value = sh < 0 ? -sh : sh;
    int moved = node_new(p, EXPR_BINARY, sh < 0 ? EXPR_SHL : EXPR_SHR, sel, amt, start);
    return node_new(p, EXPR_BINARY, EXPR_XOR, x2, moved, start);
}

/* A word: a thread or block variable, the loop variable, a function call or a constant; the
 * node's index, or -1 after an error (an unknown name). */
static int parse_identifier(parser *p)
{
    int start = p->pos;
    while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_' ||
           (p->s[p->pos] == '.' && isalpha((unsigned char)p->s[p->pos + 1])))
        p->pos++;
    /* compared in full (never after truncation): the loop variable may be long */
    int len = p->pos - start;
    const char *id = p->s + start;
    for (size_t i = 0; i < sizeof var_names / sizeof var_names[0]; i++)
        if (ident_is(id, len, var_names[i].name))
            return node_new(p, EXPR_VAR, var_names[i].var, -1, -1, start);
    for (int k = 0; k < EXPR_MAX_LOOPS; k++)
        if (p->loops[k] && *p->loops[k] && ident_is(id, len, p->loops[k]))
            return node_new(p, EXPR_VAR, EXPR_LOOP + k, -1, -1, start);
    char name[72]; /* for messages only */
    if (len > 60)
        snprintf(name, sizeof name, "%.60s...", id);
    else
        snprintf(name, sizeof name, "%.*s", len, id);
    if (ident_is(id, len, "warpSize")) {
        int n = node_new(p, EXPR_NUM, 0, -1, -1, start);
        p->e->nodes[n].value = 32;
        return n;
    }
    if (ident_is(id, len, "swizzle"))
        return parse_swizzle(p, start);
    if (ident_is(id, len, "min") || ident_is(id, len, "max")) {
        int op = name[1] == 'i' ? EXPR_MIN : EXPR_MAX;
        if (!accept(p, "(")) {
            fail(p, p->pos, "expected '(' after %s", name);
            return -1;
        }
        int a = parse_expr(p);
        if (!accept(p, ",")) {
            fail(p, p->pos, "expected ',' in %s(a, b)", name);
            return -1;
        }
        int b = parse_expr(p);
        if (!accept(p, ")")) {
            fail(p, p->pos, "expected ')' to close %s(", name);
            return -1;
        }
        return node_new(p, EXPR_CALL, op, a, b, start);
    }
    fail(p, start, "unknown identifier '%s'", name);
    return -1;
}

/* A unary operator, a parenthesised expression or an operand; the node's index, or -1 after an
 * error (nesting past EXPR_MAX_DEPTH included). */
static int parse_unary(parser *p)
{
    skip_ws(p);
    if (p->failed)
        return -1;
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail(p, p->pos, "expression nested too deeply%s", "");
        return -1;
    }
    int start = p->pos, n = -1;
    char c = p->s[p->pos];
    if (c == '-' || c == '~' || c == '!' || c == '+') {
        p->pos++;
        int a = parse_unary(p);
        n = c == '+' ? a
                     : node_new(p, EXPR_UNARY,
                                c == '-'   ? EXPR_NEG
                                : c == '~' ? EXPR_BNOT
                                           : EXPR_LNOT,
                                a, -1, start);
    } else if (c == '(') {
        p->pos++;
        n = parse_expr(p);
        if (!accept(p, ")"))
            fail(p, p->pos, "expected ')'%s", "");
    } else if (isdigit((unsigned char)c)) {
        n = parse_number(p);
    } else if (isalpha((unsigned char)c) || c == '_') {
        n = parse_identifier(p);
    } else if (c == '\0') {
        fail(p, start, "expression ends too early%s", "");
    } else {
        fail(p, start, "unexpected character '%s'", (char[]){c, '\0'});
    }
    p->depth--;
    return n;
}

/* Binary levels, loosest first; each entry lists its operators. */
static const struct {
    const char *tok;
    expr_op op;
} levels[][4] = {
    {{"||", EXPR_LOR}},
    {{"&&", EXPR_LAND}},
    {{"|", EXPR_OR}},
    {{"^", EXPR_XOR}},
    {{"&", EXPR_AND}},
    {{"==", EXPR_EQ}, {"!=", EXPR_NE}},
    {{"<=", EXPR_LE}, {">=", EXPR_GE}, {"<", EXPR_LT}, {">", EXPR_GT}},
    {{"<<", EXPR_SHL}, {">>", EXPR_SHR}},
    {{"+", EXPR_ADD}, {"-", EXPR_SUB}},
    {{"*", EXPR_MUL}, {"/", EXPR_DIV}, {"%", EXPR_MOD}},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

/* The left-associative binary operators of precedence level and tighter; the node's index, or -1
 * after an error. */
static int parse_level(parser *p, int level)
{
    if (level == NLEVELS)
        return parse_unary(p);
    int left = parse_level(p, level + 1);
    for (;;) {
        if (p->failed)
            return -1;
        skip_ws(p);
        int pos = p->pos;
        int op = -1;
        for (int i = 0; i < 4 && levels[level][i].tok; i++)
            if (accept(p, levels[level][i].tok)) {
                op = (int)levels[level][i].op;
                break;
            }
        if (op < 0)
            return left;
        int right = parse_level(p, level + 1);
        left = node_new(p, EXPR_BINARY, op, left, right, pos);
    }
}

/* C's conditional-expression: logical-or [? expression : conditional-expression], so the
 * operator binds loosest and groups to the right; its position is that of the '?'. */
static int parse_expr(parser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail(p, p->pos, "expression nested too deeply%s", "");
        return -1;
    }
    int n = parse_level(p, 0);
    skip_ws(p);
    int pos = p->pos;
    if (!p->failed && accept(p, "?")) {
        int a = parse_expr(p);
        if (!p->failed && !accept(p, ":"))
            fail(p, p->pos, "expected ':' in c ? a : b%s", "");
        int b = p->failed ? -1 : parse_expr(p);
        n = p->failed ? -1 : node_new(p, EXPR_COND, 0, n, a, pos);
        if (n >= 0)
            p->e->nodes[n].c = b;
    }
    p->depth--;
    return n;
}

bool expr_parse(const char *text, const char *loop_var, expr *out, expr_error *err)
{
    const char *loops[EXPR_MAX_LOOPS] = {loop_var};
    return expr_parse_loops(text, loops, out, err);
}

bool expr_parse_loops(const char *text, const char *const loop_vars[EXPR_MAX_LOOPS], expr *out, expr_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    parser p = {.s = text, .loops = loop_vars, .e = out, .err = err};
    size_t len = strnlen(text, EXPR_MAX_LEN + 1);
    if (len > EXPR_MAX_LEN) {
        fail(&p, EXPR_MAX_LEN, "expression longer than %s characters", "4096");
        return false;
    }
    out->root = parse_expr(&p);
    skip_ws(&p);
    if (!p.failed && text[p.pos] != '\0')
        fail(&p, p.pos, "unexpected '%s' after the expression", (char[]){text[p.pos], '\0'});
    int stack_pos;
    if (!p.failed && !expr_prog_build(out, NULL, &out->prog, &stack_pos))
        fail(&p, stack_pos, "expression too complex (more than %s values pending at once)", "256");
    if (p.failed) {
        expr_free(out);
        return false;
    }
    out->text = xstrdup(text);
    return true;
}

void expr_free(expr *e)
{
    free(e->nodes);
    free(e->text);
    expr_prog_free(&e->prog);
    expr_prog_free(&e->fast);
    memset(e, 0, sizeof *e);
}

expr_status expr_eval(const expr *e, const expr_env *env, int64_t *out, int *pos)
{
    return expr_prog_run(&e->prog, env, out, pos);
}

void expr_prepare(const expr *e, expr_env *env)
{
    if (e->fast.ncode)
        expr_prog_prepare(&e->fast, env);
}

expr_status expr_eval_fast(const expr *e, const expr_env *env, int64_t *out, int *pos)
{
    return expr_prog_run(e->fast.ncode ? &e->fast : &e->prog, env, out, pos);
}

void expr_specialize(expr *e, const expr_range *r)
{
    expr_prog_free(&e->fast);
    int pos;
    if (!expr_prog_build(e, r, &e->fast, &pos)) /* cannot happen: the generic program fitted */
        expr_prog_free(&e->fast);
}

const char *expr_status_text(expr_status s)
{
    switch (s) {
    case EXPR_OK: return "ok";
    case EXPR_DIV_ZERO: return "division by zero";
    case EXPR_OVERFLOW: return "integer overflow";
    case EXPR_BAD_SHIFT: return "shift count outside 0..63";
    }
    return "?";
}

bool expr_uses(const expr *e, expr_var v)
{
    for (int i = 0; i < e->n; i++)
        if (e->nodes[i].kind == EXPR_VAR && e->nodes[i].op == (int)v)
            return true;
    return false;
}

static const char *op_text(int op)
{
    static const char *const t[] = {"-", "~",  "!",  "*",  "/", "%", "+", "-",  "<<", ">>",  "<",  "<=",
                                    ">", ">=", "==", "!=", "&", "^", "|", "&&", "||", "min", "max"};
    return t[op];
}

/* The kernel template's helper for an operator whose C++ form differs from the model's (checked
 * arithmetic), or NULL where C++ on long long already computes exactly what the model does. */
static const char *op_helper(int op)
{
    switch (op) {
    case EXPR_NEG: return "bs_neg";
    case EXPR_ADD: return "bs_add";
    case EXPR_SUB: return "bs_sub";
    case EXPR_MUL: return "bs_mul";
    case EXPR_DIV: return "bs_div";
    case EXPR_MOD: return "bs_mod";
    case EXPR_SHL: return "bs_shl";
    case EXPR_SHR: return "bs_shr";
    case EXPR_MIN: return "bs_min";
    case EXPR_MAX: return "bs_max";
    default: return NULL;
    }
}

/* Emit node i: every value is a long long; comparisons and logical operators, which are bool
 * (int) in C++, are widened at once so that no arithmetic happens in 32 bits. Recursion is
 * bounded: EXPR_MAX_LEN bounds the tree's depth. */
static void emit_node(const expr *e, int i, const char *const names[EXPR_NVARS], strbuf *out)
{
    const expr_node *n = &e->nodes[i];
    const char *h = n->kind == EXPR_COND ? NULL : op_helper(n->op);
    switch (n->kind) {
    case EXPR_NUM: strbuf_addf(out, "%lldLL", (long long)n->value); break;
    case EXPR_VAR: strbuf_addf(out, "((long long)%s)", names[n->op]); break;
    case EXPR_UNARY:
        if (n->op == EXPR_NEG)
            strbuf_addf(out, "%s(", h);
        else
            strbuf_addf(out, n->op == EXPR_LNOT ? "((long long)!" : "(~");
        emit_node(e, n->a, names, out);
        strbuf_addf(out, n->op == EXPR_NEG ? ", bs_err)" : n->op == EXPR_LNOT ? ")" : ")");
        break;
    case EXPR_COND: /* C's ?: evaluates only the chosen arm, as the model does */
        strbuf_addf(out, "(");
        emit_node(e, n->a, names, out);
        strbuf_addf(out, " ? ");
        emit_node(e, n->b, names, out);
        strbuf_addf(out, " : ");
        emit_node(e, n->c, names, out);
        strbuf_addf(out, ")");
        break;
    case EXPR_CALL:
    case EXPR_BINARY:
        if (h) {
            strbuf_addf(out, "%s(", h);
            emit_node(e, n->a, names, out);
            strbuf_addf(out, ", ");
            emit_node(e, n->b, names, out);
            strbuf_addf(out, n->op == EXPR_MIN || n->op == EXPR_MAX ? ")" : ", bs_err)");
            break;
        }
        bool wide = n->op >= EXPR_LT && n->op <= EXPR_NE ? true : n->op == EXPR_LAND || n->op == EXPR_LOR;
        strbuf_addf(out, wide ? "((long long)(" : "(");
        emit_node(e, n->a, names, out);
        strbuf_addf(out, " %s ", op_text(n->op));
        emit_node(e, n->b, names, out);
        strbuf_addf(out, wide ? "))" : ")");
        break;
    }
}

void expr_emit_cuda(const expr *e, const char *const names[EXPR_NVARS], strbuf *out)
{
    emit_node(e, e->root, names, out);
}
