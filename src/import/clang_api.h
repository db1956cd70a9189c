/* clang_api: libclang's C functions, loaded with dlopen when an import runs (in its child process),
 * so that bankscope itself links neither libclang nor LLVM nor the C++ runtime: every other
 * command starts as fast as before and the program runs where libclang is not installed.
 * Each function keeps its name: clang_x(...) below calls through the table. */
#ifndef BANKSCOPE_CLANG_API_H
#define BANKSCOPE_CLANG_API_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct import_clang_api {
    __typeof__(clang_Cursor_Evaluate) *clang_Cursor_Evaluate;
    __typeof__(clang_Cursor_getArgument) *clang_Cursor_getArgument;
    __typeof__(clang_Cursor_getNumArguments) *clang_Cursor_getNumArguments;
    __typeof__(clang_Cursor_getOffsetOfField) *clang_Cursor_getOffsetOfField;
    __typeof__(clang_getOverloadedDecl) *clang_getOverloadedDecl;
    __typeof__(clang_Cursor_getNumTemplateArguments) *clang_Cursor_getNumTemplateArguments;
    __typeof__(clang_Cursor_getTemplateArgumentKind) *clang_Cursor_getTemplateArgumentKind;
    __typeof__(clang_Cursor_getTemplateArgumentValue) *clang_Cursor_getTemplateArgumentValue;
    __typeof__(clang_getSpecializedCursorTemplate) *clang_getSpecializedCursorTemplate;
    __typeof__(clang_Cursor_getTemplateArgumentType) *clang_Cursor_getTemplateArgumentType;
    __typeof__(clang_getNumOverloadedDecls) *clang_getNumOverloadedDecls;
    __typeof__(clang_Cursor_isBitField) *clang_Cursor_isBitField;
    __typeof__(clang_Cursor_isNull) *clang_Cursor_isNull;
    __typeof__(clang_Cursor_getStorageClass) *clang_Cursor_getStorageClass;
    __typeof__(clang_EvalResult_dispose) *clang_EvalResult_dispose;
    __typeof__(clang_EvalResult_getAsLongLong) *clang_EvalResult_getAsLongLong;
    __typeof__(clang_EvalResult_getAsUnsigned) *clang_EvalResult_getAsUnsigned;
    __typeof__(clang_EvalResult_getKind) *clang_EvalResult_getKind;
    __typeof__(clang_EvalResult_isUnsignedInt) *clang_EvalResult_isUnsignedInt;
    __typeof__(clang_Location_isFromMainFile) *clang_Location_isFromMainFile;
    __typeof__(clang_Location_isInSystemHeader) *clang_Location_isInSystemHeader;
    __typeof__(clang_Type_getAlignOf) *clang_Type_getAlignOf;
    __typeof__(clang_Type_getSizeOf) *clang_Type_getSizeOf;
    __typeof__(clang_Type_visitFields) *clang_Type_visitFields;
    __typeof__(clang_createIndex) *clang_createIndex;
    __typeof__(clang_disposeDiagnostic) *clang_disposeDiagnostic;
    __typeof__(clang_disposeIndex) *clang_disposeIndex;
    __typeof__(clang_disposeString) *clang_disposeString;
    __typeof__(clang_disposeTranslationUnit) *clang_disposeTranslationUnit;
    __typeof__(clang_equalCursors) *clang_equalCursors;
    __typeof__(clang_hashCursor) *clang_hashCursor;
    __typeof__(clang_equalLocations) *clang_equalLocations;
    __typeof__(clang_equalTypes) *clang_equalTypes;
    __typeof__(clang_formatDiagnostic) *clang_formatDiagnostic;
    __typeof__(clang_getArrayElementType) *clang_getArrayElementType;
    __typeof__(clang_getArraySize) *clang_getArraySize;
    __typeof__(clang_getCString) *clang_getCString;
    __typeof__(clang_getCanonicalType) *clang_getCanonicalType;
    __typeof__(clang_getCursorDefinition) *clang_getCursorDefinition;
    __typeof__(clang_getCursorExtent) *clang_getCursorExtent;
    __typeof__(clang_getCursorKind) *clang_getCursorKind;
    __typeof__(clang_getCursorLocation) *clang_getCursorLocation;
    __typeof__(clang_getCursorReferenced) *clang_getCursorReferenced;
    __typeof__(clang_getCursorSemanticParent) *clang_getCursorSemanticParent;
    __typeof__(clang_getCursorSpelling) *clang_getCursorSpelling;
    __typeof__(clang_getCursorType) *clang_getCursorType;
    __typeof__(clang_getDiagnostic) *clang_getDiagnostic;
    __typeof__(clang_getDiagnosticSeverity) *clang_getDiagnosticSeverity;
    __typeof__(clang_getEnumConstantDeclValue) *clang_getEnumConstantDeclValue;
    __typeof__(clang_getExpansionLocation) *clang_getExpansionLocation;
    __typeof__(clang_getNullCursor) *clang_getNullCursor;
    __typeof__(clang_getNullLocation) *clang_getNullLocation;
    __typeof__(clang_getNumDiagnostics) *clang_getNumDiagnostics;
    __typeof__(clang_getPointeeType) *clang_getPointeeType;
    __typeof__(clang_getRangeEnd) *clang_getRangeEnd;
    __typeof__(clang_getRangeStart) *clang_getRangeStart;
    __typeof__(clang_getTranslationUnitCursor) *clang_getTranslationUnitCursor;
    __typeof__(clang_getTypeDeclaration) *clang_getTypeDeclaration;
    __typeof__(clang_getTypeSpelling) *clang_getTypeSpelling;
    __typeof__(clang_isConstQualifiedType) *clang_isConstQualifiedType;
    __typeof__(clang_isCursorDefinition) *clang_isCursorDefinition;
    __typeof__(clang_isExpression) *clang_isExpression;
    __typeof__(clang_parseTranslationUnit2) *clang_parseTranslationUnit2;
    __typeof__(clang_visitChildren) *clang_visitChildren;
    __typeof__(clang_File_isEqual) *clang_File_isEqual;
    __typeof__(clang_getDiagnosticLocation) *clang_getDiagnosticLocation;
    __typeof__(clang_getFileName) *clang_getFileName;
    __typeof__(clang_tokenize) *clang_tokenize;
    __typeof__(clang_disposeTokens) *clang_disposeTokens;
    __typeof__(clang_getTokenSpelling) *clang_getTokenSpelling;
    __typeof__(clang_getTokenKind) *clang_getTokenKind;
    __typeof__(clang_getTokenLocation) *clang_getTokenLocation;
    __typeof__(clang_getTypedefName) *clang_getTypedefName;
    __typeof__(clang_Type_getNamedType) *clang_Type_getNamedType;
    __typeof__(clang_Cursor_isAnonymous) *clang_Cursor_isAnonymous;
    __typeof__(clang_Type_getNumTemplateArguments) *clang_Type_getNumTemplateArguments;
    __typeof__(clang_Type_getTemplateArgumentAsType) *clang_Type_getTemplateArgumentAsType;
    __typeof__(clang_getTypedefDeclUnderlyingType) *clang_getTypedefDeclUnderlyingType;
} import_clang_api;

