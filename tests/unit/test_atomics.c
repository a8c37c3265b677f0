/* Unit tests of AtomicInteger and AtomicIntegerArray: checking, compiled
 * code, and their executions under sc, tso, pso and jmm. Each expected
 * answer is derived by hand in a comment.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <check.h>
#include <string.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
#include "testutil.h"

static const int64_t *state_at(const Result *r, guint i)
{
    return g_array_index(r->states, FinalState, i).values;
}

static const Violation *violation(const Result *r, guint i)
{
    ck_assert_uint_gt(r->violations->len, i);
    return g_ptr_array_index(r->violations, i);
}

/* The models under which the atomic steps are checked. */
static const char *const models[] = {"sc", "tso", "pso", "jmm"};

/* ---- checking ---------------------------------------------------------- */

/* The first line of the diagnostics of a file that does not check. */
static char *first_error(const char *text)
{
    GError *err = NULL;
    Ast *ast = lang_load_string("t.litmus", text, &err);
    ck_assert_msg(ast == NULL, "no error for: %s", text);
    ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_CHECK));
    char *line = g_strndup(err->message, strcspn(err->message, "\n"));
    g_error_free(err);
    return line;
}

START_TEST(unknown_method_is_reported)
{
    /* The call c.incrementAndGot() starts at line 3, column 12 (the
       receiver), where the checker reports it. */
    char *line = first_error("Java t\n"
                             "AtomicInteger c = new AtomicInteger();\n"
                             "thread T { c.incrementAndGot(); }\n");
    ck_assert_str_eq(line, "t.litmus:3:12: error: AtomicInteger has no method 'incrementAndGot'");
    g_free(line);
}
END_TEST

START_TEST(arity_and_argument_types_are_checked)
{
    char *line = first_error("Java t\n"
                             "AtomicIntegerArray a = new AtomicIntegerArray(2);\n"
                             "thread T { int r = a.get(); }\n");
    ck_assert_str_eq(line,
                     "t.litmus:3:20: error: method 'get' of AtomicIntegerArray expects 1 argument, found 0");
    g_free(line);
    line = first_error("Java t\n"
                       "AtomicInteger c = new AtomicInteger();\n"
                       "thread T { c.set(true); }\n");
    ck_assert_str_eq(line, "t.litmus:3:18: error: argument 1 of method 'set' of AtomicInteger: "
                           "incompatible types: boolean cannot be converted to int");
    g_free(line);
    /* length() belongs to AtomicIntegerArray only */
    line = first_error("Java t\n"
                       "AtomicInteger c = new AtomicInteger();\n"
                       "thread T { int n = c.length(); }\n");
    ck_assert_str_eq(line, "t.litmus:3:20: error: AtomicInteger has no method 'length'");
    g_free(line);
    line = first_error("Java t\n"
                       "AtomicIntegerArray a = new AtomicIntegerArray();\n"
                       "thread T { }\n");
    ck_assert_str_eq(line,
                     "t.litmus:2:24: error: constructor 'AtomicIntegerArray' expects 1 argument, found 0");
    g_free(line);
}
END_TEST

START_TEST(builtin_names_are_reserved)
{
    char *line = first_error("Java t\n"
                             "class AtomicInteger { int v; }\n"
                             "thread T { }\n");
    ck_assert_str_eq(line, "t.litmus:2:7: error: 'AtomicInteger' is the name of a built-in class");
    g_free(line);
}
END_TEST

/* ---- compiled code ---------------------------------------------------- */

