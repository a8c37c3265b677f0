/* PathRelax unit tests: the compiler, on small litmus programs.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Each test compiles a program and compares one method's code with an
 * expected sequence written as "OP operand; OP operand; ...": the listing
 * of program_disassemble without instruction indices and lines. Jump
 * targets are instruction indices, counted from 0.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pathrelax/compile.h"
#include "pathrelax/lang.h"

static Ast *ast;
static Program *prog;

static void load(const char *source)
{
    GError *err = NULL;
    ast = lang_load_string("test.litmus", source, &err);
    ck_assert_msg(ast != NULL, "front end rejected the program: %s", err ? err->message : "?");
    prog = compile_program(ast);
}

static void teardown(void)
{
    program_free(prog);
    ast_free(ast);
    prog = NULL;
    ast = NULL;
}

static int method_named(const char *name)
{
    for (int i = 0; i < prog->n_methods; i++)
        if (strcmp(prog->methods[i].name, name) == 0)
            return i;
    ck_abort_msg("no method %s", name);
    return -1;
}

/* "  12  L7  GETG x" -> "GETG x" */
static const char *skip_index_and_line(const char *line)
{
    line += strspn(line, " ");
    line += strspn(line, "0123456789");
    line += strspn(line, " ");
    line += 1 + strspn(line + 1, "0123456789");    /* L and the line */
    return line + strspn(line, " ");
}

/* The code of a method as "OP operand; OP; ..." */
static char *code_of(const char *method)
{
    char *listing = program_disassemble(prog, method_named(method));
    char **lines = g_strsplit(listing, "\n", -1);
    GString *out = g_string_new(NULL);
    for (char **line = lines; *line && **line; line++) {
        if (out->len > 0)
            g_string_append(out, "; ");
        g_string_append(out, skip_index_and_line(*line));
    }
    g_strfreev(lines);
    g_free(listing);
    return g_string_free(out, FALSE);
}

#define assert_code(method, expected)                                          \
    do {                                                                       \
        char *actual_ = code_of(method);                                       \
        ck_assert_str_eq(actual_, expected);                                   \
        g_free(actual_);                                                       \
    } while (0)

static const CMethod *method(const char *name)
{
    return &prog->methods[method_named(name)];
}

/* ---- shared reads and writes ------------------------------------------ */

START_TEST(global_read_then_write)
{
    load("Java t\n"
         "int x = 0, y;\n"
         "thread T1 { int r1 = x; y = r1 + 1; }\n");
    assert_code("T1", "GETG x; STORE 0; LOAD 0; CONST 1; IADD; PUTG y; END");
    /* y has no initialiser: init does not write it */
    assert_code("<init>", "CONST 0; PUTG x; END");
    ck_assert_int_eq(prog->init_method, prog->n_methods - 1);
    ck_assert_int_eq(prog->threads[0].method, method_named("T1"));
    ck_assert_int_eq(prog->threads[0].n_regs, 1);
    ck_assert_str_eq(prog->threads[0].reg_names[0], "r1");
    ck_assert_int_eq(method("T1")->max_stack, 2);
    teardown();
}
END_TEST

START_TEST(positions_of_visible_actions)
{
    load("Java t\n"
         "int x, y;\n"
         "thread T1 {\n"
         "  int r1 = 1 +\n"
         "     x;\n"
         "}\n");
    const CMethod *t1 = method("T1");
    ck_assert_int_eq(t1->code[1].op, OP_GETG);
    ck_assert_int_eq(t1->code[1].line, 5);
    ck_assert_int_eq(t1->code[1].col, 6);
    teardown();
}
END_TEST

START_TEST(field_compound_is_read_then_write)
{
    load("Java t\n"
         "class C { int f; }\n"
         "C c = new C();\n"
         "thread T1 { c.f += 2; c.f++; }\n");
    assert_code("T1",
                "GETG c; DUP; GETF C.f; CONST 2; IADD; PUTF C.f; "
                "GETG c; DUP; GETF C.f; CONST 1; IADD; PUTF C.f; END");
    /* no constructor and no field initialiser: just NEW */
    assert_code("<init>", "NEW C; PUTG c; END");
    ck_assert_int_eq(prog->n_methods, 2);
    teardown();
}
END_TEST

