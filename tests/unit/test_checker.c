/* Unit tests of the litmus checker: resolution, slots, registers, types,
 * final, condition locations, error messages and the loaders.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/lang.h"

#include <check.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers -------------------------------------------------------- */

static Ast *load_ok(const char *text)
{
    GError *err = NULL;
    Ast *ast = lang_load_string("t.litmus", text, &err);
    ck_assert_msg(ast != NULL, "unexpected error: %s", err ? err->message : "?");
    return ast;
}

/* The first lines ("LINE:COL: error: MESSAGE") of the checker's
   diagnostics for text, in order. */
static GPtrArray *check_errors(const char *text)
{
    GError *err = NULL;
    Ast *ast = lang_parse("t.litmus", text, &err);
    ck_assert_msg(ast != NULL, "parse error: %s", err ? err->message : "?");
    bool ok = lang_check(ast, &err);
    ast_free(ast);
    ck_assert_msg(!ok, "no error for: %s", text);
    ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_CHECK));
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    char **all = g_strsplit(err->message, "\n", -1);
    guint n = g_strv_length(all);
    /* each diagnostic is three lines: message, source, caret */
    ck_assert_uint_eq(n % 3, 0);
    for (guint i = 0; i < n; i += 3) {
        ck_assert(g_str_has_prefix(all[i], "t.litmus:"));
        ck_assert(g_str_has_suffix(all[i + 2], "^"));
        g_ptr_array_add(lines, g_strdup(all[i] + strlen("t.litmus:")));
    }
    g_strfreev(all);
    g_error_free(err);
    return lines;
}

/* text has exactly the one error expected. */
static void assert_check_error(const char *text, const char *expected)
{
    GPtrArray *lines = check_errors(text);
    ck_assert_msg(lines->len == 1, "%u errors, first: %s", lines->len, (char *) lines->pdata[0]);
    ck_assert_str_eq(lines->pdata[0], expected);
    g_ptr_array_unref(lines);
}

/* The same with the body wrapped as "Java t\nDECLS\nthread T {BODY}". */
static void assert_body_error(const char *decls, const char *body, const char *expected)
{
    char *text = g_strdup_printf("Java t\n%s\nthread T {%s}\n", decls, body);
    assert_check_error(text, expected);
    g_free(text);
}

static const ThreadDecl *thread_at(const Ast *ast, guint i)
{
    return &g_array_index(ast->threads, ThreadDecl, i);
}

static const Stmt *thread_stmt(const Ast *ast, guint thread, guint i)
{
    return thread_at(ast, thread)->body->body->pdata[i];
}

static const LocalDecl *decl_of(const Stmt *local, guint i)
{
    ck_assert_int_eq(local->kind, ST_LOCAL);
    return &g_array_index(local->decls, LocalDecl, i);
}

static const MethodDecl *method_at(const Ast *ast, guint i)
{
    return ast->methods->pdata[i];
}

static const Stmt *method_stmt(const Ast *ast, guint method, guint i)
{
    return method_at(ast, method)->body->body->pdata[i];
}

static const VarDecl *global_at(const Ast *ast, guint i)
{
    return &g_array_index(ast->globals, VarDecl, i);
}

static void assert_type(const Type *t, const char *expected)
{
    ck_assert_ptr_nonnull(t);
    char *s = type_to_string(t);
    ck_assert_str_eq(s, expected);
    g_free(s);
}

static const CondLoc *shown_at(const Ast *ast, guint i)
{
    return ast->shown->pdata[i];
}

/* ---- slots, registers, resolution ----------------------------------- */

START_TEST(test_method_slots)
{
    Ast *ast = load_ok("Java t\n"
                       "class C {\n"
                       "  int f;\n"
                       "  int m(int a, long b) {\n"       /* this 0, a 1, b 2 */
                       "    int x = a;\n"                  /* 3 */
                       "    while (x < 3) {\n"             /* loop 4 */
                       "      int y = x;\n"                /* 5 */
                       "      x++;\n"
                       "    }\n"
                       "    for (int i = 0; i < 2; i++) { }\n" /* loop 6, i 7 */
                       "    { int z = 1; }\n"              /* 8 */
                       "    int w = f;\n"                  /* 9 */
                       "    return w;\n"
                       "  }\n"
                       "}\n"
                       "int g(int a) { int b = a; return b; }\n" /* a 0, b 1 */
                       "thread T { }\n");
    const MethodDecl *m = method_at(ast, 0);
    ck_assert_int_eq(m->n_locals, 10);
    ck_assert_int_eq(decl_of(method_stmt(ast, 0, 0), 0)->slot, 3);
    const Expr *a = decl_of(method_stmt(ast, 0, 0), 0)->init;
    ck_assert_int_eq(a->sym, SYM_LOCAL);
    ck_assert_int_eq(a->sym_index, 1);
    const Stmt *loop = method_stmt(ast, 0, 1);
    ck_assert_int_eq(loop->loop_slot, 4);
    ck_assert_int_eq(decl_of(loop->body_s->body->pdata[0], 0)->slot, 5);
    const Stmt *for_loop = method_stmt(ast, 0, 2);
    ck_assert_int_eq(for_loop->loop_slot, 6);
    ck_assert_int_eq(decl_of(for_loop->init, 0)->slot, 7);
    ck_assert_int_eq(decl_of(method_stmt(ast, 0, 3)->body->pdata[0], 0)->slot, 8);
    const LocalDecl *w = decl_of(method_stmt(ast, 0, 4), 0);
    ck_assert_int_eq(w->slot, 9);
    ck_assert_int_eq(w->init->sym, SYM_FIELD);
    ck_assert_int_eq(w->init->sym_class, 0);
    ck_assert_int_eq(w->init->sym_index, 0);

    const MethodDecl *g = method_at(ast, 1);
    ck_assert_int_eq(g->n_locals, 2);
    ck_assert_int_eq(decl_of(method_stmt(ast, 1, 0), 0)->slot, 1);
    ast_free(ast);
}
END_TEST