START_TEST(calls_compile_to_one_visible_step)
{
    /* incrementAndGet is the atomic GETADD of 1 plus a local IADD; a CAS on
       an array element carries no field. */
    GError *err = NULL;
    Ast *ast = lang_load_string("t.litmus",
                                "Java t\n"
                                "final AtomicInteger c = new AtomicInteger(3);\n"
                                "final AtomicIntegerArray a = new AtomicIntegerArray(2);\n"
                                "thread T {\n"
                                "  int r = c.incrementAndGet();\n"
                                "  boolean s = a.compareAndSet(1, 0, r);\n"
                                "}\n",
                                &err);
    ck_assert_msg(ast != NULL, "%s", err ? err->message : "");
    Program *prog = compile_program(ast);
    char *code = program_disassemble(prog, prog->threads[0].method);
    ck_assert_msg(strstr(code, "CONST 1\n") && strstr(code, "GETADD AtomicInteger.value\n")
                  && strstr(code, "IADD\n") && strstr(code, "CAS\n"), "%s", code);
    g_free(code);
    char *init = program_disassemble(prog, prog->init_method);
    ck_assert_msg(strstr(init, "NEW AtomicInteger\n") && strstr(init, "PUTF AtomicInteger.value\n")
                  && strstr(init, "NEWARRAY AtomicIntegerArray\n"), "%s", init);
    g_free(init);
    program_free(prog);
    ast_free(ast);
}
END_TEST

/* ---- executions ------------------------------------------------------- */

START_TEST(get_and_increment_never_loses_an_update)
{
    /* Each getAndIncrement reads and writes c in one step, so the second
       one reads the first one's write: c ends at 2 and the two results are
       0 and 1 (r1 + r2 == 1). The plain n++ is a read and a write, and
       both reads may see 0 (under sc by interleaving; under jmm also by
       seeing a write not ordered before it): n may end at 1. */
    const char *text = "Java inc\n"
                       "final AtomicInteger c = new AtomicInteger();\n"
                       "int n = 0;\n"
                       "thread T1 { int r1 = c.getAndIncrement(); n++; }\n"
                       "thread T2 { int r2 = c.getAndIncrement(); n++; }\n"
                       "locations [c; n; T1:r1; T2:r2]\n";
    for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
        Run run = run_program(models[m], NULL, text);
        const Result *r = run.r;
        ck_assert_uint_gt(r->states->len, 0);
        bool lost = false;
        for (guint i = 0; i < r->states->len; i++) {
            const int64_t *v = state_at(r, i);
            ck_assert_msg(v[0] == 2, "%s: c == %" G_GINT64_FORMAT, models[m], v[0]);
            ck_assert_int_eq(v[2] + v[3], 1);
            lost |= v[1] == 1;
        }
        ck_assert_msg(lost, "%s: n never ends at 1", models[m]);
        ck_assert_uint_eq(r->violations->len, 0);
        run_free(&run);
    }
}
END_TEST

START_TEST(compare_and_set_succeeds_once)
{
    /* Both CASes expect 0; whichever runs first succeeds and writes its
       value, the other then reads that value and fails. Exactly two
       states, (s1, s2, c) = (true, false, 1) and (false, true, 2). */
    const char *text = "Java cas\n"
                       "final AtomicInteger c = new AtomicInteger();\n"
                       "thread T1 { boolean s1 = c.compareAndSet(0, 1); }\n"
                       "thread T2 { boolean s2 = c.compareAndSet(0, 2); }\n"
                       "locations [T1:s1; T2:s2; c]\n";
    for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
        Run run = run_program(models[m], NULL, text);
        ck_assert_uint_eq(run.r->states->len, 2);
        ck_assert(has_state(run.r, 3, (int64_t[]){1, 0, 1}));
        ck_assert(has_state(run.r, 3, (int64_t[]){0, 1, 2}));
        run_free(&run);
    }
}
END_TEST

