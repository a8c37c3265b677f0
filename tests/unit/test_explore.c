/* Unit tests of the explorer (with the sc model), the trail and the
 * visited set. Each expected answer is derived by hand in a comment.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <check.h>
#include <string.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
#include "../../src/explore/visited.h"
#include "testutil.h"

static Run run_model(const char *model, int unroll, const char *text)
{
    ExploreConfig cfg = {.unroll = unroll};
    return run_program(model, &cfg, text);
}

static Run run_sc(const char *text) { return run_program("sc", NULL, text); }

static const Violation *violation(const Result *r, guint i)
{
    ck_assert_uint_gt(r->violations->len, i);
    return g_ptr_array_index(r->violations, i);
}

/* ---- trail and visited set ------------------------------------------- */

START_TEST(trail_undoes_in_reverse)
{
    Trail t = {0};
    int64_t *a = g_new0(int64_t, 4);
    int h = trail_register(&t, &a);
    trail_set(&t, h, 1, 5);
    size_t mark = trail_mark(&t);
    trail_set(&t, h, 1, 7);
    trail_set(&t, h, 2, 9);
    /* A reallocation keeps the trail valid: it holds the array's address. */
    a = g_renew(int64_t, a, 64);
    trail_undo(&t, mark);
    ck_assert_int_eq(a[1], 5);
    ck_assert_int_eq(a[2], 0);
    trail_undo(&t, 0);
    ck_assert_int_eq(a[1], 0);
    g_free(a);
    trail_clear(&t);
}
END_TEST

START_TEST(visited_prunes_only_dominated_budgets)
{
    Visited v;
    visited_init(&v);
    uint8_t key[6] = "state";
    uint32_t entry, off;
    GArray *ctr = g_array_new(FALSE, FALSE, sizeof(int32_t));
    int32_t c = 2;
    g_array_append_val(ctr, c);
    ck_assert(!visited_check_insert(&v, key, 5, ctr, &entry, &off)); /* new */
    g_array_index(ctr, int32_t, 0) = 3;
    ck_assert(visited_check_insert(&v, key, 5, ctr, &entry, &off));  /* 2 <= 3: less budget now, prune */
    g_array_index(ctr, int32_t, 0) = 1;
    ck_assert(!visited_check_insert(&v, key, 5, ctr, &entry, &off)); /* 2 > 1: more budget now, explore */
    ck_assert(visited_check_insert(&v, key, 5, ctr, &entry, &off));  /* recorded with 1 */
    key[4] = '!';
    ck_assert(!visited_check_insert(&v, key, 5, ctr, &entry, &off)); /* a different key */
    ck_assert_uint_eq(visited_count(&v), 2);
    g_array_free(ctr, TRUE);
    visited_free(&v);
}
END_TEST

/* ---- sc exploration ---------------------------------------------------- */

START_TEST(sb_has_three_sc_states)
{
    /* Under SC one of the two writes comes first, so the other thread's
       read sees 1: (0,1), (1,0), (1,1) are reachable and (0,0) is not. */
    Run run = run_sc("Java SB\n"
                     "int x = 0, y = 0;\n"
                     "thread P0 { x = 1; int r0 = y; }\n"
                     "thread P1 { y = 1; int r1 = x; }\n"
                     "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n");
    const Result *r = run.r;
    ck_assert_uint_eq(r->states->len, 3);
    ck_assert(has_state(r, 2, (int64_t[]){0, 1}));
    ck_assert(has_state(r, 2, (int64_t[]){1, 0}));
    ck_assert(has_state(r, 2, (int64_t[]){1, 1}));
    ck_assert_uint_eq(r->positive, 0);
    ck_assert(!result_validated(r));
    ck_assert(result_complete(r));
    ck_assert_int_eq(result_exit_status(r), 1);
    run_free(&run);
}
END_TEST

START_TEST(spin_loop_converges_without_cuts)
{
    /* P1 spins until P0 sets the flag. Each spin returns to a state seen
       before (same pc, locals and memory; only the loop counter grew), so
       state matching ends the spin and no path is cut, even at unroll 1.
       The only final state: P1 saw the flag and then x = 1. */
    Run run = run_model("sc", 1,
                        "Java spin\n"
                        "int x = 0, flag = 0;\n"
                        "thread P0 { x = 1; flag = 1; }\n"
                        "thread P1 { while (flag == 0) { } int r1 = x; }\n"
                        "exists (P1:r1 == 0)\n");
    ck_assert(result_complete(run.r));
    ck_assert_uint_eq(run.r->total.cut_unroll, 0);
    ck_assert_uint_eq(run.r->states->len, 1);
    ck_assert(has_state(run.r, 1, (int64_t[]){1}));
    run_free(&run);
}
END_TEST