START_TEST(test_thread_registers)
{
    Ast *ast = load_ok("Java t\n"
                       "thread T1 {\n"
                       "  int r0 = 1, r1;\n"                          /* 0, 1 */
                       "  if (r0 == 1) { int t = 2; r1 = t; }\n"      /* t 2: no register */
                       "  do { } while (false);\n"                    /* loop 3 */
                       "  long r2 = r0;\n"                            /* 4 */
                       "}\n"
                       "thread T2 { boolean b; }\n");
    const ThreadDecl *t1 = thread_at(ast, 0);
    ck_assert_int_eq(t1->n_locals, 5);
    ck_assert_uint_eq(t1->reg_names->len, 3);
    ck_assert_str_eq(t1->reg_names->pdata[0], "r0");
    ck_assert_str_eq(t1->reg_names->pdata[1], "r1");
    ck_assert_str_eq(t1->reg_names->pdata[2], "r2");
    ck_assert_int_eq(g_array_index(t1->reg_slots, int, 0), 0);
    ck_assert_int_eq(g_array_index(t1->reg_slots, int, 1), 1);
    ck_assert_int_eq(g_array_index(t1->reg_slots, int, 2), 4);
    assert_type(t1->reg_types->pdata[0], "int");
    assert_type(t1->reg_types->pdata[2], "long");
    ck_assert_int_eq(thread_stmt(ast, 0, 2)->loop_slot, 3);
    const ThreadDecl *t2 = thread_at(ast, 1);
    ck_assert_int_eq(t2->n_locals, 1);
    assert_type(t2->reg_types->pdata[0], "boolean");
    ast_free(ast);
}
END_TEST

/* A name is a local (innermost first), then a field of this, then a global. */
START_TEST(test_name_resolution)
{
    Ast *ast = load_ok("Java t\n"
                       "int x = 1;\n"
                       "int y = x + 1;\n"
                       "class C {\n"
                       "  int x;\n"
                       "  void m() { int r = x; }\n"
                       "  void n(int x) { int r = x; }\n"
                       "  void k() { int r = y; }\n"
                       "}\n"
                       "thread T { int x = 2; int r = x; int s = y; }\n");
    const Expr *y_init = global_at(ast, 1)->init;
    ck_assert_int_eq(y_init->lhs->sym, SYM_GLOBAL);
    ck_assert_int_eq(y_init->lhs->sym_index, 0);
    ck_assert_int_eq(ast->init_n_locals, 0);
    const Expr *in_m = decl_of(method_stmt(ast, 0, 0), 0)->init;
    ck_assert_int_eq(in_m->sym, SYM_FIELD);
    ck_assert_int_eq(in_m->sym_class, 0);
    const Expr *in_n = decl_of(method_stmt(ast, 1, 0), 0)->init;
    ck_assert_int_eq(in_n->sym, SYM_LOCAL);
    ck_assert_int_eq(in_n->sym_index, 1);
    const Expr *in_k = decl_of(method_stmt(ast, 2, 0), 0)->init;
    ck_assert_int_eq(in_k->sym, SYM_GLOBAL);
    ck_assert_int_eq(in_k->sym_index, 1);
    const Expr *in_t = decl_of(thread_stmt(ast, 0, 1), 0)->init;
    ck_assert_int_eq(in_t->sym, SYM_LOCAL);
    ck_assert_int_eq(in_t->sym_index, 0);
    ck_assert_int_eq(decl_of(thread_stmt(ast, 0, 2), 0)->init->sym, SYM_GLOBAL);
    ast_free(ast);
}
END_TEST

START_TEST(test_fields_and_arrays)
{
    Ast *ast = load_ok("Java t\n"
                       "class P { int a; long f; P next; }\n"
                       "P p = new P();\n"
                       "int[][] m = new int[2][];\n"
                       "thread T { long r = p.next.f; int n = m.length; int[] row = m[1]; }\n");
    const Expr *pf = decl_of(thread_stmt(ast, 0, 0), 0)->init;
    ck_assert_int_eq(pf->sym, SYM_FIELD);
    ck_assert_int_eq(pf->sym_class, 0);
    ck_assert_int_eq(pf->sym_index, 1);
    assert_type(pf->type, "long");
    ck_assert_int_eq(pf->lhs->sym_index, 2);
    assert_type(pf->lhs->type, "P");
    ck_assert_int_eq(pf->lhs->type->class_index, 0);
    const Expr *len = decl_of(thread_stmt(ast, 0, 1), 0)->init;
    ck_assert_int_eq(len->sym, SYM_LENGTH);
    assert_type(len->type, "int");
    assert_type(decl_of(thread_stmt(ast, 0, 2), 0)->init->type, "int[]");
    ast_free(ast);
}
END_TEST