START_TEST(array_elements_are_atomic)
{
    /* a[0] is incremented once by each thread, atomically: it ends at 2.
       T1 first: i1 = 1 (the new value), then g2 = 1 (the old one); T2
       first: g2 = 0, then i1 = 2. Either way i1 + g2 == 2. T2's get of
       a[2] comes before or after T1's set: h is 0 or 5, both happen.
       length() is 3; a[1] is never written: 0. */
    const char *text = "Java arr\n"
                       "final AtomicIntegerArray a = new AtomicIntegerArray(3);\n"
                       "thread T1 { int i1 = a.incrementAndGet(0); a.set(2, 5); }\n"
                       "thread T2 {\n"
                       "  int g2 = a.getAndIncrement(0); int n = a.length(); int h = a.get(2);\n"
                       "}\n"
                       "locations [a[0]; a[1]; T1:i1; T2:g2; T2:n; T2:h]\n";
    for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
        Run run = run_program(models[m], NULL, text);
        const Result *r = run.r;
        bool saw_five = false, saw_zero = false;
        for (guint i = 0; i < r->states->len; i++) {
            const int64_t *v = state_at(r, i);
            ck_assert_int_eq(v[0], 2);
            ck_assert_int_eq(v[1], 0);
            ck_assert_int_eq(v[2] + v[3], 2);
            ck_assert_int_eq(v[4], 3);
            ck_assert(v[5] == 0 || v[5] == 5);
            saw_five |= v[5] == 5;
            saw_zero |= v[5] == 0;
        }
        ck_assert_msg(saw_five && saw_zero, "%s", models[m]);
        run_free(&run);
    }
}
END_TEST

/* MP under jmm with the flag in flag_decl, written by flag_set and read
   by flag_get: whether P1 can see the flag and then stale data. */
