/* PathRelax front end: types, node allocation and freeing of the Ast.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "lang_internal.h"

#include <string.h>

const Type type_void = { .kind = TY_VOID, .class_index = -1 };
const Type type_int = { .kind = TY_INT, .class_index = -1 };
const Type type_long = { .kind = TY_LONG, .class_index = -1 };
const Type type_bool = { .kind = TY_BOOL, .class_index = -1 };
const Type type_null = { .kind = TY_NULL, .class_index = -1 };
const Type type_error = { .kind = TY_ERROR, .class_index = -1 };
const Type type_atomic_int = { .kind = TY_ATOMIC_INT, .class_index = -1 };
const Type type_atomic_array = { .kind = TY_ATOMIC_ARRAY, .class_index = -1, .elem = &type_int };

/* ---- types ---------------------------------------------------------- */

static bool same_class(const Type *a, const Type *b)
{
    if (a->class_index >= 0 && b->class_index >= 0)
        return a->class_index == b->class_index;
    return a->class_name && b->class_name && strcmp(a->class_name, b->class_name) == 0;
}

/* Iterative over the element types: array types may be deep. */
bool type_equal(const Type *a, const Type *b)
{
    for (;;) {
        if (a == b)
            return true;
        if (a->kind != b->kind)
            return false;
        if (a->kind == TY_CLASS)
            return same_class(a, b);
        if (a->kind != TY_ARRAY)
            return true;
        a = a->elem;
        b = b->elem;
    }
}

bool type_is_ref(const Type *t)
{
    return t->kind == TY_CLASS || t->kind == TY_ARRAY || t->kind == TY_NULL || type_is_atomic(t);
}

bool type_is_atomic(const Type *t)
{
    return t->kind == TY_ATOMIC_INT || t->kind == TY_ATOMIC_ARRAY;
}

bool type_is_numeric(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_LONG;
}

static const char *base_type_name(const Type *t)
{
    switch (t->kind) {
    case TY_VOID: return "void";
    case TY_INT: return "int";
    case TY_LONG: return "long";
    case TY_BOOL: return "boolean";
    case TY_NULL: return "null";
    case TY_CLASS: return t->class_name ? t->class_name : "?";
    case TY_ATOMIC_INT: return "AtomicInteger";
    case TY_ATOMIC_ARRAY: return "AtomicIntegerArray";
    case TY_ERROR: return "<error>";
    case TY_ARRAY: break;
    }
    return "?";
}

char *type_to_string(const Type *t)
{
    int dims = 0;
    while (t->kind == TY_ARRAY) {
        dims++;
        t = t->elem;
    }
    GString *s = g_string_new(base_type_name(t));
    for (int i = 0; i < dims; i++)
        g_string_append(s, "[]");
    return g_string_free(s, FALSE);
}

/* ---- operators ------------------------------------------------------ */

const char *operator_spelling(Operator op)
{
    static const char *const spelling[] = {
        [OPR_ADD] = "+", [OPR_SUB] = "-", [OPR_MUL] = "*", [OPR_DIV] = "/",
        [OPR_REM] = "%", [OPR_SHL] = "<<", [OPR_SHR] = ">>", [OPR_USHR] = ">>>",
        [OPR_AND] = "&", [OPR_OR] = "|", [OPR_XOR] = "^", [OPR_LAND] = "&&",
        [OPR_LOR] = "||", [OPR_EQ] = "==", [OPR_NE] = "!=", [OPR_LT] = "<",
        [OPR_LE] = "<=", [OPR_GT] = ">", [OPR_GE] = ">=", [OPR_NEG] = "-",
        [OPR_NOT] = "!", [OPR_BITNOT] = "~",
    };
    return spelling[op];
}

/* ---- allocation ----------------------------------------------------- */

/* One entry of Ast.nodes: something to free and how. */
typedef struct {
    gpointer object;
    GDestroyNotify destroy;
} Owned;

static void owned_free(gpointer data)
{
    Owned *owned = data;
    owned->destroy(owned->object);
    g_free(owned);
}

