/* Unit tests of race detection, classification and advice. Each expected
 * answer is argued in a comment.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <check.h>
#include <string.h>

#include "pathrelax/lang.h"
#include "pathrelax/races.h"
#include "testutil.h"

/* The program under jmm with the race analysis, as --races gives it. */
static Run analyse(const char *text, const ExploreConfig *cfg)
{
    ExploreConfig defaults = {.unroll = 8};
    if (!cfg)
        cfg = &defaults;
    Run run = run_program("jmm", cfg, text);
    races_analyse(run.prog, cfg, run.r);
    return run;
}

static const Race *race_on(const Result *r, const char *loc, int source_line, int manifest_line)
{
    for (guint i = 0; i < r->races->len; i++) {
        const Race *race = g_ptr_array_index(r->races, i);
        if (strcmp(race->loc_name, loc) == 0 && race->source.line == source_line &&
            race->manifest.line == manifest_line)
            return race;
    }
    ck_abort_msg("no race on %s between lines %d and %d", loc, source_line, manifest_line);
    return NULL;
}

static const Advice *advice(const Race *race, const char *text)
{
    for (guint i = 0; i < race->advice->len; i++) {
        const Advice *a = g_ptr_array_index(race->advice, i);
        if (strcmp(a->text, text) == 0)
            return a;
    }
    ck_abort_msg("no advice '%s'", text);
    return NULL;
}

/* Publication through a plain flag: P0 writes data then flag; P1 reads
   flag and, if set, asserts it sees data. Line numbers: data = 42 and
   flag = true are on line 3, P1's reads on lines 5 and 6. */
static const char *publish = "Java publish\n"
                             "int data; boolean flag;\n"
                             "thread P0 { data = 42; flag = true; }\n"
                             "thread P1 {\n"
                             "  boolean f = flag;\n"
                             "  if (f) { int d = data; assert d == 42; }\n"
                             "}\n";

START_TEST(data_race_free_through_volatile)
{
    /* The flag is volatile: its write happens-before the read that sees
       it, and data is read only after that read saw true. If the read saw
       false, data is not read. So the data accesses are always ordered,
       and the program is data-race free. */
    Run run = analyse("Java vpublish\n"
                      "int data; volatile boolean flag;\n"
                      "thread P0 { data = 42; flag = true; }\n"
                      "thread P1 { boolean f = flag; if (f) { int d = data; assert d == 42; } }\n",
                      NULL);
    ck_assert(run.r->races_checked);
    ck_assert_uint_eq(run.r->races->len, 0);
    ck_assert(run.r->drf_shortcut); /* so jmm answered from sc */
    run_free(&run);
}
END_TEST

START_TEST(data_race_free_through_lock)
{
    /* Every access to x is inside synchronized (l): unlock happens-before
       the next lock of l, so no two accesses are unordered. */
    Run run = analyse("Java locked\nclass L {}\nint x; L l = new L();\n"
                      "thread P0 { synchronized (l) { x = 1; } }\n"
                      "thread P1 { int r = 0; synchronized (l) { r = x; } }\n",
                      NULL);
    ck_assert_uint_eq(run.r->races->len, 0);
    run_free(&run);
}
END_TEST

START_TEST(publication_is_destructive_and_flag_volatile_fixes_it)
{
    /* Races: flag (write line 3, read line 5) and data (write line 3,
       read line 6). Under jmm P1 may see flag = true and still data = 0
       (no happens-before), so its assert fails; no sc execution fails it.
       On that execution the read of data saw the default although sc
       gives 42 after flag = true, so the data race is destructive; the
       read of flag can also be relaxed there (a read of the future
       flag = true), so the flag race is destructive too.
       Advice: making flag volatile orders data = 42 before the read of
       data whenever flag reads true: both races and the failure go
       (verified). Making data volatile alone removes the data race but
       not the failure: flag can still be seen early, and then the volatile
       read of data comes before the volatile write in synchronisation
       order and sees 0 (not enough). */
    Run run = analyse(publish, NULL);
    ck_assert_uint_eq(run.r->races->len, 2);
    const Race *on_flag = race_on(run.r, "flag", 3, 5);
    const Race *on_data = race_on(run.r, "data", 3, 6);
    ck_assert_int_eq(on_flag->cls, RACE_DESTRUCTIVE);
    ck_assert_int_eq(on_data->cls, RACE_DESTRUCTIVE);
    ck_assert(on_flag->source.is_write && !on_flag->manifest.is_write);
    const Advice *a = advice(on_flag, "make flag volatile");
    ck_assert(a->verified);
    ck_assert_str_eq(a->change, "--volatile flag");
    ck_assert_str_eq(a->reason, "verified: removes the race and the violation");
    a = advice(on_data, "make data volatile");
    ck_assert(!a->verified);
    ck_assert(g_str_has_prefix(a->reason, "not enough: the failure remains"));
    /* "make another location volatile": for the data race, flag. */
    ck_assert(advice(on_data, "make flag volatile")->verified);
    /* The witness trace ends at the second access of the pair. */
    ck_assert_int_eq(on_flag->trace[on_flag->trace_len - 1].kind, EV_READ);
    run_free(&run);
}
END_TEST

