/* fuzz_expr: libFuzzer harness for the expression parser, evaluator and CUDA emitter. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

int fuzz_expr_one(const uint8_t *data, size_t size);

int fuzz_expr_one(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    expr e;
    expr_error err;
    if (expr_parse(text, "i", &e, &err)) {
        expr_env env = {{0}};
        int64_t v;
        for (int t = 0; t < 4; t++) {
            for (int k = 0; k < EXPR_NVARS; k++)
                env.v[k] = t * 37 + k - 3;
            expr_eval(&e, &env, &v, NULL);
        }
        static const char *const names[EXPR_NVARS] = {"tx", "ty", "tz", "bx", "by", "bz", "lane", "warp", "tid", "i"};
        strbuf sb = {0};
        expr_emit_cuda(&e, names, &sb);
        strbuf_free(&sb);
        expr_free(&e);
    }
    free(text);
    return 0;
}

#ifndef BANKSCOPE_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_expr_one(data, size);
}
#endif
