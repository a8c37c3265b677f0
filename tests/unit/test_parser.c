/* Unit tests of the litmus parser: file layout, tree shapes, precedence,
 * conditions, syntax errors and deep nesting.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Trees are compared as S-expressions: (+ 1 (* 2 3)) is 1 + 2 * 3.
 */
#include "pathrelax/lang.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* ---- printing trees ------------------------------------------------- */

static const char *op_name(Operator op)
{
    static const char *const names[] = {
        [OPR_ADD] = "+", [OPR_SUB] = "-", [OPR_MUL] = "*", [OPR_DIV] = "/",
        [OPR_REM] = "%", [OPR_SHL] = "<<", [OPR_SHR] = ">>", [OPR_USHR] = ">>>",
        [OPR_AND] = "&", [OPR_OR] = "|", [OPR_XOR] = "^", [OPR_LAND] = "&&",
        [OPR_LOR] = "||", [OPR_EQ] = "==", [OPR_NE] = "!=", [OPR_LT] = "<",
        [OPR_LE] = "<=", [OPR_GT] = ">", [OPR_GE] = ">=", [OPR_NEG] = "neg",
        [OPR_NOT] = "!", [OPR_BITNOT] = "~",
    };
    return names[op];
}

static void print_expr(GString *out, const Expr *e);

static void print_args(GString *out, const GPtrArray *args)
{
    for (guint i = 0; i < args->len; i++) {
        g_string_append_c(out, ' ');
        print_expr(out, args->pdata[i]);
    }
}

static void print_type(GString *out, const Type *t)
{
    char *s = type_to_string(t);
    g_string_append(out, s);
    g_free(s);
}

static void print_expr(GString *out, const Expr *e)
{
    switch (e->kind) {
    case EX_INT_LIT:
        g_string_append_printf(out, "%" G_GINT64_FORMAT "%s", e->ival, e->is_long ? "L" : "");
        break;
    case EX_BOOL_LIT: g_string_append(out, e->ival ? "true" : "false"); break;
    case EX_NULL_LIT: g_string_append(out, "null"); break;
    case EX_NAME: g_string_append(out, e->name); break;
    case EX_THIS: g_string_append(out, "this"); break;
    case EX_FIELD:
        g_string_append(out, "(. ");
        print_expr(out, e->lhs);
        g_string_append_printf(out, " %s)", e->name);
        break;
    case EX_INDEX:
        g_string_append(out, "([] ");
        print_expr(out, e->lhs);
        g_string_append_c(out, ' ');
        print_expr(out, e->rhs);
        g_string_append_c(out, ')');
        break;
    case EX_CALL:
        g_string_append_printf(out, "(call %s", e->name);
        if (e->lhs) {
            g_string_append(out, " on ");
            print_expr(out, e->lhs);
        }
        print_args(out, e->args);
        g_string_append_c(out, ')');
        break;
    case EX_NEW_OBJECT:
        g_string_append_printf(out, "(new %s", e->name);
        print_args(out, e->args);
        g_string_append_c(out, ')');
        break;
    case EX_NEW_ARRAY:
        g_string_append(out, "(new ");
        print_type(out, e->type);
        g_string_append_c(out, ' ');
        print_expr(out, e->lhs);
        g_string_append_c(out, ')');
        break;
    case EX_ARRAY_INIT:
        g_string_append(out, "(new ");
        print_type(out, e->type);
        g_string_append(out, " {");
        print_args(out, e->args);
        g_string_append(out, " })");
        break;
    case EX_UNARY:
        g_string_append_printf(out, "(%s ", op_name(e->op));
        print_expr(out, e->lhs);
        g_string_append_c(out, ')');
        break;
    case EX_BINARY:
        g_string_append_printf(out, "(%s ", op_name(e->op));
        print_expr(out, e->lhs);
        g_string_append_c(out, ' ');
        print_expr(out, e->rhs);
        g_string_append_c(out, ')');
        break;
    case EX_COND:
        g_string_append(out, "(? ");
        print_expr(out, e->cond);
        g_string_append_c(out, ' ');
        print_expr(out, e->lhs);
        g_string_append_c(out, ' ');
        print_expr(out, e->rhs);
        g_string_append_c(out, ')');
        break;
    }
}

static void print_stmt(GString *out, const Stmt *s);

static void print_opt_stmt(GString *out, const Stmt *s)
{
    if (s)
        print_stmt(out, s);
    else
        g_string_append_c(out, '-');
}

static void print_opt_expr(GString *out, const Expr *e)
{
    if (e)
        print_expr(out, e);
    else
        g_string_append_c(out, '-');
}

static void print_local(GString *out, const Stmt *s)
{
    g_string_append(out, "(local ");
    print_type(out, s->decl_type);
    for (guint i = 0; i < s->decls->len; i++) {
        const LocalDecl *d = &g_array_index(s->decls, LocalDecl, i);
        g_string_append_printf(out, " %s", d->name);
        if (d->init) {
            g_string_append_c(out, '=');
            print_expr(out, d->init);
        }
    }
    g_string_append_c(out, ')');
}