START_TEST(array_and_global_compound)
{
    load("Java t\n"
         "int[] a = new int[2];\n"
         "int g;\n"
         "thread T1 { int i = 1; a[i] -= 3; g *= 2; int n = a.length; }\n");
    assert_code("T1",
                "CONST 1; STORE 0; "
                "GETG a; LOAD 0; DUP2; ALOAD; CONST 3; ISUB; ASTORE; "
                "GETG g; CONST 2; IMUL; PUTG g; "
                "GETG a; ARRAYLEN; STORE 1; END");
    assert_code("<init>", "CONST 2; NEWARRAY int[]; PUTG a; END");
    ck_assert_int_eq(method("T1")->max_stack, 4);   /* a, i, a, i */
    teardown();
}
END_TEST

START_TEST(implicit_this_field)
{
    load("Java t\n"
         "class C { int f; void inc() { f++; } int get() { return f; } }\n"
         "C c = new C();\n"
         "thread T1 { c.inc(); }\n");
    assert_code("C.inc", "LOAD 0; DUP; GETF C.f; CONST 1; IADD; PUTF C.f; RET");
    assert_code("C.get", "LOAD 0; GETF C.f; RETV");
    assert_code("T1", "GETG c; CALL C.inc; END");
    ck_assert(method("C.inc")->is_instance);
    ck_assert_int_eq(method("C.inc")->n_params, 1);
    teardown();
}
END_TEST

/* ---- short-circuit and conditions --------------------------------------- */

START_TEST(and_skips_second_read)
{
    load("Java t\n"
         "int x, y;\n"
         "thread T1 { int r = 0; if (x == 1 && y == 1) r = 1; }\n");
    /* 0 CONST 0, 1 STORE 0, 2 GETG x, 3 CONST 1, 4 EQ, 5 JZ 12, 6 GETG y,
       7 CONST 1, 8 EQ, 9 JZ 12, 10 CONST 1, 11 STORE 0, 12 END */
    assert_code("T1",
                "CONST 0; STORE 0; GETG x; CONST 1; EQ; JZ 12; "
                "GETG y; CONST 1; EQ; JZ 12; CONST 1; STORE 0; END");
    teardown();
}
END_TEST

START_TEST(or_value_and_conditional)
{
    load("Java t\n"
         "int x, y;\n"
         "thread T1 { boolean b = x == 1 || y == 1; int r = b ? x : 2; }\n");
    /* 0 GETG x, 1 CONST 1, 2 EQ, 3 JNZ 8, 4 GETG y, 5 CONST 1, 6 EQ,
       7 JZ 10, 8 CONST 1, 9 JMP 11, 10 CONST 0, 11 STORE 0,
       12 LOAD 0, 13 JZ 16, 14 GETG x, 15 JMP 17, 16 CONST 2, 17 STORE 1 */
    assert_code("T1",
                "GETG x; CONST 1; EQ; JNZ 8; GETG y; CONST 1; EQ; JZ 10; "
                "CONST 1; JMP 11; CONST 0; STORE 0; "
                "LOAD 0; JZ 16; GETG x; JMP 17; CONST 2; STORE 1; END");
    teardown();
}
END_TEST

START_TEST(if_else_and_not)
{
    load("Java t\n"
         "int x;\n"
         "boolean f;\n"
         "thread T1 { int r; if (!f) r = 1; else r = x; }\n");
    /* ! inverts the jump instead of computing NOT */
    assert_code("T1",
                "CONST 0; STORE 0; GETG f; JNZ 7; CONST 1; STORE 0; JMP 9; "
                "GETG x; STORE 0; END");
    teardown();
}
END_TEST

/* ---- loops ------------------------------------------------------------- */

START_TEST(while_loop_enter_and_iter)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 { int r = 0; while (x == 0) { r++; } }\n");
    const CMethod *t1 = method("T1");
    int slot = t1->code[2].a;
    ck_assert_int_eq(t1->code[2].op, OP_LOOP_ENTER);
    ck_assert(t1->is_counter[slot]);
    ck_assert(!t1->is_counter[0]);
    char *expected = g_strdup_printf(
        "CONST 0; STORE 0; LOOP_ENTER %d; GETG x; CONST 0; EQ; JZ 13; LOOP_ITER %d; "
        "LOAD 0; CONST 1; IADD; STORE 0; JMP 3; END", slot, slot);
    assert_code("T1", expected);
    g_free(expected);
    teardown();
}
END_TEST