START_TEST(test_calls_and_constructors)
{
    Ast *ast = load_ok("Java t\n"
                       "int get() { return 0; }\n"                                 /* 0 */
                       "class C {\n"
                       "  int v;\n"
                       "  int get() { return v; }\n"                               /* 1 */
                       "  int twice() { return get() * 2; }\n"                     /* 2 */
                       "}\n"
                       "class D { D(int a) { } D(long a) { } D(boolean b) { } }\n" /* 3 4 5 */
                       "class E { E(long a) { } E(boolean b) { } }\n"              /* 6 7 */
                       "C c = new C();\n"
                       "D d1 = new D(1), d2 = new D(1L), d3 = new D(true);\n"
                       "E e = new E(1);\n"
                       "thread T { int r = get(); int s = c.get(); }\n");
    /* unqualified in a class: the class's own method first */
    const Stmt *ret = method_stmt(ast, 2, 0);
    ck_assert_int_eq(ret->expr->lhs->method_index, 1);
    ck_assert_int_eq(global_at(ast, 0)->init->method_index, -1);   /* no constructor */
    ck_assert_int_eq(global_at(ast, 1)->init->method_index, 3);    /* exact int */
    ck_assert_int_eq(global_at(ast, 2)->init->method_index, 4);    /* exact long */
    ck_assert_int_eq(global_at(ast, 3)->init->method_index, 5);
    ck_assert_int_eq(global_at(ast, 4)->init->method_index, 6);    /* int widens to long */
    assert_type(global_at(ast, 4)->init->type, "E");
    ck_assert_int_eq(decl_of(thread_stmt(ast, 0, 0), 0)->init->method_index, 0);
    ck_assert_int_eq(decl_of(thread_stmt(ast, 0, 1), 0)->init->method_index, 1);
    ast_free(ast);
}
END_TEST

/* The type of each global's initialiser, in order. */
START_TEST(test_expression_types)
{
    static const char *const expected[] = {
        "long", "int", "long", "boolean", "boolean", "boolean", "int", "long",
        "C", "int[]", "long", "int", "null", "boolean", "long",
    };
    Ast *ast = load_ok("Java t\n"
                       "class C { }\n"
                       "long a = 1 + 2L;\n"
                       "int b = 1 << 2L;\n"          /* a shift has its left operand's type */
                       "long c = 1L >>> 2;\n"
                       "boolean d = true & false;\n"
                       "boolean e = null == new C();\n"
                       "boolean f = 1 < 2L;\n"
                       "int g = d ? 1 : 2;\n"
                       "long h = d ? 1 : 2L;\n"
                       "C i = d ? null : new C();\n"
                       "int[] j = new int[] {1, 2};\n"
                       "long k = -c;\n"
                       "int l = ~1 ^ 3;\n"
                       "C m = null;\n"
                       "boolean n = !(d || e) && f;\n"
                       "long o = 5 % 3 * b / c;\n"
                       "thread T { }\n");
    ck_assert_uint_eq(ast->globals->len, G_N_ELEMENTS(expected));
    for (guint i = 0; i < G_N_ELEMENTS(expected); i++)
        assert_type(global_at(ast, i)->init->type, expected[i]);
    ast_free(ast);
}
END_TEST

/* x op= e narrows implicitly, as in Java; ++ on a long is fine. */
START_TEST(test_compound_assignment_narrows)
{
    Ast *ast = load_ok("Java t\nlong l;\nboolean b;\n"
                       "thread T { int x = 0; x += l; x <<= l; x *= 2L; l++; b &= true; b ^= false; }\n");
    ck_assert_int_eq(thread_stmt(ast, 0, 1)->op, OPR_ADD);
    ast_free(ast);
}
END_TEST

START_TEST(test_final_assignments_allowed)
{
    Ast *ast = load_ok("Java t\n"
                       "final int g = 1;\n"
                       "class P {\n"
                       "  final int x; final int y;\n"
                       "  P(int a) { x = a; this.y = a; }\n"
                       "  P() { x = 0; y = x + 1; }\n"
                       "}\n"
                       "thread T { int r = g; }\n");
    ast_free(ast);
}
END_TEST

START_TEST(test_join)
{
    Ast *ast = load_ok("Java t\nthread P0 { join P1; }\nthread P1 { }\nthread P2 { join P0; join P1; }\n");
    ck_assert_int_eq(thread_stmt(ast, 0, 0)->sym_index, 1);
    ck_assert_int_eq(thread_stmt(ast, 2, 0)->sym_index, 0);
    ck_assert_int_eq(thread_stmt(ast, 2, 1)->sym_index, 1);
    ast_free(ast);
}
END_TEST

/* ---- condition locations -------------------------------------------- */

