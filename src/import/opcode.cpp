/* opcode: the operator of a libclang expression cursor. libclang 14's C API names a cursor
 * "BinaryOperator" but not which operator (clang_getCursorBinaryOperatorKind came in 17), and
 * reading it back from tokens fails inside macro expansions. So the cursor's statement is
 * read through clang's C++ headers of the same version, which libclang-dev ships: an expression
 * cursor holds its clang::Stmt in data[1] (see cxcursor::getCursorExpr). Only inline accessors
 * are used, so nothing is linked (libclang itself is loaded at run time, see clang_api.h). */
#include "import_internal.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

using namespace clang;

static const Expr *cursor_expr(CXCursor c)
{
    /* the kind is read from the cursor itself: this file calls nothing in libclang */
    if (c.kind < CXCursor_FirstExpr || c.kind > CXCursor_LastExpr)
        return nullptr;
    return static_cast<const Expr *>(c.data[1]);
}

extern "C" const char *import_binary_op(CXCursor c)
{
    const Expr *e = cursor_expr(c);
    const auto *b = e ? llvm::dyn_cast<BinaryOperator>(e) : nullptr;
    if (!b)
        return nullptr;
    switch (b->getOpcode()) {
    case BO_Mul: return "*";
    case BO_Div: return "/";
    case BO_Rem: return "%";
    case BO_Add: return "+";
    case BO_Sub: return "-";
    case BO_Shl: return "<<";
    case BO_Shr: return ">>";
    case BO_LT: return "<";
    case BO_GT: return ">";
    case BO_LE: return "<=";
    case BO_GE: return ">=";
    case BO_EQ: return "==";
    case BO_NE: return "!=";
    case BO_And: return "&";
    case BO_Xor: return "^";
    case BO_Or: return "|";
    case BO_LAnd: return "&&";
    case BO_LOr: return "||";
    case BO_Assign: return "=";
    case BO_MulAssign: return "*=";
    case BO_DivAssign: return "/=";
    case BO_RemAssign: return "%=";
    case BO_AddAssign: return "+=";
    case BO_SubAssign: return "-=";
    case BO_ShlAssign: return "<<=";
    case BO_ShrAssign: return ">>=";
    case BO_AndAssign: return "&=";
    case BO_XorAssign: return "^=";
    case BO_OrAssign: return "|=";
    case BO_Comma: return ",";
    default: return "?";
    }
}

extern "C" const char *import_unary_op(CXCursor c)
{
    const Expr *e = cursor_expr(c);
    const auto *u = e ? llvm::dyn_cast<UnaryOperator>(e) : nullptr;
    if (!u)
        return nullptr;
    switch (u->getOpcode()) {
    case UO_PostInc:
    case UO_PreInc: return "++";
    case UO_PostDec:
    case UO_PreDec: return "--";
    case UO_AddrOf: return "&";
    case UO_Deref: return "*";
    case UO_Plus: return "+";
    case UO_Minus: return "-";
    case UO_Not: return "~";
    case UO_LNot: return "!";
    default: return "?";
    }
}

extern "C" bool import_value_dependent(CXCursor c)
{
    const Expr *e = cursor_expr(c);
    return !e || e->isValueDependent() || e->isTypeDependent();
}

/* The operator of an overloaded-operator call ('a + n' in a template where a's type depends
 * on a template parameter, which clang keeps as an unresolved operator call): "+" or "-", else
 * NULL. */
extern "C" const char *import_operator_call_op(CXCursor c)
{
    const Expr *e = cursor_expr(c);
    const auto *o = e ? llvm::dyn_cast<CXXOperatorCallExpr>(e) : nullptr;
    if (!o || o->getNumArgs() != 2)
        return nullptr;
    switch (o->getOperator()) {
    case OO_Plus: return "+";
    case OO_Minus: return "-";
    default: return nullptr;
    }
}