static void print_stmt(GString *out, const Stmt *s)
{
    switch (s->kind) {
    case ST_BLOCK:
        g_string_append_c(out, '{');
        for (guint i = 0; i < s->body->len; i++) {
            if (i > 0)
                g_string_append_c(out, ' ');
            print_stmt(out, s->body->pdata[i]);
        }
        g_string_append_c(out, '}');
        break;
    case ST_LOCAL: print_local(out, s); break;
    case ST_ASSIGN:
        g_string_append_printf(out, "(%s= ", s->op < 0 ? "" : op_name(s->op));
        print_expr(out, s->target);
        g_string_append_c(out, ' ');
        print_expr(out, s->expr);
        g_string_append_c(out, ')');
        break;
    case ST_INCDEC:
        g_string_append(out, s->op == OPR_ADD ? "(++ " : "(-- ");
        print_expr(out, s->target);
        g_string_append_c(out, ')');
        break;
    case ST_EXPR: print_expr(out, s->expr); break;
    case ST_IF:
        g_string_append(out, "(if ");
        print_expr(out, s->cond);
        g_string_append_c(out, ' ');
        print_stmt(out, s->then_s);
        g_string_append_c(out, ' ');
        print_opt_stmt(out, s->else_s);
        g_string_append_c(out, ')');
        break;
    case ST_WHILE:
        g_string_append(out, "(while ");
        print_expr(out, s->cond);
        g_string_append_c(out, ' ');
        print_stmt(out, s->body_s);
        g_string_append_c(out, ')');
        break;
    case ST_DO:
        g_string_append(out, "(do ");
        print_stmt(out, s->body_s);
        g_string_append_c(out, ' ');
        print_expr(out, s->cond);
        g_string_append_c(out, ')');
        break;
    case ST_FOR:
        g_string_append(out, "(for ");
        print_opt_stmt(out, s->init);
        g_string_append_c(out, ' ');
        print_opt_expr(out, s->cond);
        g_string_append_c(out, ' ');
        print_opt_stmt(out, s->update);
        g_string_append_c(out, ' ');
        print_stmt(out, s->body_s);
        g_string_append_c(out, ')');
        break;
    case ST_BREAK: g_string_append(out, "break"); break;
    case ST_CONTINUE: g_string_append(out, "continue"); break;
    case ST_RETURN:
        g_string_append(out, "(return ");
        print_opt_expr(out, s->expr);
        g_string_append_c(out, ')');
        break;
    case ST_SYNC:
        g_string_append(out, "(sync ");
        print_expr(out, s->expr);
        g_string_append_c(out, ' ');
        print_stmt(out, s->body_s);
        g_string_append_c(out, ')');
        break;
    case ST_ASSERT:
        g_string_append(out, "(assert ");
        print_expr(out, s->cond);
        if (s->message)
            g_string_append_printf(out, " \"%s\"", s->message);
        g_string_append_c(out, ')');
        break;
    case ST_ASSUME:
        g_string_append(out, "(assume ");
        print_expr(out, s->cond);
        g_string_append_c(out, ')');
        break;
    case ST_JOIN: g_string_append_printf(out, "(join %s)", s->name); break;
    case ST_EMPTY: g_string_append(out, ";"); break;
    }
}

static void print_loc(GString *out, const CondLoc *loc)
{
    if (loc->thread)
        g_string_append_printf(out, "%s:", loc->thread);
    g_string_append(out, loc->name);
    for (guint i = 0; i < loc->steps->len; i++) {
        const LocStep *step = &g_array_index(loc->steps, LocStep, i);
        if (step->kind == LOCSTEP_FIELD)
            g_string_append_printf(out, ".%s", step->name);
        else
            g_string_append_printf(out, "[%" G_GINT64_FORMAT "]", step->index);
    }
}

static void print_cond(GString *out, const Ast *ast, const CondExpr *c)
{
    switch (c->kind) {
    case CE_CMP:
        g_string_append_printf(out, "(%s ", op_name(c->op));
        print_loc(out, ast->shown->pdata[c->loc]);
        if (c->value_is_null)
            g_string_append(out, " null)");
        else
            g_string_append_printf(out, " %" G_GINT64_FORMAT ")", c->value);
        break;
    case CE_AND: case CE_OR:
        g_string_append(out, c->kind == CE_AND ? "(and " : "(or ");
        print_cond(out, ast, c->a);
        g_string_append_c(out, ' ');
        print_cond(out, ast, c->b);
        g_string_append_c(out, ')');
        break;
    case CE_NOT:
        g_string_append(out, "(not ");
        print_cond(out, ast, c->a);
        g_string_append_c(out, ')');
        break;
    case CE_TRUE:
        g_string_append(out, "true");
        break;
    }
}

/* ---- helpers -------------------------------------------------------- */

static Ast *parse_ok(const char *text)
{
    GError *err = NULL;
    Ast *ast = lang_parse("t.litmus", text, &err);
    ck_assert_msg(ast != NULL, "unexpected error: %s", err ? err->message : "?");
    return ast;
}

/* The first line of the parse error for text, without "t.litmus:". */
static char *parse_error(const char *text)
{
    GError *err = NULL;
    Ast *ast = lang_parse("t.litmus", text, &err);
    ck_assert_msg(ast == NULL, "no error for: %s", text);
    ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_SYNTAX));
    ck_assert(g_str_has_prefix(err->message, "t.litmus:"));
    const char *start = err->message + strlen("t.litmus:");
    char *line = g_strndup(start, strcspn(start, "\n"));
    g_error_free(err);
    return line;
}

static void assert_parse_error(const char *text, const char *expected)
{
    char *got = parse_error(text);
    ck_assert_str_eq(got, expected);
    g_free(got);
}