static bool mp_stale_read(const char *model, const char *flag_decl, const char *flag_set,
                          const char *flag_get)
{
    char *text = g_strdup_printf("Java MP\n"
                                 "int x = 0;\n"
                                 "%s\n"
                                 "thread P0 { x = 1; %s; }\n"
                                 "thread P1 { int r0 = %s; int r1 = x; }\n"
                                 "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                                 flag_decl, flag_set, flag_get);
    Run run = run_program(model, NULL, text);
    bool stale = has_state(run.r, 2, (int64_t[]){1, 0});
    run_free(&run);
    g_free(text);
    return stale;
}

START_TEST(atomic_flag_passes_messages)
{
    /* With a plain int flag, the JMM lets r0 = 1 come with r1 = 0 (nothing
       orders x = 1 before r1 = x), and so does pso (the flag's buffer may
       drain first). An AtomicInteger's set and get, or an
       AtomicIntegerArray element's, are a volatile write and read: when
       the get sees the set, x = 1 happens-before r1 = x and hides x = 0,
       and under pso the set drains the x buffer first. Stale read
       forbidden. */
    const char *const relaxed[] = {"pso", "jmm"};
    for (size_t m = 0; m < G_N_ELEMENTS(relaxed); m++) {
        const char *model = relaxed[m];
        ck_assert(mp_stale_read(model, "int flag = 0;", "flag = 1", "flag"));
        ck_assert(!mp_stale_read(model, "final AtomicInteger flag = new AtomicInteger();",
                                 "flag.set(1)", "flag.get()"));
        ck_assert(!mp_stale_read(model, "final AtomicIntegerArray flag = new AtomicIntegerArray(2);",
                                 "flag.set(1, 1)", "flag.get(1)"));
    }
}
END_TEST

/* SB under model with step between each thread's write and its read:
   whether both reads can miss the other thread's write. */
static bool sb_both_stale(const char *model, const char *step)
{
    char *text = g_strdup_printf("Java SB\n"
                                 "int x = 0, y = 0;\n"
                                 "final AtomicInteger f = new AtomicInteger();\n"
                                 "thread P0 { x = 1; %s; int r0 = y; }\n"
                                 "thread P1 { y = 1; %s; int r1 = x; }\n"
                                 "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
                                 step, step);
    Run run = run_program(model, NULL, text);
    bool stale = has_state(run.r, 2, (int64_t[]){0, 0});
    run_free(&run);
    g_free(text);
    return stale;
}

START_TEST(atomic_step_is_a_fence)
{
    /* Under tso and pso a volatile read is no fence: x = 1 and y = 1 may
       both sit in their buffers while the reads see 0. getAndIncrement
       and compareAndSet (even a failing one, expecting 7) drain the
       thread's buffers before reading, so x = 1 is in memory before
       r0 = y and y = 1 before r1 = x: one read sees 1. */
    const char *const buffered[] = {"tso", "pso"};
    for (size_t m = 0; m < G_N_ELEMENTS(buffered); m++) {
        ck_assert(sb_both_stale(buffered[m], "int g = f.get()"));
        ck_assert(!sb_both_stale(buffered[m], "int g = f.getAndIncrement()"));
        ck_assert(!sb_both_stale(buffered[m], "boolean s = f.compareAndSet(7, 8)"));
    }
}
END_TEST

START_TEST(atomics_are_ordinary_references)
{
    /* A field holding an AtomicInteger, a parameter, a local, null
       comparisons and a monitor: T1 bumps h.count twice through bump(),
       T2 once under synchronized; all three increments are atomic, so
       h.count ends at 3. */
    Run run = run_program("jmm", NULL,
                        "Java refs\n"
                        "class Holder {\n"
                        "  final AtomicInteger count;\n"
                        "  Holder() { count = new AtomicInteger(); }\n"
                        "}\n"
                        "int bump(AtomicInteger a) { return a.incrementAndGet(); }\n"
                        "final Holder h = new Holder();\n"
                        "thread T1 { AtomicInteger mine = h.count; bump(mine); bump(mine); }\n"
                        "thread T2 { AtomicInteger c = h.count; boolean none = c == null;\n"
                        "  synchronized (c) { c.getAndIncrement(); } }\n"
                        "forall (h.count == 3 /\\ T2:none == false)\n");
    ck_assert_uint_eq(run.r->states->len, 1);
    ck_assert_uint_eq(run.r->negative, 0);
    run_free(&run);
}
END_TEST

START_TEST(null_and_bad_index_throw)
{
    /* CAS on a null AtomicInteger: NullPointerException; getAndIncrement
       of element 2 of a 2-element array: ArrayIndexOutOfBoundsException;
       a negative length: NegativeArraySizeException. */
    Run run = run_program("sc", NULL, "Java exc\n"
                              "AtomicInteger c;\n"
                              "final AtomicIntegerArray a = new AtomicIntegerArray(2);\n"
                              "thread P0 { boolean s = c.compareAndSet(0, 1); }\n"
                              "thread P1 { int r = a.getAndIncrement(2); }\n"
                              "thread P2 { AtomicIntegerArray b = new AtomicIntegerArray(-1); }\n");
    ck_assert_uint_eq(run.r->violations->len, 3);
    bool npe = false, aioobe = false, negative = false;
    for (guint i = 0; i < 3; i++) {
        const Violation *v = violation(run.r, i);
        ck_assert_int_eq(v->kind, VIOL_EXCEPTION);
        npe |= v->line == 4 && strcmp(v->message, "NullPointerException") == 0;
        aioobe |= v->line == 5 && strcmp(v->message, "ArrayIndexOutOfBoundsException") == 0;
        negative |= v->line == 6 && strcmp(v->message, "NegativeArraySizeException") == 0;
    }
    ck_assert(npe && aioobe && negative);
    run_free(&run);
}
END_TEST

static Suite *atomics_suite(void)
{
    Suite *s = suite_create("atomics");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unknown_method_is_reported);
    tcase_add_test(tc, arity_and_argument_types_are_checked);
    tcase_add_test(tc, builtin_names_are_reserved);
    tcase_add_test(tc, calls_compile_to_one_visible_step);
    tcase_add_test(tc, get_and_increment_never_loses_an_update);
    tcase_add_test(tc, compare_and_set_succeeds_once);
    tcase_add_test(tc, array_elements_are_atomic);
    tcase_add_test(tc, atomic_flag_passes_messages);
    tcase_add_test(tc, atomic_step_is_a_fence);
    tcase_add_test(tc, atomics_are_ordinary_references);
    tcase_add_test(tc, null_and_bad_index_throw);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(atomics_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