/* Condition locations first (each once), then new ones from the list. */
START_TEST(test_shown_order_and_merging)
{
    Ast *ast = load_ok("Java t\nint x;\n"
                       "thread T1 { int r0 = 1; int r = 2; }\n"
                       "thread T2 { int r = 3; }\n"
                       "locations [x; T1:r; T2:r]\n"
                       "exists (r0 == 1 /\\ T1:r0 == 2 \\/ x = 3)\n");
    ck_assert_uint_eq(ast->shown->len, 4);
    ck_assert_str_eq(shown_at(ast, 0)->text, "T1:r0");
    ck_assert_str_eq(shown_at(ast, 1)->text, "x");
    ck_assert_str_eq(shown_at(ast, 2)->text, "T1:r");
    ck_assert_str_eq(shown_at(ast, 3)->text, "T2:r");
    /* (or (and (== r0 1) (== T1:r0 2)) (== x 3)) */
    const CondExpr *c = ast->cond;
    ck_assert_int_eq(c->kind, CE_OR);
    ck_assert_int_eq(c->a->a->loc, 0);
    ck_assert_int_eq(c->a->b->loc, 0);
    ck_assert_int_eq(c->b->loc, 1);
    ck_assert_int_eq(c->b->value, 3);
    ck_assert_str_eq(ast->cond_text, "exists (r0 == 1 /\\ T1:r0 == 2 \\/ x = 3)");
    ast_free(ast);
}
END_TEST

START_TEST(test_location_resolution)
{
    Ast *ast = load_ok("Java t\n"
                       "class Node { int v; Node next; }\n"
                       "Node head = new Node();\n"
                       "long[] a = new long[2];\n"
                       "boolean flag;\n"
                       "thread T1 { int r1 = 0; Node q = null; }\n"
                       "thread T2 { long r2 = 0; }\n"
                       "exists (r2 == 1 /\\ head.next.v == 2 /\\ a[1] == 3 /\\ flag == true /\\ "
                       "T1:q == null /\\ head != null)\n");
    ck_assert_uint_eq(ast->shown->len, 6);
    const CondLoc *r2 = shown_at(ast, 0);
    ck_assert_str_eq(r2->text, "T2:r2");
    ck_assert(r2->is_register);
    ck_assert_int_eq(r2->thread_index, 1);
    ck_assert_int_eq(r2->reg_slot, 0);
    assert_type(r2->type, "long");

    const CondLoc *v = shown_at(ast, 1);
    ck_assert_str_eq(v->text, "head.next.v");
    ck_assert(!v->is_register);
    ck_assert_int_eq(v->global_index, 0);
    ck_assert_uint_eq(v->steps->len, 2);
    ck_assert_int_eq(g_array_index(v->steps, LocStep, 0).field_index, 1);
    ck_assert_int_eq(g_array_index(v->steps, LocStep, 0).class_index, 0);
    ck_assert_int_eq(g_array_index(v->steps, LocStep, 1).field_index, 0);
    assert_type(v->type, "int");

    const CondLoc *elem = shown_at(ast, 2);
    ck_assert_str_eq(elem->text, "a[1]");
    ck_assert_int_eq(elem->global_index, 1);
    assert_type(elem->type, "long");

    assert_type(shown_at(ast, 3)->type, "boolean");
    ck_assert_str_eq(shown_at(ast, 4)->text, "T1:q");
    ck_assert_int_eq(shown_at(ast, 4)->reg_slot, 1);
    ck_assert_str_eq(shown_at(ast, 5)->text, "head");
    ast_free(ast);
}
END_TEST

START_TEST(test_condition_values)
{
    Ast *ast = load_ok("Java t\nclass C { }\nC p;\nboolean b;\nint x;\nthread T { }\n"
                       "forall (p == null /\\ b == true /\\ x >= -5)\n");
    const CondExpr *c = ast->cond;
    ck_assert(c->a->a->value_is_null);
    ck_assert_int_eq(c->a->a->value, 0);
    ck_assert(!c->a->b->value_is_null);
    ck_assert_int_eq(c->a->b->value, 1);
    ck_assert_int_eq(c->b->op, OPR_GE);
    ck_assert_int_eq(c->b->value, -5);
    ast_free(ast);
}
END_TEST

/* With neither condition nor locations, every register is shown. */
START_TEST(test_default_shown_registers)
{
    Ast *ast = load_ok("Java t\nint x;\n"
                       "thread T1 { int a = 1; { int hidden = 2; } int b = 3; }\n"
                       "thread T2 { }\n"
                       "thread T3 { boolean c; }\n");
    ck_assert_uint_eq(ast->shown->len, 3);
    ck_assert_str_eq(shown_at(ast, 0)->text, "T1:a");
    ck_assert_str_eq(shown_at(ast, 1)->text, "T1:b");
    ck_assert_str_eq(shown_at(ast, 2)->text, "T3:c");
    ck_assert(shown_at(ast, 2)->is_register);
    ck_assert_int_eq(shown_at(ast, 2)->thread_index, 2);
    ast_free(ast);

    /* only a locations list: exactly its locations */
    ast = load_ok("Java t\nint x;\nthread T1 { int a = 1; }\nlocations [x]\n");
    ck_assert_uint_eq(ast->shown->len, 1);
    ck_assert_str_eq(shown_at(ast, 0)->text, "x");
    ck_assert_int_eq(ast->cond_kind, CK_NONE);
    ast_free(ast);
}
END_TEST

/* ---- errors: names -------------------------------------------------- */