/* The statements of "thread T { body }", each printed, joined by " ". */
static char *thread_tree(const char *body)
{
    char *text = g_strdup_printf("Java t\nthread T {\n%s\n}\n", body);
    Ast *ast = parse_ok(text);
    g_free(text);
    const ThreadDecl *t = &g_array_index(ast->threads, ThreadDecl, 0);
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < t->body->body->len; i++) {
        if (i > 0)
            g_string_append_c(out, ' ');
        print_stmt(out, t->body->body->pdata[i]);
    }
    ast_free(ast);
    return g_string_free(out, FALSE);
}

static void assert_thread_tree(const char *body, const char *expected)
{
    char *got = thread_tree(body);
    ck_assert_str_eq(got, expected);
    g_free(got);
}

/* The tree of expression e, parsed as "x = e;". */
static void assert_expr_tree(const char *expr, const char *expected)
{
    char *body = g_strdup_printf("x = %s;", expr);
    char *want = g_strdup_printf("(= x %s)", expected);
    assert_thread_tree(body, want);
    g_free(body);
    g_free(want);
}

static char *repeat(const char *unit, int n)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; i < n; i++)
        g_string_append(s, unit);
    return g_string_free(s, FALSE);
}

/* ---- file layout ---------------------------------------------------- */

START_TEST(test_header_and_description)
{
    Ast *ast = parse_ok("Java MP+sync.v2\n\"two \\\"quoted\\\" words\"\nthread P0 { }\n");
    ck_assert_str_eq(ast->name, "MP+sync.v2");
    ck_assert_str_eq(ast->description, "two \"quoted\" words");
    ck_assert_uint_eq(ast->threads->len, 1);
    ck_assert_int_eq(ast->cond_kind, CK_NONE);
    ck_assert_ptr_null(ast->cond);
    ck_assert_ptr_null(ast->cond_text);
    ast_free(ast);

    ast = parse_ok("Java smallest\n\nthread T { }\n");
    ck_assert_ptr_null(ast->description);
    ast_free(ast);
}
END_TEST

START_TEST(test_globals)
{
    Ast *ast = parse_ok("Java t\n"
                        "volatile int x = 1, y, z = x + 1;\n"
                        "final long[] a;\n"
                        "C c = null;\n"
                        "thread T { }\n");
    ck_assert_uint_eq(ast->globals->len, 5);
    const VarDecl *x = &g_array_index(ast->globals, VarDecl, 0);
    const VarDecl *y = &g_array_index(ast->globals, VarDecl, 1);
    const VarDecl *z = &g_array_index(ast->globals, VarDecl, 2);
    const VarDecl *a = &g_array_index(ast->globals, VarDecl, 3);
    const VarDecl *c = &g_array_index(ast->globals, VarDecl, 4);
    ck_assert_str_eq(x->name, "x");
    ck_assert(x->is_volatile && !x->is_final && x->init && x->init->ival == 1);
    /* the modifiers and the type apply to every name */
    ck_assert(y->is_volatile && !y->init && y->type == &type_int);
    ck_assert_int_eq(z->pos.line, 2);
    ck_assert_int_eq(z->pos.col, 24);
    ck_assert(a->is_final && !a->is_volatile && a->type->kind == TY_ARRAY &&
              a->type->elem == &type_long);
    /* JLS 8.3.1.4: never both */
    char *msg = parse_error("Java t\nfinal volatile int v = 1;\nthread T { }\n");
    ck_assert_str_eq(msg, "2:7: error: a variable cannot be both 'volatile' and 'final'");
    g_free(msg);
    ck_assert_int_eq(c->type->kind, TY_CLASS);
    ck_assert_str_eq(c->type->class_name, "C");
    ck_assert_int_eq(c->init->kind, EX_NULL_LIT);
    ast_free(ast);
}
END_TEST

START_TEST(test_classes_and_methods)
{
    Ast *ast = parse_ok("Java t\n"
                        "int twice(int v) { return 2 * v; }\n"
                        "class Point {\n"
                        "  final int x; volatile int y;\n"
                        "  Point(int a, int b) { x = a; y = b; }\n"
                        "  Point() { }\n"
                        "  synchronized int getX() { return x; }\n"
                        "  void clear() { y = 0; }\n"
                        "}\n"
                        "class Lock {}\n"
                        "thread T { }\n");
    ck_assert_uint_eq(ast->methods->len, 5);
    ck_assert_uint_eq(ast->classes->len, 2);
    const MethodDecl *twice = ast->methods->pdata[0];
    ck_assert_str_eq(twice->name, "twice");
    ck_assert_int_eq(twice->class_index, -1);
    ck_assert_ptr_eq(twice->ret, &type_int);
    ck_assert_uint_eq(twice->params->len, 1);

    const ClassDecl *point = &g_array_index(ast->classes, ClassDecl, 0);
    ck_assert_str_eq(point->name, "Point");
    ck_assert(point->has_final_field);
    ck_assert_uint_eq(point->fields->len, 2);
    ck_assert(g_array_index(point->fields, VarDecl, 0).is_final);
    ck_assert(g_array_index(point->fields, VarDecl, 1).is_volatile);
    /* methods are numbered in file order; ctors and methods point there */
    ck_assert_uint_eq(point->ctors->len, 2);
    ck_assert_int_eq(g_array_index(point->ctors, int, 0), 1);
    ck_assert_int_eq(g_array_index(point->ctors, int, 1), 2);
    ck_assert_uint_eq(point->methods->len, 2);
    ck_assert_int_eq(g_array_index(point->methods, int, 0), 3);
    ck_assert_int_eq(g_array_index(point->methods, int, 1), 4);

    const MethodDecl *ctor = ast->methods->pdata[1];
    ck_assert(ctor->is_constructor && !ctor->is_synchronized);
    ck_assert_str_eq(ctor->name, "Point");
    ck_assert_ptr_eq(ctor->ret, &type_void);
    ck_assert_int_eq(ctor->class_index, 0);
    const MethodDecl *get = ast->methods->pdata[3];
    ck_assert(get->is_synchronized && !get->is_constructor);
    ck_assert_int_eq(get->class_index, 0);

    const ClassDecl *lock = &g_array_index(ast->classes, ClassDecl, 1);
    ck_assert(!lock->has_final_field);
    ck_assert_uint_eq(lock->fields->len + lock->ctors->len + lock->methods->len, 0);
    ast_free(ast);
}
END_TEST