START_TEST(unroll_bound_cuts_growing_loop)
{
    /* The local i grows every round, so no state repeats: with --unroll 3
       the body runs 3 times and the 4th attempt cuts the only path. */
    Run run = run_model("sc", 3,
                        "Java grow\n"
                        "thread P0 { int i = 0; while (true) { i = i + 1; } }\n");
    ck_assert_uint_eq(run.r->total.cut_unroll, 1);
    ck_assert(!result_complete(run.r));
    ck_assert_uint_eq(run.r->states->len, 0);
    ck_assert_int_eq(result_exit_status(run.r), 3);
    run_free(&run);
}
END_TEST

START_TEST(loop_within_bound_is_complete)
{
    /* The body runs exactly 3 times; at --unroll 3 nothing is cut. */
    Run run = run_model("sc", 3,
                        "Java count\n"
                        "thread P0 { int i = 0; while (i < 3) { i = i + 1; } }\n");
    ck_assert(result_complete(run.r));
    ck_assert(has_state(run.r, 1, (int64_t[]){3}));
    run_free(&run);
}
END_TEST

START_TEST(lock_order_inversion_deadlocks)
{
    /* P0 holds a and wants b; P1 holds b and wants a: when both take their
       first lock before either takes its second, no thread can move. Other
       interleavings end normally with both registers 1. */
    Run run = run_sc("Java deadlock\n"
                     "class L {}\n"
                     "L a = new L(); L b = new L();\n"
                     "thread P0 { int r0 = 0; synchronized (a) { synchronized (b) { r0 = 1; } } }\n"
                     "thread P1 { int r1 = 0; synchronized (b) { synchronized (a) { r1 = 1; } } }\n");
    ck_assert_uint_eq(run.r->violations->len, 1);
    const Violation *v = violation(run.r, 0);
    ck_assert_int_eq(v->kind, VIOL_DEADLOCK);
    ck_assert(has_state(run.r, 2, (int64_t[]){1, 1}));
    ck_assert_int_eq(result_exit_status(run.r), 1);
    run_free(&run);
}
END_TEST

START_TEST(failed_assert_has_trace)
{
    /* P1 asserts that it sees P0's write; reading before it fails. The
       trace ends with P1's read of the default value and the failure. */
    Run run = run_sc("Java race\n"
                     "int x;\n"
                     "thread P0 { x = 1; }\n"
                     "thread P1 { int r = x; assert r == 1 : \"x not yet written\"; }\n");
    ck_assert_uint_eq(run.r->violations->len, 1);
    const Violation *v = violation(run.r, 0);
    ck_assert_int_eq(v->kind, VIOL_ASSERT);
    ck_assert_int_eq(v->tid, 2);
    ck_assert_int_eq(v->line, 4);
    ck_assert_str_eq(v->message, "assertion failed: x not yet written");
    ck_assert_uint_ge(v->trace_len, 2);
    const Event *last = &v->trace[v->trace_len - 1];
    const Event *read = &v->trace[v->trace_len - 2];
    ck_assert_int_eq(last->kind, EV_ASSERT);
    ck_assert_int_eq(read->kind, EV_READ);
    ck_assert_int_eq(read->value, 0);
    ck_assert_int_eq(read->rf, RF_INIT);
    /* The asserting thread dies; the execution still ends with r = 0 or 1. */
    ck_assert(has_state(run.r, 1, (int64_t[]){0}));
    ck_assert(has_state(run.r, 1, (int64_t[]){1}));
    run_free(&run);
}
END_TEST