START_TEST(test_errors_unknown_names)
{
    assert_body_error("", " int r = z; ", "3:20: error: unknown variable 'z'");
    assert_body_error("", " Foo f; ", "3:12: error: unknown class 'Foo'");
    assert_body_error("Foo g;", "", "2:5: error: unknown class 'Foo'");
    assert_body_error("", " m(); ", "3:12: error: unknown method 'm'");
    assert_body_error("class C { int f; }\nC c;", " int r = c.g; ", "4:20: error: unknown field 'g' in class 'C'");
    assert_body_error("class C { }\nC c;", " c.m(); ", "4:12: error: unknown method 'm' in class 'C'");
    assert_body_error("class C { }", " C c = new Object(); ", "3:18: error: unknown class 'Object'");
    assert_body_error("", " join T9; ", "3:12: error: unknown thread 'T9'");
    assert_body_error("", " join T; ", "3:12: error: thread 'T' cannot join itself");
    assert_body_error("", " this.x = 1; ",
                      "3:12: error: 'this' can only be used in the methods and constructors of a class");
    assert_body_error("int m() { return this.x; }", "",
                      "2:18: error: 'this' can only be used in the methods and constructors of a class");
}
END_TEST

START_TEST(test_errors_duplicates)
{
    assert_body_error("int x;\nlong x;", "", "3:6: error: duplicate global 'x'");
    assert_body_error("class C { }\nclass C { }", "", "3:7: error: duplicate class 'C'");
    assert_body_error("void m() { }\nint m() { return 1; }", "", "3:5: error: duplicate method 'm'");
    assert_body_error("class C { void m() { } void m() { } }", "", "2:29: error: duplicate method 'm' in class 'C'");
    assert_body_error("class C { int f; boolean f; }", "", "2:26: error: duplicate field 'f' in class 'C'");
    assert_body_error("class C { C(int a) { } C(int b) { } }", "",
                      "2:24: error: duplicate constructor of class 'C' with the same parameter types");
    assert_body_error("int m(int a, int a) { return a; }", "", "2:18: error: variable 'a' is already defined");
    assert_body_error("int m(int a) { int a = 1; return a; }", "", "2:20: error: variable 'a' is already defined");
    assert_body_error("", " int r; { int r = 1; } ", "3:25: error: variable 'r' is already defined");
    assert_check_error("Java t\nthread T { }\nthread T { }\n", "3:8: error: duplicate thread 'T'");
    /* sequential blocks and different namespaces are fine */
    Ast *ast = load_ok("Java t\nint m;\nint m() { return m; }\nclass m { }\n"
                       "thread T { { int a = 1; } { int a = 2; } for (int i = 0; i < 1; i++) { } "
                       "for (int i = 0; i < 1; i++) { } }\n");
    ast_free(ast);
}
END_TEST

/* ---- errors: statements --------------------------------------------- */

START_TEST(test_errors_statements)
{
    assert_body_error("", " break; ", "3:12: error: 'break' outside of a loop");
    assert_body_error("", " if (true) { continue; } ", "3:24: error: 'continue' outside of a loop");
    assert_body_error("void m() { break; }", " while (true) { m(); break; } ",
                      "2:12: error: 'break' outside of a loop");
    assert_body_error("", " return 1; ", "3:19: error: a thread cannot return a value");
    assert_body_error("void m() { return 1; }", "", "2:19: error: cannot return a value from void method 'm'");
    assert_body_error("class C { C() { return 1; } }", "",
                      "2:24: error: cannot return a value from constructor 'C'");
    assert_body_error("int m() { return; }", "", "2:11: error: missing return value in method 'm'");
    assert_body_error("int m() { return true; }", "",
                      "2:18: error: incompatible types: boolean cannot be converted to int");
    assert_body_error("int m(boolean b) { if (b) return 1; }", "",
                      "2:5: error: missing return statement in method 'm'");
    assert_body_error("int m() { while (true) { break; } }", "",
                      "2:5: error: missing return statement in method 'm'");
    assert_body_error("", " if (1) { } ", "3:16: error: incompatible types: int cannot be converted to boolean");
    assert_body_error("", " while (0L) { } ", "3:19: error: incompatible types: long cannot be converted to boolean");
    assert_body_error("", " assert 1; ", "3:19: error: incompatible types: int cannot be converted to boolean");
    assert_body_error("", " assume null; ", "3:19: error: incompatible types: null cannot be converted to boolean");
    assert_body_error("", " synchronized (1) { } ", "3:26: error: cannot synchronize on a value of type int");
    assert_body_error("", " if (true) int x = 1; ",
                      "3:22: error: variable declaration not allowed here; use a block");
    assert_body_error("", " boolean b; b++; ", "3:23: error: bad operand type boolean for '++'");
    /* these methods all end without falling off their end */
    Ast *ast = load_ok("Java t\n"
                       "int a(boolean b) { if (b) return 1; else return 2; }\n"
                       "int c() { while (true) { } }\n"
                       "int d() { for (;;) { } }\n"
                       "int e() { do { return 1; } while (true); }\n"
                       "int f(boolean b) { synchronized (new int[1]) { return 1; } }\n"
                       "thread T { }\n");
    ast_free(ast);
}
END_TEST

/* ---- errors: calls -------------------------------------------------- */