START_TEST(test_threads_in_order)
{
    Ast *ast = parse_ok("Java t\nthread P0 { }\nthread P1 { ; }\nthread Writer { }\n");
    ck_assert_uint_eq(ast->threads->len, 3);
    ck_assert_str_eq(g_array_index(ast->threads, ThreadDecl, 0).name, "P0");
    ck_assert_str_eq(g_array_index(ast->threads, ThreadDecl, 2).name, "Writer");
    ck_assert_int_eq(g_array_index(ast->threads, ThreadDecl, 1).pos.line, 3);
    ck_assert_int_eq(g_array_index(ast->threads, ThreadDecl, 1).pos.col, 8);
    ast_free(ast);
}
END_TEST

/* ---- expressions ---------------------------------------------------- */

START_TEST(test_precedence_arithmetic)
{
    assert_expr_tree("1 + 2 * 3", "(+ 1 (* 2 3))");
    assert_expr_tree("(1 + 2) * 3", "(* (+ 1 2) 3)");
    assert_expr_tree("1 - 2 - 3", "(- (- 1 2) 3)");
    assert_expr_tree("8 / 4 % 3 * 2", "(* (% (/ 8 4) 3) 2)");
    assert_expr_tree("1 << 2 + 3", "(<< 1 (+ 2 3))");
    assert_expr_tree("a >> 1 >>> 2", "(>>> (>> a 1) 2)");
}
END_TEST

START_TEST(test_precedence_logic)
{
    assert_expr_tree("a || b && c", "(|| a (&& b c))");
    assert_expr_tree("a && b || c && d", "(|| (&& a b) (&& c d))");
    assert_expr_tree("a | b ^ c & d", "(| a (^ b (& c d)))");
    assert_expr_tree("a & b == c", "(& a (== b c))");
    assert_expr_tree("a == b < c", "(== a (< b c))");
    assert_expr_tree("a < b + 1 != c >= d", "(!= (< a (+ b 1)) (>= c d))");
    assert_expr_tree("x != null && x.f > 0", "(&& (!= x null) (> (. x f) 0))");
}
END_TEST

START_TEST(test_conditional_expression)
{
    assert_expr_tree("a ? b : c", "(? a b c)");
    /* right-associative, and looser than || */
    assert_expr_tree("a || b ? 1 : c ? 2 : 3", "(? (|| a b) 1 (? c 2 3))");
    assert_expr_tree("a ? b ? 1 : 2 : 3", "(? a (? b 1 2) 3)");
}
END_TEST

START_TEST(test_unary)
{
    assert_expr_tree("-x", "(neg x)");
    assert_expr_tree("- - x", "(neg (neg x))");
    assert_expr_tree("!a && b", "(&& (! a) b)");
    assert_expr_tree("~x + 1", "(+ (~ x) 1)");
    assert_expr_tree("-x.f[1]", "(neg ([] (. x f) 1))");
    assert_expr_tree("-5", "(neg 5)");
}
END_TEST

/* 2147483648 alone is no int; after a unary minus it is INT_MIN. */
START_TEST(test_min_literals)
{
    assert_expr_tree("-2147483648", "-2147483648");
    assert_expr_tree("- 2147483648", "-2147483648");
    assert_expr_tree("-9223372036854775808L", "-9223372036854775808L");
    assert_expr_tree("1 - -2147483648", "(- 1 -2147483648)");
    assert_expr_tree("0xFFFFFFFF", "-1");
    assert_expr_tree("0x80000000", "-2147483648");
    assert_expr_tree("0xFFFFFFFFFFFFFFFFL", "-1L");
    assert_parse_error("Java t\nthread T { x = 2147483648; }",
                       "2:16: error: integer literal too large for int: 2147483648");
    assert_parse_error("Java t\nthread T { x = 1 - 2147483648; }",
                       "2:20: error: integer literal too large for int: 2147483648");
    assert_parse_error("Java t\nthread T { x = -(2147483648); }",
                       "2:18: error: integer literal too large for int: 2147483648");
    assert_parse_error("Java t\nthread T { x = 9223372036854775808L; }",
                       "2:16: error: integer literal too large for long: 9223372036854775808L");
}
END_TEST

START_TEST(test_postfix_and_primary)
{
    assert_expr_tree("o.m(1, y)[0].f", "(. ([] (call m on o 1 y) 0) f)");
    assert_expr_tree("m()", "(call m)");
    assert_expr_tree("this.next.v", "(. (. this next) v)");
    assert_expr_tree("a.length", "(. a length)");
    assert_expr_tree("new C(1, true).f", "(. (new C 1 true) f)");
    assert_expr_tree("new int[n + 1]", "(new int[] (+ n 1))");
    assert_expr_tree("new C[2][]", "(new C[][] 2)");
    assert_expr_tree("new long[] {1L, -2}", "(new long[] { 1L (neg 2) })");
    assert_expr_tree("new int[][] {new int[] {}, null,}", "(new int[][] { (new int[] { }) null })");
    assert_expr_tree("true != false", "(!= true false)");
}
END_TEST