START_TEST(benign_race_same_value)
{
    /* Both threads write 1 to x, and P2 asserts x is 0 or 1. The writes
       race with each other and with the read, but every write is 1 and the
       default 0: no value the read can see breaks the assert, under jmm
       as under sc. Benign, and no advice. */
    Run run = analyse("Java same\nint x;\n"
                      "thread P0 { x = 1; }\n"
                      "thread P1 { x = 1; }\n"
                      "thread P2 { int r = x; assert r == 0 || r == 1; }\n",
                      NULL);
    ck_assert_uint_eq(run.r->races->len, 3); /* W3-W4, W3-R5, W4-R5 */
    for (guint i = 0; i < run.r->races->len; i++) {
        const Race *race = g_ptr_array_index(run.r->races, i);
        ck_assert_int_eq(race->cls, RACE_BENIGN);
        ck_assert_uint_eq(race->advice->len, 0);
    }
    run_free(&run);
}
END_TEST

START_TEST(condition_failure_counts_as_destructive)
{
    /* No assert, but a final condition: ~exists (P1:r == 1 /\ P1:s == 0).
       Under sc, r = 1 means P0 wrote x after y... P0 writes y then x; if
       P1 sees x = 1, y = 1 was written before: r == 1 implies s == 1, and
       the condition holds. Under jmm P1 may see x = 1 and a stale y = 0:
       the condition fails only under jmm, on an execution where y (and x)
       was read other than as sc: both races are destructive. */
    Run run = analyse("Java cond\nint x, y;\n"
                      "thread P0 { y = 1; x = 1; }\n"
                      "thread P1 { int r = x; int s = y; }\n"
                      "~exists (P1:r == 1 /\\ P1:s == 0)\n",
                      NULL);
    ck_assert_int_eq(race_on(run.r, "y", 3, 4)->cls, RACE_DESTRUCTIVE);
    run_free(&run);
}
END_TEST

START_TEST(cut_search_is_undecided)
{
    /* P0 increments a racy counter forever: every state is new, so
       --unroll 2 cuts the jmm search. No failure is seen, but the search
       is incomplete: the race on n is undecided, not benign. */
    ExploreConfig cfg = {.unroll = 2};
    Run run = analyse("Java spin\nint n;\n"
                      "thread P0 { while (true) { n = n + 1; } }\n"
                      "thread P1 { int r = n; }\n",
                      &cfg);
    ck_assert_uint_ge(run.r->races->len, 1);
    for (guint i = 0; i < run.r->races->len; i++)
        ck_assert_int_eq(((const Race *)g_ptr_array_index(run.r->races, i))->cls, RACE_UNDECIDED);
    run_free(&run);
}
END_TEST

START_TEST(array_race_gets_atomic_array_advice)
{
    /* Publication through an array element: a[0] is the data, a[1] the
       flag, both plain. As for publish, the failure is jmm-only and the
       race on a[] is destructive. The advice for array elements is an
       atomic array (elements volatile): then a[1] = 1 orders a[0] = 42
       before the read of a[0] that follows reading 1; verified. */
    Run run = analyse("Java arr\nint[] a = new int[2];\n"
                      "thread P0 { a[0] = 42; a[1] = 1; }\n"
                      "thread P1 { int f = a[1]; if (f == 1) { int d = a[0]; assert d == 42; } }\n",
                      NULL);
    const Race *race = race_on(run.r, "a[]", 3, 4);
    ck_assert_int_eq(race->cls, RACE_DESTRUCTIVE);
    const Advice *a = advice(race, "use an atomic array (AtomicIntegerArray) for a");
    ck_assert(a->verified);
    ck_assert_str_eq(a->change, "--volatile a[]");
    run_free(&run);
}
END_TEST

START_TEST(lock_advice_wraps_the_bare_access)
{
    /* P0 writes x = 1 and then x = 2, each inside synchronized (l); P1's
       method twice() reads x twice with no lock (line 4). Under sc x only
       grows, so b >= a and P1's assert holds. Under jmm the first read may
       take the later write 2 (nothing orders it) and the second the
       earlier 1: d = -1, a failure only jmm shows, through relaxed reads
       of x: destructive. The write holds l and the reads do not, so the
       advice puts the reads in synchronized (l) (named through the global
       l, as twice() is no method of L). The rewrite wraps the declaration
       and the rest of its block: then the reads are ordered with both
       writes, the race is gone, and jmm adds no failure: verified. */
    Run run = analyse("Java twice\nclass L {}\nint x; L l = new L();\n"
                      "int twice() { int a = x; int b = x; return b - a; }\n"
                      "thread P0 { synchronized (l) { x = 1; } synchronized (l) { x = 2; } }\n"
                      "thread P1 { int d = twice(); assert d >= 0; }\n",
                      NULL);
    const Race *race = NULL;
    for (guint i = 0; i < run.r->races->len && !race; i++) {
        const Race *r = g_ptr_array_index(run.r->races, i);
        if (r->manifest.line == 4)
            race = r;
    }
    ck_assert(race != NULL);
    ck_assert_int_eq(race->cls, RACE_DESTRUCTIVE);
    ck_assert(race->source.lock != 0 && race->manifest.lock == 0);
    const Advice *a = advice(race, "put the read at line 4 in synchronized (l), as the write at line 5 is");
    ck_assert(a->verified);
    ck_assert_str_eq(a->change, "synchronized (l) { ... } around line 4");
    run_free(&run);
}
END_TEST

