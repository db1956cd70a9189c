/* clang_api: find libclang and fill the function table (see clang_api.h). */
#include "import/clang_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

import_clang_api import_clang;

/* The table's functions, in the order of its members. */
static const char *const names[] = {
    "clang_Cursor_Evaluate",
    "clang_Cursor_getArgument",
    "clang_Cursor_getNumArguments",
    "clang_Cursor_getOffsetOfField",
    "clang_getOverloadedDecl",
    "clang_Cursor_getNumTemplateArguments",
    "clang_Cursor_getTemplateArgumentKind",
    "clang_Cursor_getTemplateArgumentValue",
    "clang_getSpecializedCursorTemplate",
    "clang_Cursor_getTemplateArgumentType",
    "clang_getNumOverloadedDecls",
    "clang_Cursor_isBitField",
    "clang_Cursor_isNull",
    "clang_Cursor_getStorageClass",
    "clang_EvalResult_dispose",
    "clang_EvalResult_getAsLongLong",
    "clang_EvalResult_getAsUnsigned",
    "clang_EvalResult_getKind",
    "clang_EvalResult_isUnsignedInt",
    "clang_Location_isFromMainFile",
    "clang_Location_isInSystemHeader",
    "clang_Type_getAlignOf",
    "clang_Type_getSizeOf",
    "clang_Type_visitFields",
    "clang_createIndex",
    "clang_disposeDiagnostic",
    "clang_disposeIndex",
    "clang_disposeString",
    "clang_disposeTranslationUnit",
    "clang_equalCursors",
    "clang_hashCursor",
    "clang_equalLocations",
    "clang_equalTypes",
    "clang_formatDiagnostic",
    "clang_getArrayElementType",
    "clang_getArraySize",
    "clang_getCString",
    "clang_getCanonicalType",
    "clang_getCursorDefinition",
    "clang_getCursorExtent",
    "clang_getCursorKind",
    "clang_getCursorLocation",
    "clang_getCursorReferenced",
    "clang_getCursorSemanticParent",
    "clang_getCursorSpelling",
    "clang_getCursorType",
    "clang_getDiagnostic",
    "clang_getDiagnosticSeverity",
    "clang_getEnumConstantDeclValue",
    "clang_getExpansionLocation",
    "clang_getNullCursor",
    "clang_getNullLocation",
    "clang_getNumDiagnostics",
    "clang_getPointeeType",
    "clang_getRangeEnd",
    "clang_getRangeStart",
    "clang_getTranslationUnitCursor",
    "clang_getTypeDeclaration",
    "clang_getTypeSpelling",
    "clang_isConstQualifiedType",
    "clang_isCursorDefinition",
    "clang_isExpression",
    "clang_parseTranslationUnit2",
    "clang_visitChildren",
    "clang_File_isEqual",
    "clang_getDiagnosticLocation",
    "clang_getFileName",
    "clang_tokenize",
    "clang_disposeTokens",
    "clang_getTokenSpelling",
    "clang_getTokenKind",
    "clang_getTokenLocation",
    "clang_getTypedefName",
    "clang_Type_getNamedType",
    "clang_Cursor_isAnonymous",
    "clang_Type_getNumTemplateArguments",
    "clang_Type_getTemplateArgumentAsType",
    "clang_getTypedefDeclUnderlyingType",
};

bool import_clang_load(char *err, size_t errlen)
{
    /* the library found at configure time, then the names the dynamic linker may know */
    static const char *const libs[] = {LIBCLANG_PATH, "libclang.so.1", "libclang-14.so.1", "libclang.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0] && !h; i++)
        h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "cannot load libclang (%s): install libclang-dev (or libclang1)", LIBCLANG_PATH);
        return false;
    }
    _Static_assert(sizeof import_clang == sizeof names / sizeof names[0] * sizeof(void *), "one slot per name");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *sym = dlsym(h, names[i]);
        /* POSIX: a function's address from dlsym is stored as the function pointer it is */
        memcpy((char *)&import_clang + i * sizeof sym, &sym, sizeof sym);
        if (!sym) {
            snprintf(err, errlen, "libclang (%s) has no %s: a newer libclang is needed", LIBCLANG_PATH, names[i]);
            return false;
        }
    }
    return true;
}