/* Positions are those of the first character of the construct. */
START_TEST(test_expression_positions)
{
    Ast *ast = parse_ok("Java t\nthread T {\n  x = (a + b) * c;\n}\n");
    const Stmt *s = g_array_index(ast->threads, ThreadDecl, 0).body->body->pdata[0];
    ck_assert_int_eq(s->pos.line, 3);
    ck_assert_int_eq(s->pos.col, 3);
    const Expr *mul = s->expr;
    ck_assert_int_eq(mul->op, OPR_MUL);
    ck_assert_int_eq(mul->pos.col, 8);   /* the a: parentheses leave no node */
    ck_assert_int_eq(mul->rhs->pos.col, 17);
    ast_free(ast);
}
END_TEST

/* ---- statements ----------------------------------------------------- */

START_TEST(test_local_declarations)
{
    assert_thread_tree("int a = 1, b, c = a;", "(local int a=1 b c=a)");
    assert_thread_tree("C p = new C(); C[] ps; long[][] m;",
                       "(local C p=(new C)) (local C[] ps) (local long[][] m)");
    assert_thread_tree("boolean done = false;", "(local boolean done=false)");
}
END_TEST

START_TEST(test_assignments)
{
    assert_thread_tree("x = 1; a[i] = 2; p.f = 3; this.g = 4;",
                       "(= x 1) (= ([] a i) 2) (= (. p f) 3) (= (. this g) 4)");
    assert_thread_tree("x += 1; x -= 2; x *= 3; x /= 4; x %= 5;",
                       "(+= x 1) (-= x 2) (*= x 3) (/= x 4) (%= x 5)");
    assert_thread_tree("x &= 1; x |= 2; x ^= 3; x <<= 4; x >>= 5; x >>>= 6;",
                       "(&= x 1) (|= x 2) (^= x 3) (<<= x 4) (>>= x 5) (>>>= x 6)");
    assert_thread_tree("x++; a[0]--; ++y; --p.f;", "(++ x) (-- ([] a 0)) (++ y) (-- (. p f))");
    assert_thread_tree("m(1); o.n();", "(call m 1) (call n on o)");
}
END_TEST

START_TEST(test_control_statements)
{
    /* the else belongs to the nearest if */
    assert_thread_tree("if (a) if (b) x = 1; else x = 2;", "(if a (if b (= x 1) (= x 2)) -)");
    assert_thread_tree("if (a) { } else ;", "(if a {} ;)");
    assert_thread_tree("while (x < 3) x++;", "(while (< x 3) (++ x))");
    assert_thread_tree("do { x++; } while (x < 3);", "(do {(++ x)} (< x 3))");
    assert_thread_tree("for (int i = 0; i < 2; i++) { continue; }",
                       "(for (local int i=0) (< i 2) (++ i) {continue})");
    assert_thread_tree("for (;;) break;", "(for - - - break)");
    assert_thread_tree("for (i = 0; ; i += 2) ;", "(for (= i 0) - (+= i 2) ;)");
    assert_thread_tree("return; return x + 1;", "(return -) (return (+ x 1))");
}
END_TEST

START_TEST(test_other_statements)
{
    assert_thread_tree("synchronized (l) { x = 1; }", "(sync l {(= x 1)})");
    assert_thread_tree("assert x == 1; assert ok : \"x \\\"was\\\" lost\";",
                       "(assert (== x 1)) (assert ok \"x \"was\" lost\")");
    assert_thread_tree("assume r0 == 1;", "(assume (== r0 1))");
    assert_thread_tree("join P0; ; {}", "(join P0) ; {}");
}
END_TEST

/* ---- final condition and locations ---------------------------------- */

static const char *const two_threads = "Java t\nint x;\nthread T1 { }\nthread T2 { }\n";

static void assert_condition(const char *cond, CondKind kind, const char *expected_tree)
{
    char *text = g_strdup_printf("%s%s\n", two_threads, cond);
    Ast *ast = parse_ok(text);
    g_free(text);
    ck_assert_int_eq(ast->cond_kind, kind);
    GString *out = g_string_new(NULL);
    print_cond(out, ast, ast->cond);
    ck_assert_str_eq(out->str, expected_tree);
    g_string_free(out, TRUE);
    ast_free(ast);
}

START_TEST(test_condition_kinds_and_shapes)
{
    assert_condition("exists (T1:r1 == 1 /\\ T2:r2 == 1)", CK_EXISTS,
                     "(and (== T1:r1 1) (== T2:r2 1))");
    assert_condition("~exists (x = 1)", CK_NOT_EXISTS, "(== x 1)");
    assert_condition("~ exists (x != -3)", CK_NOT_EXISTS, "(!= x -3)");
    assert_condition("forall (x < 1 \\/ x <= 2 \\/ x > 3 /\\ x >= 4)", CK_FORALL,
                     "(or (or (< x 1) (<= x 2)) (and (> x 3) (>= x 4)))");
    /* Java spellings, negation and grouping */
    assert_condition("exists (!(a == 1 && b == 2) || ~c == 0)", CK_EXISTS,
                     "(or (not (and (== a 1) (== b 2))) (not (== c 0)))");
    assert_condition("exists (p == null /\\ q.f.g[2] == true /\\ b == false)", CK_EXISTS,
                     "(and (and (== p null) (== q.f.g[2] 1)) (== b 0))");
    assert_condition("exists (true)", CK_EXISTS, "true");
    /* values follow Java's literal rules: beyond int range needs an L */
    assert_condition("exists (x == -9223372036854775808L)", CK_EXISTS,
                     "(== x -9223372036854775808)");
    assert_condition("exists (x == -2147483648 \\/ x == 0x7fffffff)", CK_EXISTS,
                     "(or (== x -2147483648) (== x 2147483647))");
}
END_TEST