START_TEST(test_errors_calls)
{
    const char *f = "int f(int a, boolean b) { return a; }";
    assert_body_error(f, " int r = f(1); ", "3:20: error: method 'f' expects 2 arguments, found 1");
    assert_body_error(f, " int r = f(1, 2); ",
                      "3:25: error: argument 2 of method 'f': incompatible types: int cannot be converted to boolean");
    assert_body_error(f, " int r = f(1L, true); ",
                      "3:22: error: argument 1 of method 'f': possible lossy conversion from long to int");
    assert_body_error("void g() { }", " g(1); ", "3:12: error: method 'g' expects 0 arguments, found 1");
    assert_body_error("void g() { }", " int r = g(); ", "3:20: error: method 'g' returns void; it has no value");
    assert_body_error("class C { void m() { } }", " m(); ",
                      "3:12: error: cannot call method 'm' of class 'C' without an object");
    assert_body_error("", " int x = 1; x.m(); ", "3:23: error: cannot call method 'm' on a value of type int");
    assert_body_error("", " int[] a = null; a.m(); ", "3:28: error: cannot call method 'm' on a value of type int[]");
    assert_body_error("class C { }", " C c = new C(1); ",
                      "3:18: error: class 'C' has no constructor; 'new C()' takes no arguments");
    assert_body_error("class C { C(int a) { } }", " C c = new C(); ",
                      "3:18: error: constructor 'C' expects 1 argument, found 0");
    assert_body_error("class C { C(int a) { } C(boolean b) { } }", " C c = new C(null); ",
                      "3:18: error: no constructor of class 'C' takes arguments (null)");
    assert_body_error("class C { C(int a, long b) { } C(long a, int b) { } }", " C c = new C(1, 2); ",
                      "3:18: error: several constructors of class 'C' take arguments (int, int)");
}
END_TEST

/* ---- errors: types -------------------------------------------------- */

START_TEST(test_errors_types)
{
    assert_body_error("long l;", " int r = l; ", "3:20: error: possible lossy conversion from long to int");
    assert_body_error("", " int r = true; ", "3:20: error: incompatible types: boolean cannot be converted to int");
    assert_body_error("", " boolean b = 0; ", "3:24: error: incompatible types: int cannot be converted to boolean");
    assert_body_error("", " int r = null; ", "3:20: error: incompatible types: null cannot be converted to int");
    assert_body_error("", " long[] a = new int[1]; ",
                      "3:23: error: incompatible types: int[] cannot be converted to long[]");
    assert_body_error("", " int r = 1 + true; ",
                      "3:20: error: bad operand types for binary operator '+': int and boolean");
    assert_body_error("", " boolean b = 1 && true; ",
                      "3:24: error: bad operand types for binary operator '&&': int and boolean");
    assert_body_error("", " boolean b = true < false; ",
                      "3:24: error: bad operand types for binary operator '<': boolean and boolean");
    assert_body_error("class A { }\nclass B { }", " boolean b = new A() == new B(); ",
                      "4:24: error: bad operand types for binary operator '==': A and B");
    assert_body_error("", " int r = -true; ", "3:20: error: bad operand type boolean for unary operator '-'");
    assert_body_error("", " boolean b = !1; ", "3:24: error: bad operand type int for unary operator '!'");
    assert_body_error("", " int r = true ? 1 : false; ",
                      "3:20: error: incompatible types in conditional expression: int and boolean");
    assert_body_error("", " boolean b; b += 1; ",
                      "3:23: error: bad operand types for binary operator '+': boolean and int");
    assert_body_error("", " int[] a = new int[2]; int r = a[1L]; ",
                      "3:44: error: possible lossy conversion from long to int");
    assert_body_error("", " int[] a = new int[true]; ", "3:30: error: incompatible types: boolean cannot be converted to int");
    assert_body_error("", " int x = 1; int r = x[0]; ", "3:31: error: array required, but int found");
    assert_body_error("", " int[] a = null; a.length = 2; ", "3:28: error: cannot assign to the length of an array");
    assert_body_error("", " int[] a = null; int r = a.size; ", "3:36: error: an array has no field 'size', only 'length'");
    assert_body_error("", " int x = 1; int r = x.f; ", "3:31: error: cannot access field 'f' of a value of type int");
    assert_body_error("", " int[] a = new int[] {1, true}; ",
                      "3:36: error: incompatible types: boolean cannot be converted to int");
}
END_TEST

/* ---- errors: final -------------------------------------------------- */

START_TEST(test_errors_final)
{
    assert_body_error("final int g = 0;", " g = 1; ", "3:12: error: cannot assign to final global 'g'");
    assert_body_error("final int g = 0;", " g += 1; ", "3:12: error: cannot assign to final global 'g'");
    assert_body_error("final int g = 0;", " g++; ", "3:12: error: cannot assign to final global 'g'");
    assert_body_error("final int g = 0;\nvoid m() { g = 2; }", "", "3:12: error: cannot assign to final global 'g'");
    const char *point = "class P { final int x; P() { x = 1; } void set() { x = 2; } }";
    assert_body_error(point, "", "2:52: error: cannot assign to final field 'x'");
    assert_body_error("class P { final int x; }\nP p = new P();", " p.x = 1; ",
                      "4:12: error: cannot assign to final field 'x'");
    /* in a constructor, only through this: another object's field is not being built */
    assert_body_error("class P { final int x; P(P o) { o.x = 1; } }", "",
                      "2:33: error: cannot assign to final field 'x'");
    assert_body_error("class Q { final int x; }\nclass P { P(Q q) { q.x = 1; } }", "",
                      "3:20: error: cannot assign to final field 'x'");
}
END_TEST

/* ---- errors: condition ---------------------------------------------- */