START_TEST(read_reports_the_write_it_saw)
{
    /* One thread: the read of x must name the write event just before it. */
    Run run = run_sc("Java rf\n"
                     "int x;\n"
                     "thread P0 { x = 5; int r = x; assert r != 5; }\n");
    const Violation *v = violation(run.r, 0);
    ck_assert_uint_ge(v->trace_len, 3);
    const Event *read = &v->trace[v->trace_len - 2];
    ck_assert_int_eq(read->kind, EV_READ);
    ck_assert_int_eq(read->value, 5);
    ck_assert_int_ge(read->rf, 0);
    ck_assert_int_eq(v->trace[read->rf].kind, EV_WRITE);
    ck_assert_int_eq(v->trace[read->rf].value, 5);
    run_free(&run);
}
END_TEST

START_TEST(runtime_exceptions_are_violations)
{
    /* A field read through null, an index past the end, and a division by
       zero: three exceptions in three threads, each on its own line. */
    Run run = run_sc("Java exc\n"
                     "class C { int f; }\n"
                     "C c; int[] a = new int[2]; int z;\n"
                     "thread P0 { int r = c.f; }\n"
                     "thread P1 { int r = a[2]; }\n"
                     "thread P2 { int r = 1 / z; }\n");
    ck_assert_uint_eq(run.r->violations->len, 3);
    bool npe = false, aioobe = false, arith = false;
    for (guint i = 0; i < 3; i++) {
        const Violation *v = violation(run.r, i);
        ck_assert_int_eq(v->kind, VIOL_EXCEPTION);
        npe |= v->line == 4 && strcmp(v->message, "NullPointerException") == 0;
        aioobe |= v->line == 5 && strcmp(v->message, "ArrayIndexOutOfBoundsException") == 0;
        arith |= v->line == 6 && strcmp(v->message, "ArithmeticException") == 0;
    }
    ck_assert(npe && aioobe && arith);
    run_free(&run);
}
END_TEST

START_TEST(int_arithmetic_wraps)
{
    /* Java int: MAX + 1 wraps to MIN; MIN / -1 is MIN; long does not wrap
       at 32 bits; -7 % 3 is -1 (the sign of the dividend). */
    Run run = run_sc("Java wrap\n"
                     "thread P0 { int a = 2147483647 + 1; int b = (-2147483647 - 1) / -1;\n"
                     "  long c = 2147483647L + 1; int d = -7 % 3; int e = 1 << 33; }\n");
    ck_assert(has_state(run.r, 5, (int64_t[]){INT32_MIN, INT32_MIN, 2147483648LL, -1, 2}));
    run_free(&run);
}
END_TEST

START_TEST(join_orders_writes)
{
    /* P1 joins P0 before reading, so it always sees x = 1. */
    Run run = run_sc("Java join\n"
                     "int x;\n"
                     "thread P0 { x = 1; }\n"
                     "thread P1 { join P0; int r = x; }\n");
    ck_assert_uint_eq(run.r->states->len, 1);
    ck_assert(has_state(run.r, 1, (int64_t[]){1}));
    run_free(&run);
}
END_TEST

START_TEST(assume_discards_paths)
{
    /* Paths where P1 reads 0 are discarded: only r = 1 remains, and
       discarded paths are not cuts, so the result is complete. */
    Run run = run_sc("Java assume\n"
                     "int x;\n"
                     "thread P0 { x = 1; }\n"
                     "thread P1 { int r = x; assume r == 1; }\n");
    ck_assert_uint_eq(run.r->states->len, 1);
    ck_assert(has_state(run.r, 1, (int64_t[]){1}));
    ck_assert_uint_ge(run.r->total.discarded, 1);
    ck_assert(result_complete(run.r));
    run_free(&run);
}
END_TEST

START_TEST(synchronized_methods_exclude_each_other)
{
    /* inc() reads then writes n inside the monitor of c, so the two
       increments never interleave: n ends at 2 on every path. A re-entrant
       call (inc2 calls inc with the monitor held) must not block. */
    Run run = run_sc("Java counter\n"
                     "class C { int n; synchronized void inc() { n = n + 1; }\n"
                     "  synchronized void inc2() { inc(); } }\n"
                     "C c = new C();\n"
                     "thread P0 { c.inc(); }\n"
                     "thread P1 { c.inc2(); }\n"
                     "locations [c.n]\n");
    ck_assert_uint_eq(run.r->violations->len, 0);
    ck_assert_uint_eq(run.r->states->len, 1);
    ck_assert(has_state(run.r, 1, (int64_t[]){2}));
    run_free(&run);
}
END_TEST