/* Whitespace and comments become single spaces; the operators stay. */
START_TEST(test_condition_text)
{
    char *text = g_strdup_printf("%s%s", two_threads,
                                 "exists  (\n  T1:r1==1\t/\\ /* c */ T2:r2 = 1 )\n");
    Ast *ast = parse_ok(text);
    ck_assert_str_eq(ast->cond_text, "exists ( T1:r1==1 /\\ T2:r2 = 1 )");
    ast_free(ast);
    g_free(text);

    text = g_strdup_printf("%s%s", two_threads, "~exists (T1:r1 == 1 /\\ T2:r2 == 1)");
    ast = parse_ok(text);
    ck_assert_str_eq(ast->cond_text, "~exists (T1:r1 == 1 /\\ T2:r2 == 1)");
    ast_free(ast);
    g_free(text);
}
END_TEST

/* Before checking, Ast.shown holds one entry per comparison in order,
   then those of locations [...]. */
START_TEST(test_locations_list)
{
    char *text = g_strdup_printf("%s%s", two_threads,
                                 "locations [T1:a; x.f[1]; b;]\nexists (c == 1 /\\ c == 2)\n");
    Ast *ast = parse_ok(text);
    ck_assert_uint_eq(ast->shown->len, 5);
    const char *expected[] = { "c", "c", "T1:a", "x.f[1]", "b" };
    for (guint i = 0; i < 5; i++) {
        GString *out = g_string_new(NULL);
        print_loc(out, ast->shown->pdata[i]);
        ck_assert_str_eq(out->str, expected[i]);
        g_string_free(out, TRUE);
    }
    ast_free(ast);
    g_free(text);

    text = g_strdup_printf("%s%s", two_threads, "locations []\n");
    ast = parse_ok(text);
    ck_assert_uint_eq(ast->shown->len, 0);
    ck_assert_int_eq(ast->cond_kind, CK_NONE);
    ast_free(ast);
    g_free(text);
}
END_TEST

/* ---- syntax errors -------------------------------------------------- */

START_TEST(test_errors_file_layout)
{
    assert_parse_error("int x;\nthread T { }",
                       "1:1: error: expected the header 'Java NAME' at the start of the file, found 'int'");
    assert_parse_error("", "1:1: error: expected the header 'Java NAME' at the start of the file, "
                       "found end of file");
    assert_parse_error("Java\nthread T { }", "2:1: error: expected a test name after 'Java' on the same line, found 'thread'");
    assert_parse_error("Java a$b\n", "1:7: error: invalid character '$' in test name");
    assert_parse_error("Java t\nint x;\n", "2:7: error: expected a declaration or 'thread', found end of file");
    assert_parse_error("Java t\nthread T { }\nint y;",
                       "3:1: error: expected 'thread', 'locations', a final condition or end of file, found 'int'");
    assert_parse_error("Java t\nthread T { }\nexists (x == 1) x",
                       "3:17: error: expected end of file after the final condition, found 'x'");
    assert_parse_error("Java t\nthread T { }\nlocations [x] thread",
                       "3:15: error: expected a final condition or end of file, found 'thread'");
    assert_parse_error("Java t\nthread T {\n  x = 1;\n",
                       "3:9: error: expected '}' to close the block opened at line 2, found end of file");
    assert_parse_error("Java t\nclass C {\n int f;\n",
                       "3:8: error: expected '}' to close class 'C' opened at line 2, found end of file");
}
END_TEST

START_TEST(test_errors_statements)
{
    assert_parse_error("Java t\nthread T {\n  x = 1\n  y = 2;\n}",
                       "4:3: error: expected ';' after statement, found 'y'");
    assert_parse_error("Java t\nthread T { int a = 1 }", "2:22: error: expected ';' after the declaration, found '}'");
    assert_parse_error("Java t\nthread T { x + 1; }", "2:12: error: not a statement");
    assert_parse_error("Java t\nthread T { this = null; }", "2:12: error: cannot assign to 'this'");
    assert_parse_error("Java t\nthread T { m() = 1; }", "2:12: error: cannot assign to a method call");
    assert_parse_error("Java t\nthread T { (a + b)++; }",
                       "2:13: error: cannot assign to this expression; expected a variable, a field or an array element");
    assert_parse_error("Java t\nthread T { a = b = 1; }", "2:18: error: expected ';' after statement, found '='");
    assert_parse_error("Java t\nthread T { else x = 1; }", "2:12: error: expected a statement, found 'else'");
    assert_parse_error("Java t\nthread T { if x { } }", "2:15: error: expected '(' after 'if', found 'x'");
    assert_parse_error("Java t\nthread T { while (a { } }", "2:21: error: expected ')' to close the condition, found '{'");
    assert_parse_error("Java t\nthread T { do x++; (a); }", "2:20: error: expected 'while' after the body of 'do', found '('");
    assert_parse_error("Java t\nthread T { for (int i = 0, i < 2; i++) ; }",
                       "2:30: error: expected ';' after the initialiser of 'for', found '<'");
    assert_parse_error("Java t\nthread T { synchronized (l) x++; }",
                       "2:29: error: expected '{' after 'synchronized (...)', found 'x'");
    assert_parse_error("Java t\nthread T { assert a : 1; }", "2:23: error: expected a string message after ':', found '1'");
    assert_parse_error("Java t\nthread T { join; }", "2:16: error: expected a thread name after 'join', found ';'");
    assert_parse_error("Java t\nthread T { int = 1; }", "2:16: error: expected a variable name, found '='");
    assert_parse_error("Java t\nthread T { void v; }", "2:12: error: a variable cannot have type 'void'");
}
END_TEST