START_TEST(for_continue_goes_to_update)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 {\n"
         "  for (int i = 0; i < 2; i++) { if (x == 1) continue; x = i; }\n"
         "}\n");
    const CMethod *t1 = method("T1");
    int i = t1->code[1].a, loop = t1->code[2].a;
    /* 0 CONST 0, 1 STORE i, 2 LOOP_ENTER, 3 LOAD i, 4 CONST 2, 5 LT,
       6 JZ 20, 7 LOOP_ITER, 8 GETG x, 9 CONST 1, 10 EQ, 11 JZ 13,
       12 JMP 15 (continue), 13 LOAD i, 14 PUTG x, 15 LOAD i, 16 CONST 1,
       17 IADD, 18 STORE i, 19 JMP 3, 20 END */
    char *expected = g_strdup_printf(
        "CONST 0; STORE %d; LOOP_ENTER %d; LOAD %d; CONST 2; LT; JZ 20; LOOP_ITER %d; "
        "GETG x; CONST 1; EQ; JZ 13; JMP 15; LOAD %d; PUTG x; "
        "LOAD %d; CONST 1; IADD; STORE %d; JMP 3; END", i, loop, i, loop, i, i, i);
    assert_code("T1", expected);
    ck_assert(t1->is_counter[loop]);
    ck_assert(!t1->is_counter[i]);
    g_free(expected);
    teardown();
}
END_TEST

START_TEST(do_while_iter_before_body)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 { do { x = 1; } while (x == 0); }\n");
    const CMethod *t1 = method("T1");
    int slot = t1->code[0].a;
    char *expected = g_strdup_printf(
        "LOOP_ENTER %d; LOOP_ITER %d; CONST 1; PUTG x; GETG x; CONST 0; EQ; JNZ 1; END",
        slot, slot);
    assert_code("T1", expected);
    g_free(expected);
    teardown();
}
END_TEST

START_TEST(local_in_loop_reset_each_pass)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 { while (true) { int r; r += x; break; } }\n");
    const CMethod *t1 = method("T1");
    int slot = t1->code[0].a;
    int r = t1->code[3].a;
    /* while (true) needs no test; break jumps past the loop */
    char *expected = g_strdup_printf(
        "LOOP_ENTER %d; LOOP_ITER %d; CONST 0; STORE %d; LOAD %d; GETG x; IADD; STORE %d; "
        "JMP 9; END", slot, slot, r, r, r);
    assert_code("T1", expected);
    g_free(expected);
    teardown();
}
END_TEST

/* ---- synchronisation ------------------------------------------------- */

START_TEST(sync_block_unlocks_on_return)
{
    load("Java t\n"
         "class L { }\n"
         "L lock = new L();\n"
         "int x;\n"
         "int get() { synchronized (lock) { return x; } }\n"
         "thread T1 { int r = get(); get(); }\n");
    /* the value is read inside the block, then the monitor released */
    assert_code("get", "GETG lock; STORE 0; LOAD 0; LOCK; GETG x; LOAD 0; UNLOCK; RETV");
    ck_assert_int_eq(method("get")->n_locals, 1);
    /* an unused result is popped */
    assert_code("T1", "CALL get; STORE 0; CALL get; POP; END");
    teardown();
}
END_TEST

START_TEST(nested_sync_break_unlocks_innermost_first)
{
    load("Java t\n"
         "class L { }\n"
         "L a = new L(), b = new L();\n"
         "thread T1 {\n"
         "  while (true) { synchronized (a) { synchronized (b) { break; } } }\n"
         "}\n");
    const CMethod *t1 = method("T1");
    int loop = t1->code[0].a;
    int outer = t1->code[3].a, inner = t1->code[7].a;
    ck_assert_int_ne(outer, inner);
    ck_assert(!t1->is_counter[outer] && !t1->is_counter[inner]);
    ck_assert_int_ge(t1->n_locals, MAX(outer, inner) + 1);
    /* the break unlocks b then a; nothing after it in the loop is
       reachable, so neither the normal unlocks nor the back edge appear */
    char *expected = g_strdup_printf(
        "LOOP_ENTER %d; LOOP_ITER %d; GETG a; STORE %d; LOAD %d; LOCK; "
        "GETG b; STORE %d; LOAD %d; LOCK; "
        "LOAD %d; UNLOCK; LOAD %d; UNLOCK; JMP 15; END",
        loop, loop, outer, outer, inner, inner, inner, outer);
    assert_code("T1", expected);
    g_free(expected);
    teardown();
}
END_TEST

START_TEST(synchronized_method_locks_this)
{
    load("Java t\n"
         "class C { int n; synchronized void inc() { n = n + 1; } }\n"
         "C c = new C();\n"
         "thread T1 { c.inc(); }\n");
    assert_code("C.inc",
                "LOAD 0; LOCK; LOAD 0; LOAD 0; GETF C.n; CONST 1; IADD; PUTF C.n; "
                "LOAD 0; UNLOCK; RET");
    teardown();
}
END_TEST