START_TEST(test_errors_condition)
{
    const char *two = "Java t\nint x;\nclass C { int f; }\nC p;\nboolean b;\n"
                      "thread T1 { int r1 = 0; int a = 0; }\nthread T2 { int r1 = 0; }\n"
                      "thread T3 { int r1 = 0; }\n";
    char *text;
#define COND_ERROR(cond, expected)                                   \
    text = g_strdup_printf("%s%s\n", two, cond);                     \
    assert_check_error(text, expected);                              \
    g_free(text)
    COND_ERROR("exists (r1 == 1)",
               "9:9: error: 'r1' is a register of T1, T2 and T3; write T1:r1, T2:r1 or T3:r1");
    COND_ERROR("exists (T9:r1 == 1)", "9:9: error: unknown thread 'T9'");
    COND_ERROR("exists (T2:a == 1)", "9:9: error: thread 'T2' has no register 'a'");
    COND_ERROR("exists (zz == 1)",
               "9:9: error: unknown location 'zz': no global and no thread's register has that name");
    COND_ERROR("locations [zz]", "9:12: error: unknown location 'zz': no global and no thread's register has that name");
    COND_ERROR("exists (b == 1)", "9:14: error: cannot compare 'b' of type boolean with an integer");
    COND_ERROR("exists (x == true)", "9:14: error: cannot compare 'x' of type int with a boolean");
    COND_ERROR("exists (x == null)", "9:14: error: cannot compare 'x' of type int with null");
    COND_ERROR("exists (p == 0)", "9:14: error: cannot compare 'p' of type C with an integer");
    COND_ERROR("exists (b < true)", "9:9: error: cannot order 'b' of type boolean with '<'");
    COND_ERROR("exists (p.g == 1)", "9:9: error: unknown field 'g' in class 'C'");
    COND_ERROR("exists (x.f == 1)", "9:9: error: 'x' of type int has no field 'f'");
    COND_ERROR("exists (p[0] == 1)", "9:9: error: cannot index 'p' of type C");
    COND_ERROR("exists (T1:a.f == 1)", "9:9: error: 'T1:a' of type int has no field 'f'");
#undef COND_ERROR
    /* with two owners the message reads "T1 and T2" */
    assert_check_error("Java t\nthread T1 { int r = 0; }\nthread T2 { int r = 0; }\nexists (r == 0)\n",
                       "4:9: error: 'r' is a register of T1 and T2; write T1:r or T2:r");
}
END_TEST

/* ---- error collection ----------------------------------------------- */

START_TEST(test_errors_sorted_and_collected)
{
    /* the duplicate thread is found first but shown in source order */
    GPtrArray *lines = check_errors("Java t\nthread T { int r = y; boolean b = 1; }\nthread T { }\n");
    ck_assert_uint_eq(lines->len, 3);
    ck_assert_str_eq(lines->pdata[0], "2:20: error: unknown variable 'y'");
    ck_assert_str_eq(lines->pdata[1], "2:35: error: incompatible types: int cannot be converted to boolean");
    ck_assert_str_eq(lines->pdata[2], "3:8: error: duplicate thread 'T'");
    g_ptr_array_unref(lines);
}
END_TEST

START_TEST(test_error_limit_20)
{
    GString *text = g_string_new("Java t\nthread T {\n");
    for (int i = 0; i < 25; i++)
        g_string_append_printf(text, "  int r%d = unknown%d;\n", i, i);
    g_string_append(text, "}\n");
    GPtrArray *lines = check_errors(text->str);
    ck_assert_uint_eq(lines->len, 20);
    ck_assert_str_eq(lines->pdata[0], "3:12: error: unknown variable 'unknown0'");
    ck_assert_str_eq(lines->pdata[19], "22:13: error: unknown variable 'unknown19'");
    g_ptr_array_unref(lines);
    g_string_free(text, TRUE);
}
END_TEST

/* An error inside an expression is reported once, not again for every
   operator built on it. */
START_TEST(test_no_cascades)
{
    assert_body_error("", " int r = (z.f[0] + 1) * 2 - 3 << 1; ", "3:21: error: unknown variable 'z'");
}
END_TEST

/* ---- loaders -------------------------------------------------------- */

START_TEST(test_load_missing_file)
{
    GError *err = NULL;
    Ast *ast = lang_load_file("/nonexistent/dir/x.litmus", &err);
    ck_assert_ptr_null(ast);
    ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_IO));
    ck_assert_str_eq(err->message, "/nonexistent/dir/x.litmus: error: cannot read: No such file or directory");
    g_error_free(err);
}
END_TEST

START_TEST(test_load_file)
{
    GError *err = NULL;
    char *path = NULL;
    int fd = g_file_open_tmp("pathrelax-XXXXXX.litmus", &path, &err);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const char *text = "Java tc1\nint x = 0, y = 0;\n"
                       "thread T1 { int r1 = x; if (r1 >= 0) y = 1; }\n"
                       "thread T2 { int r2 = y; x = r2; }\n"
                       "exists (T1:r1 == 1 /\\ T2:r2 == 1)\n";
    ck_assert(g_file_set_contents(path, text, -1, &err));
    Ast *ast = lang_load_file(path, &err);
    ck_assert_ptr_nonnull(ast);
    ck_assert_str_eq(ast->filename, path);
    ck_assert_str_eq(ast->name, "tc1");
    ck_assert_uint_eq(ast->shown->len, 2);
    ast_free(ast);

    ck_assert(g_file_set_contents(path, "Java t\nthread T { int r = q; }\n", -1, &err));
    ast = lang_load_file(path, &err);
    ck_assert_ptr_null(ast);
    char *expected = g_strdup_printf("%s:2:20: error: unknown variable 'q'\n"
                                     "thread T { int r = q; }\n"
                                     "                   ^", path);
    ck_assert_str_eq(err->message, expected);
    g_free(expected);
    g_clear_error(&err);
    g_unlink(path);
    g_free(path);
}
END_TEST