START_TEST(test_errors_expressions)
{
    assert_parse_error("Java t\nthread T { x = (1 + ; }", "2:21: error: expected an expression, found ';'");
    assert_parse_error("Java t\nthread T { x = (1 + 2; }", "2:22: error: expected ')' to close '(', found ';'");
    assert_parse_error("Java t\nthread T { x = a ? b; }", "2:21: error: expected ':' in the conditional expression, found ';'");
    assert_parse_error("Java t\nthread T { x = a[1; }", "2:19: error: expected ']' after the array index, found ';'");
    assert_parse_error("Java t\nthread T { x = m(1 2); }", "2:20: error: expected ')' after the arguments, found '2'");
    assert_parse_error("Java t\nthread T { x = a.1; }", "2:18: error: expected a field or method name after '.', found '1'");
    assert_parse_error("Java t\nthread T { x = new int[2][3]; }",
                       "2:26: error: only the first dimension of a new array can have a length");
    assert_parse_error("Java t\nthread T { x = new int; }",
                       "2:23: error: expected '(' or '[' after the type in 'new', found ';'");
    assert_parse_error("Java t\nthread T { x = new void[1]; }",
                       "2:20: error: expected a class or element type after 'new', found 'void'");
    assert_parse_error("Java t\nthread T { x = +1; }", "2:16: error: expected an expression, found '+'");
    assert_parse_error("Java t\nthread T { x = \"s\"; }", "2:16: error: expected an expression, found a string");
}
END_TEST

START_TEST(test_errors_declarations)
{
    assert_parse_error("Java t\nvolatile volatile int x;", "2:10: error: repeated modifier 'volatile'");
    assert_parse_error("Java t\nsynchronized int x;", "2:1: error: a variable cannot be 'synchronized'");
    assert_parse_error("Java t\nsynchronized void m() { }", "2:1: error: a top-level method cannot be 'synchronized'");
    assert_parse_error("Java t\nvolatile void m() { }", "2:1: error: a method cannot be 'volatile'");
    assert_parse_error("Java t\nclass C { final void m() { } }", "2:11: error: a method cannot be 'final'");
    assert_parse_error("Java t\nclass C { int f = 1; }",
                       "2:17: error: fields cannot have initialisers; assign 'f' in a constructor");
    assert_parse_error("Java t\nclass C { D() { } }", "2:11: error: invalid method declaration; return type required");
    assert_parse_error("Java t\nclass C { synchronized C() { } }", "2:11: error: a constructor cannot be 'synchronized'");
    assert_parse_error("Java t\nvoid x;", "2:1: error: a variable cannot have type 'void'");
    assert_parse_error("Java t\nint m(int a, void b) { }", "2:14: error: a variable cannot have type 'void'");
    assert_parse_error("Java t\nvoid[] m() { }", "2:1: error: 'void' cannot be an array element type");
    assert_parse_error("Java t\nint x y;", "2:7: error: expected ';' after the declaration, found 'y'");
    assert_parse_error("Java t\nclass { }", "2:7: error: expected a class name after 'class', found '{'");
    assert_parse_error("Java t\nthread { }", "2:8: error: expected a thread name after 'thread', found '{'");
}
END_TEST

START_TEST(test_errors_condition)
{
    assert_parse_error("Java t\nthread T { }\nexists T:r == 1",
                       "3:8: error: expected '(' after 'exists', found 'T'");
    assert_parse_error("Java t\nthread T { }\n~forall (x == 1)",
                       "3:2: error: expected 'exists' after '~', found 'forall'");
    assert_parse_error("Java t\nthread T { }\nexists (x 1)",
                       "3:11: error: expected a comparison ('==', '!=', '<', '<=', '>' or '>=') after the location, found '1'");
    assert_parse_error("Java t\nthread T { }\nexists (x == y)",
                       "3:14: error: expected a value (an integer, true, false or null), found 'y'");
    assert_parse_error("Java t\nthread T { }\nexists (x == 1 /\\ )",
                       "3:19: error: expected a location (a global or a register T:r), found ')'");
    assert_parse_error("Java t\nthread T { }\nexists (T: == 1)",
                       "3:12: error: expected a register name after ':', found '=='");
    assert_parse_error("Java t\nthread T { }\nexists (a[-1] == 1)",
                       "3:11: error: expected an array index (an integer from 0 to 2147483647), found '-'");
    assert_parse_error("Java t\nthread T { }\nexists (x == 1",
                       "3:15: error: expected ')' to close the condition, found end of file");
    /* a condition compares longs: 2147483648 is fine, 2^63 is not */
    assert_parse_error("Java t\nthread T { }\nexists (x == 9223372036854775808)",
                       "3:14: error: integer too large for a long: 9223372036854775808");
    assert_parse_error("Java t\nint x = 3000000000;\nthread T { }\n",
                       "2:9: error: integer literal too large for int: 3000000000 (add L for a long)");
    assert_parse_error("Java t\nthread T { }\nlocations [x y]",
                       "3:14: error: expected ']' to close 'locations [', found 'y'");
}
END_TEST