START_TEST(return_unlocks_block_then_method_monitor)
{
    load("Java t\n"
         "class C {\n"
         "  int n;\n"
         "  synchronized int get(C o) { synchronized (o) { return n; } }\n"
         "}\n"
         "C c = new C();\n"
         "thread T1 { synchronized (c) { if (c.n == 0) return; c.n = 1; } }\n");
    /* locals: this 0, o 1, the block's monitor 2 */
    assert_code("C.get",
                "LOAD 0; LOCK; LOAD 1; STORE 2; LOAD 2; LOCK; "
                "LOAD 0; GETF C.n; LOAD 2; UNLOCK; LOAD 0; UNLOCK; RETV");
    ck_assert_int_eq(method("C.get")->n_locals, 3);
    ck_assert_int_eq(method("C.get")->max_stack, 2);
    /* in a thread body, return ends the thread */
    assert_code("T1",
                "GETG c; STORE 0; LOAD 0; LOCK; GETG c; GETF C.n; CONST 0; EQ; JZ 12; "
                "LOAD 0; UNLOCK; END; GETG c; CONST 1; PUTF C.n; LOAD 0; UNLOCK; END");
    teardown();
}
END_TEST

START_TEST(join_names_thread)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 { x = 1; }\n"
         "thread T2 { join T1; int r = x; }\n");
    const CMethod *t2 = method("T2");
    ck_assert_int_eq(t2->code[0].op, OP_JOIN);
    ck_assert_int_eq(t2->code[0].a, 1);     /* tid 0 is the initial thread */
    assert_code("T2", "JOIN T1; GETG x; STORE 0; END");
    teardown();
}
END_TEST

/* ---- objects and arrays ------------------------------------------------ */

START_TEST(constructor_with_final_field_freezes)
{
    load("Java t\n"
         "class P {\n"
         "  final int a;\n"
         "  P(int v) { a = v; if (v < 0) return; a = 0; }\n"
         "}\n"
         "P p;\n"
         "thread T1 { p = new P(3); }\n");
    /* FREEZE before every RET, the early one and the implicit one */
    assert_code("P.<init>",
                "LOAD 0; LOAD 1; PUTF P.a; LOAD 1; CONST 0; LT; JZ 9; FREEZE; RET; "
                "LOAD 0; CONST 0; PUTF P.a; FREEZE; RET");
    assert_code("T1", "NEW P; DUP; CONST 3; CALL P.<init>; PUTG p; END");
    ck_assert_int_eq(method("P.<init>")->n_params, 2);
    ck_assert(method("P.<init>")->is_instance);
    ck_assert(!method("P.<init>")->returns_value);
    teardown();
}
END_TEST

START_TEST(array_initialiser_writes_elements)
{
    load("Java t\n"
         "int[] a = new int[] {1, 2};\n"
         "long[] b = new long[3];\n"
         "thread T1 { }\n");
    assert_code("<init>",
                "CONST 2; NEWARRAY int[]; DUP; CONST 0; CONST 1; ASTORE; "
                "DUP; CONST 1; CONST 2; ASTORE; PUTG a; "
                "CONST 3; NEWARRAY long[]; PUTG b; END");
    ck_assert_int_eq(prog->n_types, 2);
    ck_assert_int_eq(method("<init>")->max_stack, 4);
    teardown();
}
END_TEST

START_TEST(array_types_are_interned)
{
    load("Java t\n"
         "int[] a = new int[1], b = new int[] {4};\n"
         "thread T1 { }\n");
    ck_assert_int_eq(prog->n_types, 1);
    teardown();
}
END_TEST

/* ---- arithmetic --------------------------------------------------------- */

START_TEST(int_and_long_ops)
{
    load("Java t\n"
         "thread T1 {\n"
         "  int i = 1; long l = 2L;\n"
         "  i = i + 1; l = l + i; i += l; l = l << i; i = i >> l; i = -i; l = -l;\n"
         "}\n");
    assert_code("T1",
                "CONST 1; STORE 0; CONST 2; STORE 1; "
                "LOAD 0; CONST 1; IADD; STORE 0; "
                "LOAD 1; LOAD 0; LADD; STORE 1; "
                "LOAD 0; LOAD 1; LADD; L2I; STORE 0; "
                "LOAD 1; LOAD 0; LSHL; STORE 1; "
                "LOAD 0; LOAD 1; ISHR; STORE 0; "
                "LOAD 0; INEG; STORE 0; LOAD 1; LNEG; STORE 1; END");
    teardown();
}
END_TEST

/* ---- assert, assume, calls --------------------------------------------- */