static gpointer own(Ast *ast, gpointer object, GDestroyNotify destroy)
{
    Owned *owned = g_new(Owned, 1);
    owned->object = object;
    owned->destroy = destroy;
    g_ptr_array_add(ast->nodes, owned);
    return object;
}

gpointer ast_alloc(Ast *ast, gsize size)
{
    return own(ast, g_malloc0(size), g_free);
}

GPtrArray *ast_ptr_array(Ast *ast)
{
    return own(ast, g_ptr_array_new(), (GDestroyNotify) g_ptr_array_unref);
}

GArray *ast_array(Ast *ast, gsize elem_size)
{
    return own(ast, g_array_new(FALSE, TRUE, (guint) elem_size),
               (GDestroyNotify) g_array_unref);
}

const char *ast_intern(Ast *ast, const char *s)
{
    return g_string_chunk_insert_const(ast->strings, s);
}

Ast *ast_new(const char *filename, const char *text, gsize len)
{
    Ast *ast = g_new0(Ast, 1);
    ast->filename = g_strdup(filename);
    ast->source = g_strndup(text, len);
    ast->strings = g_string_chunk_new(1024);
    ast->nodes = g_ptr_array_new_with_free_func(owned_free);
    ast->globals = g_array_new(FALSE, TRUE, sizeof(VarDecl));
    ast->classes = g_array_new(FALSE, TRUE, sizeof(ClassDecl));
    ast->methods = g_ptr_array_new();
    ast->threads = g_array_new(FALSE, TRUE, sizeof(ThreadDecl));
    ast->shown = g_ptr_array_new();
    ast->cond_kind = CK_NONE;
    return ast;
}

Expr *ast_new_expr(Ast *ast, ExprKind kind, SrcPos pos)
{
    Expr *e = AST_NEW(ast, Expr);
    e->kind = kind;
    e->pos = pos;
    e->sym = SYM_NONE;
    e->sym_index = -1;
    e->sym_class = -1;
    e->method_index = -1;
    return e;
}

Stmt *ast_new_stmt(Ast *ast, StmtKind kind, SrcPos pos)
{
    Stmt *s = AST_NEW(ast, Stmt);
    s->kind = kind;
    s->pos = pos;
    s->op = -1;
    s->sym_index = -1;
    s->loop_slot = -1;
    return s;
}

Type *ast_new_type(Ast *ast, TypeKind kind)
{
    Type *t = AST_NEW(ast, Type);
    t->kind = kind;
    t->class_index = -1;
    return t;
}

CondExpr *ast_new_cond(Ast *ast, CondExprKind kind, SrcPos pos)
{
    CondExpr *c = AST_NEW(ast, CondExpr);
    c->kind = kind;
    c->pos = pos;
    c->loc = -1;
    return c;
}

CondCmp *ast_new_cmp(Ast *ast, SrcPos pos)
{
    CondCmp *cmp = AST_NEW(ast, CondCmp);
    cmp->base.kind = CE_CMP;
    cmp->base.pos = pos;
    cmp->base.loc = -1;
    return cmp;
}

CondLoc *ast_new_loc(Ast *ast, SrcPos pos)
{
    CondLoc *loc = AST_NEW(ast, CondLoc);
    loc->pos = pos;
    loc->steps = ast_array(ast, sizeof(LocStep));
    loc->thread_index = -1;
    loc->reg_slot = -1;
    loc->global_index = -1;
    return loc;
}

void ast_free(Ast *ast)
{
    if (!ast)
        return;
    g_ptr_array_unref(ast->nodes);
    g_array_unref(ast->globals);
    g_array_unref(ast->classes);
    g_ptr_array_unref(ast->methods);
    g_array_unref(ast->threads);
    g_ptr_array_unref(ast->shown);
    g_string_chunk_free(ast->strings);
    g_free(ast->filename);
    g_free(ast->source);
    g_free(ast->name);
    g_free(ast->description);
    g_free(ast->cond_text);
    g_free(ast);
}