/* The diagnostic has three lines: position and message, source line with
   tabs kept, caret under the column with spaces before it. */
START_TEST(test_error_layout)
{
    GError *err = NULL;
    Ast *ast = lang_parse("dir/f.litmus", "Java t\nthread T {\n\tx = 1\n\t\ty = 2;\n}\n", &err);
    ck_assert_ptr_null(ast);
    ck_assert_str_eq(err->message,
                     "dir/f.litmus:4:3: error: expected ';' after statement, found 'y'\n"
                     "\t\ty = 2;\n"
                     "\t\t^"); /* the caret line copies the tabs */
    g_error_free(err);
}
END_TEST

/* ---- nesting -------------------------------------------------------- */

static char *nesting_error(const char *prefix, const char *unit, int n, const char *suffix)
{
    char *units = repeat(unit, n);
    char *text = g_strdup_printf("Java t\n%s%s%s\n", prefix, units, suffix);
    char *line = parse_error(text);
    g_free(units);
    g_free(text);
    return line;
}

static void assert_too_deep(const char *prefix, const char *unit, int n, const char *suffix)
{
    char *line = nesting_error(prefix, unit, n, suffix);
    ck_assert_msg(g_str_has_suffix(line, "error: nesting deeper than 500 levels"), "got: %s", line);
    g_free(line);
}

/* 50000 levels of every recursive form: an error, never a crash. */
START_TEST(test_deep_nesting_50000)
{
    const int n = 50000;
    assert_too_deep("thread T { x = ", "(", n, "1; }");
    assert_too_deep("thread T ", "{", n, "");
    assert_too_deep("thread T { boolean b = ", "!", n, "true; }");
    assert_too_deep("thread T { int b = ", "- ", n, "1; }");
    assert_too_deep("thread T { int b = ", "~", n, "1; }");
    assert_too_deep("thread T { ", "if (a) ", n, "; }");
    assert_too_deep("thread T { ", "if (a) ; else ", n, "; }");
    assert_too_deep("thread T { ", "while (a) ", n, "; }");
    assert_too_deep("thread T { ", "synchronized (l) {", n, "");
    assert_too_deep("thread T { x = 1", " + 1", n, "; }");
    assert_too_deep("thread T { x = a", ".f", n, "; }");
    assert_too_deep("thread T { x = a", "[0]", n, "; }");
    assert_too_deep("thread T { x = ", "a ? 1 : ", n, "1; }");
    assert_too_deep("thread T { x = ", "m(", n, "");
    assert_too_deep("thread T { }\nexists ", "(", n, "");
    assert_too_deep("thread T { }\nexists (", "~", n, "x == 1)");
    assert_too_deep("thread T { }\nexists (x == 1", " /\\ x == 1", n, ")");
    assert_too_deep("int m() { return ", "(", n, "");
}
END_TEST

/* The limit is exact: "x = (((...1...)))" nests 2 + k levels for k
   parentheses (the statement, its expression, one per parenthesis). */
START_TEST(test_nesting_limit_is_500)
{
    char *open = repeat("(", 498), *close = repeat(")", 498);
    char *text = g_strdup_printf("Java t\nthread T { x = %s1%s; }\n", open, close);
    Ast *ast = parse_ok(text);
    ast_free(ast);
    g_free(open);
    g_free(close);
    g_free(text);

    /* 499: the limit is crossed inside the 499th "(" at column 16 + 498 */
    char *line = nesting_error("thread T { x = ", "(", 499, "1; }");
    ck_assert_str_eq(line, "2:515: error: nesting deeper than 500 levels");
    g_free(line);
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *layout = tcase_create("layout");
    tcase_add_test(layout, test_header_and_description);
    tcase_add_test(layout, test_globals);
    tcase_add_test(layout, test_classes_and_methods);
    tcase_add_test(layout, test_threads_in_order);
    suite_add_tcase(s, layout);

    TCase *exprs = tcase_create("expressions");
    tcase_add_test(exprs, test_precedence_arithmetic);
    tcase_add_test(exprs, test_precedence_logic);
    tcase_add_test(exprs, test_conditional_expression);
    tcase_add_test(exprs, test_unary);
    tcase_add_test(exprs, test_min_literals);
    tcase_add_test(exprs, test_postfix_and_primary);
    tcase_add_test(exprs, test_expression_positions);
    suite_add_tcase(s, exprs);

    TCase *stmts = tcase_create("statements");
    tcase_add_test(stmts, test_local_declarations);
    tcase_add_test(stmts, test_assignments);
    tcase_add_test(stmts, test_control_statements);
    tcase_add_test(stmts, test_other_statements);
    suite_add_tcase(s, stmts);

    TCase *cond = tcase_create("condition");
    tcase_add_test(cond, test_condition_kinds_and_shapes);
    tcase_add_test(cond, test_condition_text);
    tcase_add_test(cond, test_locations_list);
    suite_add_tcase(s, cond);

    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_errors_file_layout);
    tcase_add_test(errors, test_errors_statements);
    tcase_add_test(errors, test_errors_expressions);
    tcase_add_test(errors, test_errors_declarations);
    tcase_add_test(errors, test_errors_condition);
    tcase_add_test(errors, test_error_layout);
    suite_add_tcase(s, errors);

    TCase *nesting = tcase_create("nesting");
    tcase_add_test(nesting, test_deep_nesting_50000);
    tcase_add_test(nesting, test_nesting_limit_is_500);
    suite_add_tcase(s, nesting);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(parser_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