extern import_clang_api import_clang;

/* Load libclang and every function above; false with a message in err. */
bool import_clang_load(char *err, size_t errlen);

#define clang_Cursor_Evaluate (*import_clang.clang_Cursor_Evaluate)
#define clang_Cursor_getArgument (*import_clang.clang_Cursor_getArgument)
#define clang_Cursor_getNumArguments (*import_clang.clang_Cursor_getNumArguments)
#define clang_Cursor_getOffsetOfField (*import_clang.clang_Cursor_getOffsetOfField)
#define clang_getOverloadedDecl (*import_clang.clang_getOverloadedDecl)
#define clang_Cursor_getNumTemplateArguments (*import_clang.clang_Cursor_getNumTemplateArguments)
#define clang_Cursor_getTemplateArgumentKind (*import_clang.clang_Cursor_getTemplateArgumentKind)
#define clang_Cursor_getTemplateArgumentValue (*import_clang.clang_Cursor_getTemplateArgumentValue)
#define clang_getSpecializedCursorTemplate (*import_clang.clang_getSpecializedCursorTemplate)
#define clang_Cursor_getTemplateArgumentType (*import_clang.clang_Cursor_getTemplateArgumentType)
#define clang_getNumOverloadedDecls (*import_clang.clang_getNumOverloadedDecls)
#define clang_Cursor_isBitField (*import_clang.clang_Cursor_isBitField)
#define clang_Cursor_isNull (*import_clang.clang_Cursor_isNull)
#define clang_Cursor_getStorageClass (*import_clang.clang_Cursor_getStorageClass)
#define clang_EvalResult_dispose (*import_clang.clang_EvalResult_dispose)
#define clang_EvalResult_getAsLongLong (*import_clang.clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getAsUnsigned (*import_clang.clang_EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind (*import_clang.clang_EvalResult_getKind)
#define clang_EvalResult_isUnsignedInt (*import_clang.clang_EvalResult_isUnsignedInt)
#define clang_Location_isFromMainFile (*import_clang.clang_Location_isFromMainFile)
#define clang_Location_isInSystemHeader (*import_clang.clang_Location_isInSystemHeader)
#define clang_Type_getAlignOf (*import_clang.clang_Type_getAlignOf)
#define clang_Type_getSizeOf (*import_clang.clang_Type_getSizeOf)
#define clang_Type_visitFields (*import_clang.clang_Type_visitFields)
#define clang_createIndex (*import_clang.clang_createIndex)
#define clang_disposeDiagnostic (*import_clang.clang_disposeDiagnostic)
#define clang_disposeIndex (*import_clang.clang_disposeIndex)
#define clang_disposeString (*import_clang.clang_disposeString)
#define clang_disposeTranslationUnit (*import_clang.clang_disposeTranslationUnit)
#define clang_equalCursors (*import_clang.clang_equalCursors)
#define clang_hashCursor (*import_clang.clang_hashCursor)
#define clang_equalLocations (*import_clang.clang_equalLocations)
#define clang_equalTypes (*import_clang.clang_equalTypes)
#define clang_formatDiagnostic (*import_clang.clang_formatDiagnostic)
#define clang_getArrayElementType (*import_clang.clang_getArrayElementType)
#define clang_getArraySize (*import_clang.clang_getArraySize)
#define clang_getCString (*import_clang.clang_getCString)
#define clang_getCanonicalType (*import_clang.clang_getCanonicalType)
#define clang_getCursorDefinition (*import_clang.clang_getCursorDefinition)
#define clang_getCursorExtent (*import_clang.clang_getCursorExtent)
#define clang_getCursorKind (*import_clang.clang_getCursorKind)
#define clang_getCursorLocation (*import_clang.clang_getCursorLocation)
#define clang_getCursorReferenced (*import_clang.clang_getCursorReferenced)
#define clang_getCursorSemanticParent (*import_clang.clang_getCursorSemanticParent)
#define clang_getCursorSpelling (*import_clang.clang_getCursorSpelling)
#define clang_getCursorType (*import_clang.clang_getCursorType)
#define clang_getDiagnostic (*import_clang.clang_getDiagnostic)
#define clang_getDiagnosticSeverity (*import_clang.clang_getDiagnosticSeverity)
#define clang_getEnumConstantDeclValue (*import_clang.clang_getEnumConstantDeclValue)
#define clang_getExpansionLocation (*import_clang.clang_getExpansionLocation)
#define clang_getNullCursor (*import_clang.clang_getNullCursor)
#define clang_getNullLocation (*import_clang.clang_getNullLocation)
#define clang_getNumDiagnostics (*import_clang.clang_getNumDiagnostics)
#define clang_getPointeeType (*import_clang.clang_getPointeeType)
#define clang_getRangeEnd (*import_clang.clang_getRangeEnd)
#define clang_getRangeStart (*import_clang.clang_getRangeStart)
#define clang_getTranslationUnitCursor (*import_clang.clang_getTranslationUnitCursor)
#define clang_getTypeDeclaration (*import_clang.clang_getTypeDeclaration)
#define clang_getTypeSpelling (*import_clang.clang_getTypeSpelling)
#define clang_isConstQualifiedType (*import_clang.clang_isConstQualifiedType)
#define clang_isCursorDefinition (*import_clang.clang_isCursorDefinition)
#define clang_isExpression (*import_clang.clang_isExpression)
#define clang_parseTranslationUnit2 (*import_clang.clang_parseTranslationUnit2)
#define clang_visitChildren (*import_clang.clang_visitChildren)
#define clang_File_isEqual (*import_clang.clang_File_isEqual)
#define clang_getDiagnosticLocation (*import_clang.clang_getDiagnosticLocation)
#define clang_getFileName (*import_clang.clang_getFileName)
#define clang_tokenize (*import_clang.clang_tokenize)
#define clang_disposeTokens (*import_clang.clang_disposeTokens)
#define clang_getTokenSpelling (*import_clang.clang_getTokenSpelling)
#define clang_getTokenKind (*import_clang.clang_getTokenKind)
#define clang_getTokenLocation (*import_clang.clang_getTokenLocation)
#define clang_getTypedefName (*import_clang.clang_getTypedefName)
#define clang_Type_getNamedType (*import_clang.clang_Type_getNamedType)
#define clang_Cursor_isAnonymous (*import_clang.clang_Cursor_isAnonymous)
#define clang_Type_getNumTemplateArguments (*import_clang.clang_Type_getNumTemplateArguments)
#define clang_Type_getTemplateArgumentAsType (*import_clang.clang_Type_getTemplateArgumentAsType)
#define clang_getTypedefDeclUnderlyingType (*import_clang.clang_getTypedefDeclUnderlyingType)

#endif
