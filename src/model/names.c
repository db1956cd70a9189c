/* names: the reserved words of generated CUDA code and of expressions. */
#include "names.h"

#include <string.h>

#include "expr.h"
#include "types.h"

/* C++20 keywords and alternative tokens, C keywords, CUDA's built-in variables, types and
 * functions the kernel calls, and macros or typedefs NVRTC or common headers define. */
static const char *const reserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "import", "inline", "int", "long", "module", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict",
    "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
    "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas", "_Alignof", "_Atomic", "_Bool",
    "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    /* CUDA */
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "half", "half2", "nv_bfloat16", "nv_bfloat162",
    "cudaError_t", "cudaStream_t", "clock", "clock64", "min", "max", "main", "printf", "malloc", "free", "memcpy",
    "memset", "assert", "std", "cuda",
    /* macros and typedefs */
    "NULL", "EOF", "offsetof", "size_t", "ptrdiff_t", "nullptr_t", "intptr_t", "uintptr_t", "int8_t", "int16_t",
    "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "INFINITY", "NAN", "TRUE", "FALSE", NULL};

/* True when name is a C identifier: a letter or _, then letters, digits and _, at most 63. */
static bool names_is_identifier(const char *s)
{
    if (!s || !*s || strlen(s) > 63 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

bool names_ok_in_cuda(const char *name)
{
    if (!names_is_identifier(name) || strncmp(name, "bs_", 3) == 0 || strncmp(name, "BS_", 3) == 0 ||
        strncmp(name, "__", 2) == 0)
        return false;
    for (int i = 0; reserved[i]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return false;
    types_builtin b; /* float4, uint2, long long... and the CUDA vector types of every width */
    if (types_builtin_find(name, &b))
        return false;
    static const char *const vec[] = {"char",  "uchar",    "short",     "ushort", "int",    "uint", "long",
                                      "ulong", "longlong", "ulonglong", "float",  "double", NULL};
    size_t n = strlen(name);
    for (int i = 0; vec[i]; i++)
        if (n == strlen(vec[i]) + 1 && strncmp(name, vec[i], n - 1) == 0 && name[n - 1] >= '1' && name[n - 1] <= '4')
            return false;
    return true;
}

bool names_ok_for_loop(const char *name)
{
    return names_is_identifier(name) && !expr_is_builtin_name(name);
}