START_TEST(acquire_advice_joins_the_writer)
{
    /* T1: x = 1; flag = true (plain). T2 reads flag and, if set, x (line
       6), asserting 1. Under jmm T2 may see flag set and x stale: a
       failure only jmm shows, so the race on x is destructive. T3 reads x
       race-free because it joined T1 first: join T1 is in x's acquiring
       history, so the advice is to perform the same acquire in T2 before
       line 6 (T1 has then ended, so its write happens-before the read):
       verified. No volatile global is read, so no volatile read is
       offered. */
    Run run = analyse("Java acq\nint x; boolean flag;\n"
                      "thread T1 { x = 1; flag = true; }\n"
                      "thread T2 {\n"
                      "  boolean f = flag;\n"
                      "  if (f) { int s = x;\n"
                      "           assert s == 1; }\n"
                      "}\n"
                      "thread T3 { join T1; int y = x; }\n",
                      NULL);
    const Race *race = race_on(run.r, "x", 3, 6);
    ck_assert_int_eq(race->cls, RACE_DESTRUCTIVE);
    const Advice *a = advice(race, "join T1 before the read at line 6");
    ck_assert(a->verified);
    ck_assert_str_eq(a->change, "'join T1;' before line 6");
    run_free(&run);
}
END_TEST

START_TEST(volatile_option_removes_race)
{
    /* --volatile flag, --volatile data: with both volatile nothing is
       left to race on. */
    const char *both[] = {"flag", "data", NULL};
    ExploreConfig cfg = {.unroll = 8, .make_volatile = both};
    Run run = analyse(publish, &cfg);
    ck_assert_uint_eq(run.r->races->len, 0);
    ck_assert_uint_eq(run.r->violations->len, 0);
    run_free(&run);
}
END_TEST

START_TEST(relax_pins_failure_on_one_location)
{
    /* --relax z: only z, which no assert depends on, reads as under jmm;
       flag and data read as under sc, so publication works and nothing
       fails. --relax data: data may be stale, and the assert fails again. */
    const char *text = "Java pin\nint data, z; boolean flag;\n"
                       "thread P0 { data = 42; z = 1; flag = true; }\n"
                       "thread P1 { int w = z; boolean f = flag; if (f) { int d = data; assert d == 42; } }\n";
    GError *err = NULL;
    Ast *ast = lang_load_string("pin.litmus", text, &err);
    ck_assert(ast);
    Program *prog = compile_program(ast);
    World *world;
    ExploreConfig cfg = {.unroll = 8, .relax = "z"};
    Result *r = explore_program(prog, &model_jmm, &cfg, &world);
    ck_assert_uint_eq(r->violations->len, 0);
    result_free(r);
    world_free(world);
    cfg.relax = "data";
    r = explore_program(prog, &model_jmm, &cfg, &world);
    ck_assert_uint_eq(r->violations->len, 1);
    result_free(r);
    world_free(world);
    program_free(prog);
    ast_free(ast);
}
END_TEST

START_TEST(unknown_location_is_reported)
{
    /* A --volatile name that names nothing leaves world->unresolved set
       (the command line turns it into an error). */
    const char *bad[] = {"nosuch", NULL};
    GError *err = NULL;
    Ast *ast = lang_load_string("u.litmus", publish, &err);
    Program *prog = compile_program(ast);
    World *world;
    ExploreConfig cfg = {.unroll = 8, .make_volatile = bad};
    Result *r = explore_program(prog, &model_sc, &cfg, &world);
    ck_assert_str_eq(world->unresolved, "nosuch");
    result_free(r);
    world_free(world);
    program_free(prog);
    ast_free(ast);
}
END_TEST

static Suite *races_suite(void)
{
    Suite *s = suite_create("races");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, data_race_free_through_volatile);
    tcase_add_test(tc, data_race_free_through_lock);
    tcase_add_test(tc, publication_is_destructive_and_flag_volatile_fixes_it);
    tcase_add_test(tc, benign_race_same_value);
    tcase_add_test(tc, condition_failure_counts_as_destructive);
    tcase_add_test(tc, cut_search_is_undecided);
    tcase_add_test(tc, array_race_gets_atomic_array_advice);
    tcase_add_test(tc, lock_advice_wraps_the_bare_access);
    tcase_add_test(tc, acquire_advice_joins_the_writer);
    tcase_add_test(tc, volatile_option_removes_race);
    tcase_add_test(tc, relax_pins_failure_on_one_location);
    tcase_add_test(tc, unknown_location_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(races_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