START_TEST(assert_index_and_message)
{
    load("Java t\n"
         "class H { int x; }\n"
         "H h1 = new H();\n"
         "int x;\n"
         "thread T1 {\n"
         "  assert x == 1;\n"
         "  assert h1.x != 0 : \"h1 not set\";\n"
         "  assume x > 0;\n"
         "}\n");
    assert_code("T1",
                "GETG x; CONST 1; EQ; ASSERT 0; "
                "GETG h1; GETF H.x; CONST 0; NE; ASSERT 1; "
                "GETG x; CONST 0; GT; ASSUME; END");
    ck_assert_int_eq(prog->n_asserts, 2);
    ck_assert_ptr_null(prog->asserts[0].message);
    ck_assert_str_eq(prog->asserts[0].text, "x == 1");
    ck_assert_int_eq(prog->asserts[0].line, 6);
    ck_assert_int_eq(prog->asserts[0].col, 3);
    ck_assert_str_eq(prog->asserts[1].message, "h1 not set");
    ck_assert_str_eq(prog->asserts[1].text, "h1.x != 0");
    ck_assert_int_eq(prog->asserts[1].line, 7);
    teardown();
}
END_TEST

START_TEST(assert_text_parenthesises_as_needed)
{
    load("Java t\n"
         "int x; int[] a = new int[2]; boolean b, c;\n"
         "thread T1 {\n"
         "  assert (x + 1) * 2 == a[x - 1] && !(b || c);\n"
         "  assert x - (1 - 2) == -(x) ? b : c == (x > 0);\n"
         "}\n");
    ck_assert_str_eq(prog->asserts[0].text, "(x + 1) * 2 == a[x - 1] && !(b || c)");
    ck_assert_str_eq(prog->asserts[1].text, "x - (1 - 2) == -x ? b : c == x > 0");
    teardown();
}
END_TEST

START_TEST(top_level_method_call)
{
    load("Java t\n"
         "int x;\n"
         "int twice(int v) { return v * 2; }\n"
         "void set(int v) { x = v; }\n"
         "thread T1 { set(twice(3)); }\n");
    assert_code("twice", "LOAD 0; CONST 2; IMUL; RETV");
    assert_code("set", "LOAD 0; PUTG x; RET");
    assert_code("T1", "CONST 3; CALL twice; CALL set; END");
    ck_assert(!method("twice")->is_instance);
    ck_assert_int_eq(method("twice")->n_params, 1);
    ck_assert(method("twice")->returns_value);
    teardown();
}
END_TEST

START_TEST(disassembly_format)
{
    load("Java t\n"
         "int x;\n"
         "thread T1 {\n"
         "  x = 1;\n"
         "}\n");
    char *listing = program_disassemble(prog, method_named("T1"));
    ck_assert_str_eq(listing,
                     "   0  L4   CONST 1\n"
                     "   1  L4   PUTG x\n"
                     "   2  L3   END\n");
    g_free(listing);
    ck_assert_str_eq(opcode_name(OP_LOOP_ITER), "LOOP_ITER");
    ck_assert_str_eq(opcode_name(OP__COUNT), "?");
    teardown();
}
END_TEST

static Suite *compile_suite(void)
{
    Suite *s = suite_create("compile");
    TCase *tc = tcase_create("compile");
    tcase_add_test(tc, global_read_then_write);
    tcase_add_test(tc, positions_of_visible_actions);
    tcase_add_test(tc, field_compound_is_read_then_write);
    tcase_add_test(tc, array_and_global_compound);
    tcase_add_test(tc, implicit_this_field);
    tcase_add_test(tc, and_skips_second_read);
    tcase_add_test(tc, or_value_and_conditional);
    tcase_add_test(tc, if_else_and_not);
    tcase_add_test(tc, while_loop_enter_and_iter);
    tcase_add_test(tc, for_continue_goes_to_update);
    tcase_add_test(tc, do_while_iter_before_body);
    tcase_add_test(tc, local_in_loop_reset_each_pass);
    tcase_add_test(tc, sync_block_unlocks_on_return);
    tcase_add_test(tc, nested_sync_break_unlocks_innermost_first);
    tcase_add_test(tc, synchronized_method_locks_this);
    tcase_add_test(tc, return_unlocks_block_then_method_monitor);
    tcase_add_test(tc, join_names_thread);
    tcase_add_test(tc, constructor_with_final_field_freezes);
    tcase_add_test(tc, array_initialiser_writes_elements);
    tcase_add_test(tc, array_types_are_interned);
    tcase_add_test(tc, int_and_long_ops);
    tcase_add_test(tc, assert_index_and_message);
    tcase_add_test(tc, assert_text_parenthesises_as_needed);
    tcase_add_test(tc, top_level_method_call);
    tcase_add_test(tc, disassembly_format);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(compile_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