START_TEST(unsynchronized_increments_lose_updates)
{
    /* Without the monitor both threads may read 0 before either writes:
       the final n is 1 or 2. */
    Run run = run_sc("Java lost\n"
                     "int n;\n"
                     "thread P0 { n++; }\n"
                     "thread P1 { n++; }\n"
                     "locations [n]\n");
    ck_assert_uint_eq(run.r->states->len, 2);
    ck_assert(has_state(run.r, 1, (int64_t[]){1}));
    ck_assert(has_state(run.r, 1, (int64_t[]){2}));
    run_free(&run);
}
END_TEST

START_TEST(condition_steps_through_a_register)
{
    /* T1:p.f follows the register p to the field f of the object it holds
       when T1 ends: 7, so the exists holds. */
    Run run = run_sc("Java regstep\n"
                     "class P { int f; P(int v) { f = v; } }\n"
                     "thread T1 { P p = new P(7); }\n"
                     "exists (T1:p.f == 7)\n");
    ck_assert(has_state(run.r, 1, (int64_t[]){7}));
    ck_assert(result_validated(run.r));
    run_free(&run);
}
END_TEST

START_TEST(settled_globals_need_no_interleaving)
{
    /* g is written only by its initialiser, f is final: after the
       initialiser runs neither can change, so reading them is thread-local
       work. The initial thread's two writes are steps of their own, and in
       the step of the second one both threads run to their end: three
       states (the start, after g = 5, after f = 7), one final state. (With
       the reads as interleaving points, P0 alone would add two more.) A
       global that a thread writes (x here) is read visibly as usual. */
    Run run = run_sc("Java settled\n"
                     "int g = 5; final int f = 7;\n"
                     "thread P0 { int a = g; int b = f; }\n"
                     "thread P1 { int c = g + f; }\n");
    ck_assert_uint_eq(run.r->total.states_visited, 3);
    ck_assert(has_state(run.r, 3, (int64_t[]){5, 7, 12}));
    run_free(&run);
    run = run_sc("Java unsettled\n"
                 "int x = 5;\n"
                 "thread P0 { int a = x; }\n"
                 "thread P1 { x = 6; }\n");
    ck_assert_uint_eq(run.r->states->len, 2); /* a = 5 or 6 */
    run_free(&run);
}
END_TEST

START_TEST(steps_through_null_are_undefined)
{
    /* a has 2 elements, so a[5] does not exist; p stays null, so p.f does
       not either. Such a location is undefined: no comparison holds, so
       the exists fails, and a[1] (which exists) reads 0. */
    Run run = run_sc("Java und\nint[] a = new int[2];\nclass P { int f; }\nP p;\n"
                     "thread T { }\n"
                     "locations [a[1]]\n"
                     "exists (a[5] == 0 \\/ p.f == 0 \\/ p.f != 0)\n");
    ck_assert(has_state(run.r, 3, (int64_t[]){VALUE_UNDEFINED, VALUE_UNDEFINED, 0}));
    ck_assert(!result_validated(run.r));
    run_free(&run);
}
END_TEST

static Suite *explore_suite(void)
{
    Suite *s = suite_create("explore");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, trail_undoes_in_reverse);
    tcase_add_test(tc, visited_prunes_only_dominated_budgets);
    tcase_add_test(tc, sb_has_three_sc_states);
    tcase_add_test(tc, spin_loop_converges_without_cuts);
    tcase_add_test(tc, unroll_bound_cuts_growing_loop);
    tcase_add_test(tc, loop_within_bound_is_complete);
    tcase_add_test(tc, lock_order_inversion_deadlocks);
    tcase_add_test(tc, failed_assert_has_trace);
    tcase_add_test(tc, read_reports_the_write_it_saw);
    tcase_add_test(tc, runtime_exceptions_are_violations);
    tcase_add_test(tc, int_arithmetic_wraps);
    tcase_add_test(tc, join_orders_writes);
    tcase_add_test(tc, assume_discards_paths);
    tcase_add_test(tc, synchronized_methods_exclude_each_other);
    tcase_add_test(tc, unsynchronized_increments_lose_updates);
    tcase_add_test(tc, condition_steps_through_a_register);
    tcase_add_test(tc, settled_globals_need_no_interleaving);
    tcase_add_test(tc, steps_through_null_are_undefined);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(explore_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