/* An embedded NUL byte is an error at its position, not the end of the
   file: litmus files are UTF-8 text. */
START_TEST(test_load_file_with_nul)
{
    GError *err = NULL;
    char *path = NULL;
    int fd = g_file_open_tmp("pathrelax-XXXXXX.litmus", &path, &err);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(g_file_set_contents(path, "Java t\nthread T { }\0 junk", 26, &err));
    Ast *ast = lang_load_file(path, &err);
    ck_assert_ptr_null(ast);
    char *expected = g_strdup_printf("%s:2:13: error: a NUL byte in the file", path);
    ck_assert(g_str_has_prefix(err->message, expected));
    g_free(expected);
    g_clear_error(&err);
    g_unlink(path);
    g_free(path);
}
END_TEST

/* 50000 levels through the whole load: an error, no crash. */
START_TEST(test_load_deep_nesting)
{
    const char *units[] = { "(", "{", "!", "- ", "if (a) " };
    const char *prefixes[] = { "thread T { int r = ", "thread T ", "thread T { boolean r = ",
                               "thread T { int r = ", "boolean a;\nthread T { " };
    for (guint k = 0; k < G_N_ELEMENTS(units); k++) {
        GString *text = g_string_new("Java deep\n");
        g_string_append(text, prefixes[k]);
        for (int i = 0; i < 50000; i++)
            g_string_append(text, units[k]);
        g_string_append(text, "x; }\n");
        GError *err = NULL;
        Ast *ast = lang_load_string("deep.litmus", text->str, &err);
        ck_assert_ptr_null(ast);
        ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_SYNTAX));
        ck_assert_msg(strstr(err->message, ": error: nesting deeper than 500 levels\n"), "%s", err->message);
        g_error_free(err);
        g_string_free(text, TRUE);
    }
}
END_TEST

/* Every .litmus file shipped under LITMUS_DIR loads without error. */
START_TEST(test_shipped_litmus_files_load)
{
    const char *dir = g_getenv("LITMUS_DIR");
    if (!dir)
        return;
    GPtrArray *pending = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(pending, g_strdup(dir));
    int loaded = 0;
    while (pending->len > 0) {
        char *path = g_ptr_array_steal_index(pending, pending->len - 1);
        GDir *d = g_dir_open(path, 0, NULL);
        for (const char *name; d && (name = g_dir_read_name(d));) {
            char *child = g_build_filename(path, name, NULL);
            if (g_file_test(child, G_FILE_TEST_IS_DIR)) {
                g_ptr_array_add(pending, child);
                continue;
            }
            if (g_str_has_suffix(name, ".litmus")) {
                GError *err = NULL;
                Ast *ast = lang_load_file(child, &err);
                ck_assert_msg(ast != NULL, "%s", err ? err->message : "?");
                ast_free(ast);
                loaded++;
            }
            g_free(child);
        }
        if (d)
            g_dir_close(d);
        g_free(path);
    }
    g_ptr_array_unref(pending);
    ck_assert_int_gt(loaded, 0);
}
END_TEST

static Suite *checker_suite(void)
{
    Suite *s = suite_create("checker");
    TCase *resolve = tcase_create("resolution");
    tcase_add_test(resolve, test_method_slots);
    tcase_add_test(resolve, test_thread_registers);
    tcase_add_test(resolve, test_name_resolution);
    tcase_add_test(resolve, test_fields_and_arrays);
    tcase_add_test(resolve, test_calls_and_constructors);
    tcase_add_test(resolve, test_expression_types);
    tcase_add_test(resolve, test_compound_assignment_narrows);
    tcase_add_test(resolve, test_final_assignments_allowed);
    tcase_add_test(resolve, test_join);
    suite_add_tcase(s, resolve);

    TCase *cond = tcase_create("condition");
    tcase_add_test(cond, test_shown_order_and_merging);
    tcase_add_test(cond, test_location_resolution);
    tcase_add_test(cond, test_condition_values);
    tcase_add_test(cond, test_default_shown_registers);
    suite_add_tcase(s, cond);

    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_errors_unknown_names);
    tcase_add_test(errors, test_errors_duplicates);
    tcase_add_test(errors, test_errors_statements);
    tcase_add_test(errors, test_errors_calls);
    tcase_add_test(errors, test_errors_types);
    tcase_add_test(errors, test_errors_final);
    tcase_add_test(errors, test_errors_condition);
    tcase_add_test(errors, test_errors_sorted_and_collected);
    tcase_add_test(errors, test_error_limit_20);
    tcase_add_test(errors, test_no_cascades);
    suite_add_tcase(s, errors);

    TCase *load = tcase_create("load");
    tcase_add_test(load, test_load_missing_file);
    tcase_add_test(load, test_load_file);
    tcase_add_test(load, test_load_file_with_nul);
    tcase_add_test(load, test_load_deep_nesting);
    tcase_add_test(load, test_shipped_litmus_files_load);
    suite_add_tcase(s, load);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(checker_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
