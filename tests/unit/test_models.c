/* Unit tests of the memory models, driven action by action through the
 * model interface on hand-built cases. Each expected answer is derived in
 * a comment.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <check.h>
#include <string.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
#include "testutil.h"

/* A program with globals x, y (plain), v (volatile) and a lock object,
   and threads T1, T2 (tids 1, 2); only its shape matters here. */
static const char *shape = "Java shape\n"
                           "class L {}\n"
                           "int x, y; volatile int v; L l = new L();\n"
                           "thread T1 { }\n"
                           "thread T2 { }\n";

typedef struct {
    Ast *ast;
    Program *prog;
    World *world;
    Trail trail;
    EventLog events;
    const ModelOps *ops;
    Model *m;
    Result *r;
} Bench;

enum { X = 0, Y = 1, V = 2 }; /* locations of the globals, in declaration order */

/* On the heap: the model keeps pointers to the trail and the events. */
static Bench *bench_new(const char *model)
{
    Bench *b = g_new0(Bench, 1);
    GError *err = NULL;
    b->ast = lang_load_string("shape.litmus", shape, &err);
    ck_assert_msg(b->ast != NULL, "%s", err ? err->message : "");
    b->prog = compile_program(b->ast);
    b->world = world_new(b->prog);
    b->ops = model_find(model);
    ModelEnv env = {b->world, &b->trail, &b->events, true, false, NULL};
    b->m = b->ops->create(&env);
    b->r = result_new(b->prog, b->world, model, 8);
    b->ops->begin(b->m);
    return b;
}

static void bench_free(Bench *b)
{
    b->ops->destroy(b->m);
    result_free(b->r);
    g_free(b->events.v);
    trail_clear(&b->trail);
    world_free(b->world);
    program_free(b->prog);
    ast_free(b->ast);
    g_free(b);
}

static Event *event(Bench *b, EventKind kind, int tid)
{
    if (b->events.len == b->events.cap) {
        b->events.cap = b->events.cap ? b->events.cap * 2 : 64;
        b->events.v = g_renew(Event, b->events.v, b->events.cap);
    }
    Event *ev = &b->events.v[b->events.len++];
    *ev = (Event){.kind = (uint8_t)kind, .tid = tid, .loc = LOC_NONE, .rf = RF_INIT};
    return ev;
}

static bool do_write(Bench *b, int tid, Loc loc, int64_t value)
{
    Event *ev = event(b, EV_WRITE, tid);
    ev->loc = loc;
    ev->value = value;
    return b->ops->write(b->m, tid, loc, value, ev);
}

static int choices(Bench *b, int tid, Loc loc, ReadChoice *out)
{
    return b->ops->read_choices(b->m, tid, loc, out, 16);
}

/* Performs a read with the choice that gives value; returns its event. */
static Event *read_value(Bench *b, int tid, Loc loc, int64_t value)
{
    ReadChoice c[16];
    int n = choices(b, tid, loc, c);
    for (int i = 0; i < n; i++) {
        if (c[i].value == value) {
            Event *ev = event(b, EV_READ, tid);
            ev->loc = loc;
            b->ops->read(b->m, tid, loc, &c[i], ev);
            return ev;
        }
    }
    ck_abort_msg("no choice gives %lld", (long long)value);
    return NULL;
}

static bool has_value(const ReadChoice *c, int n, int64_t value)
{
    for (int i = 0; i < n; i++)
        if (c[i].value == value)
            return true;
    return false;
}

static void do_sync(Bench *b, int tid, SyncKind kind, int64_t arg)
{
    Event *ev = event(b, EV_LOCK, tid);
    ck_assert(b->ops->sync(b->m, tid, kind, arg, ev));
}

/* Starts the program: the initial thread ends, T1 and T2 start. */
static void start(Bench *b)
{
    do_sync(b, 0, SYNC_END, 0);
    do_sync(b, 1, SYNC_START, 1);
    do_sync(b, 2, SYNC_START, 2);
}

/* Ends the current search and moves the jmm model to its next round. */
static bool next_round(Bench *b)
{
    trail_undo(&b->trail, 0);
    b->events.len = 0;
    b->ops->finish(b->m);
    bool more = b->ops->another_round(b->m, b->r);
    b->ops->begin(b->m);
    return more;
}

/* ---- sc ------------------------------------------------------------------ */

START_TEST(sc_reads_last_write)
{
    /* Under sc the only choice is the last write: 0 first, then 2. */
    Bench *b = bench_new("sc");
    start(b);
    ReadChoice c[16];
    ck_assert_int_eq(choices(b, 2, X, c), 1);
    ck_assert_int_eq(c[0].value, 0);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    ck_assert_int_eq(choices(b, 2, X, c), 1);
    ck_assert_int_eq(c[0].value, 2);
    bench_free(b);
}
END_TEST

/* ---- tso and pso ------------------------------------------------------------ */

START_TEST(tso_buffers_and_forwards)
{
    /* T1 writes x = 1 into its buffer: T1 reads its own newest buffered
       write (1), T2 still reads memory (0). After the flush move, T2 reads
       1 too. */
    Bench *b = bench_new("tso");
    start(b);
    ck_assert(do_write(b, 1, X, 1));
    ReadChoice c[16];
    choices(b, 1, X, c);
    ck_assert_int_eq(c[0].value, 1);
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 0);
    ModelMove mv[8];
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 1);
    ck_assert_int_eq(mv[0].tid, 1);
    Event *flush = event(b, EV_FLUSH, 1);
    b->ops->apply_move(b->m, &mv[0], flush);
    ck_assert_int_eq(flush->loc, X);
    ck_assert_int_eq(flush->value, 1);
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 1);
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 0);
    bench_free(b);
}
END_TEST

START_TEST(tso_buffer_is_fifo)
{
    /* T1 writes x = 1 then x = 2: one buffer, one move, and the first
       flush brings 1 (the oldest) to memory, not 2. */
    Bench *b = bench_new("tso");
    start(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    ModelMove mv[8];
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 1);
    Event *flush = event(b, EV_FLUSH, 1);
    b->ops->apply_move(b->m, &mv[0], flush);
    ck_assert_int_eq(flush->value, 1);
    ReadChoice c[16];
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 1);
    bench_free(b);
}
END_TEST

static void flush(Bench *b, const ModelMove *mv)
{
    Event *ev = event(b, EV_FLUSH, mv->tid);
    b->ops->apply_move(b->m, mv, ev);
}

START_TEST(pso_buffers_per_location)
{
    /* T1 writes x = 1 then y = 1. tso has one buffer for T1: one move,
       and it flushes x first. pso has one per location: two moves, and
       flushing y first lets T2 see y = 1 with x still 0 (MP's relaxed
       outcome). */
    Bench *b = bench_new("tso");
    start(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, Y, 1);
    ModelMove mv[8];
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 1);
    bench_free(b);

    b = bench_new("pso");
    start(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, Y, 1);
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 2);
    int y_move = mv[0].loc == Y ? 0 : 1;
    ck_assert_int_eq(mv[y_move].loc, Y);
    flush(b, &mv[y_move]);
    ReadChoice c[16];
    choices(b, 2, Y, c);
    ck_assert_int_eq(c[0].value, 1);
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 0);
    /* A volatile write is a full fence: x = 1 reaches memory first. */
    ck_assert(do_write(b, 1, V, 7));
    ck_assert_int_eq(b->ops->moves(b->m, mv, 8), 0);
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 1);
    bench_free(b);
}
END_TEST

START_TEST(tso_lock_fences_and_join_drains)
{
    /* A lock drains the locker's buffer. An ended thread's buffer drains
       when another thread joins it. */
    Bench *b = bench_new("tso");
    start(b);
    do_write(b, 1, X, 1);
    do_sync(b, 1, SYNC_LOCK, 1);
    ReadChoice c[16];
    choices(b, 2, X, c);
    ck_assert_int_eq(c[0].value, 1);
    do_write(b, 2, X, 5);
    do_sync(b, 2, SYNC_END, 0);
    choices(b, 1, X, c);
    ck_assert_int_eq(c[0].value, 1); /* still buffered in T2 */
    do_sync(b, 1, SYNC_JOIN, 2);
    choices(b, 1, X, c);
    ck_assert_int_eq(c[0].value, 5);
    bench_free(b);
}
END_TEST

/* ---- jmm ------------------------------------------------------------------------ */

START_TEST(jmm_round0_is_sc_and_fills_writeset)
{
    /* Round 0 reads the last write, like sc. A well-formed path end adds
       its two writes to the WriteSet: size 2, so round 1 follows. */
    Bench *b = bench_new("jmm");
    start(b);
    do_write(b, 1, X, 1);
    ReadChoice c[16];
    ck_assert_int_eq(choices(b, 2, X, c), 1);
    ck_assert_int_eq(c[0].value, 1);
    do_write(b, 2, X, 2);
    ck_assert(b->ops->path_end(b->m));
    ck_assert(next_round(b));
    ck_assert_uint_eq(b->r->writeset_size, 2);
    ck_assert_int_eq(b->r->iterations, 1);
    bench_free(b);
}
END_TEST

/* Fills the WriteSet with T1: x = 1; x = 2 and T2: x = 3 (round 0), and
   moves to round 1. */
static void writeset_x123(Bench *b)
{
    start(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    do_write(b, 2, X, 3);
    ck_assert(b->ops->path_end(b->m));
    ck_assert(next_round(b));
    start(b);
}

START_TEST(jmm_past_write_hidden_by_happens_before)
{
    /* Round 1. T1 writes 1 then 2, then reads x. In program order 1 hb 2
       hb the read, so 1 is hidden, and so is the default 0. T2's write 3 is
       still to come and not ordered: a legal future read. So T1 may read
       2 or 3, not 0 or 1. T2, with no synchronisation, may read 0 (nothing
       of T1 happens-before it), 1 or 2 (past, unordered), but not its own
       later write 3 (it would happen-before it). */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    ReadChoice c[16];
    int n = choices(b, 1, X, c);
    ck_assert_int_eq(n, 2);
    ck_assert(has_value(c, n, 2) && has_value(c, n, 3));
    n = choices(b, 2, X, c);
    ck_assert_int_eq(n, 3);
    ck_assert(has_value(c, n, 0) && has_value(c, n, 1) && has_value(c, n, 2));
    bench_free(b);
}
END_TEST

START_TEST(jmm_lock_orders_writes)
{
    /* Round 1. T1 writes 1 and 2 and unlocks l; T2 locks l and reads x:
       T1's writes now happen-before the read, so 1 and the default are
       hidden and only 2 remains (3 is T2's own later write). */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_sync(b, 1, SYNC_LOCK, 1);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    do_sync(b, 1, SYNC_UNLOCK, 1);
    do_sync(b, 2, SYNC_LOCK, 1);
    ReadChoice c[16];
    ck_assert_int_eq(choices(b, 2, X, c), 1);
    ck_assert_int_eq(c[0].value, 2);
    bench_free(b);
}
END_TEST

START_TEST(jmm_volatile_write_synchronises)
{
    /* Round 1. T1: x = 1; v = 1 (volatile). T2 reads v (sees 1: the last
       volatile write) and then x: the volatile pair orders x = 1 before
       the read, hiding the default; T1's later x = 2 is still a future
       candidate, so T2 may read 1 or 2 but not 0. */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, V, 1);
    read_value(b, 2, V, 1);
    ReadChoice c[16];
    int n = choices(b, 2, X, c);
    ck_assert(!has_value(c, n, 0));
    ck_assert(has_value(c, n, 1) && has_value(c, n, 2));
    bench_free(b);
}
END_TEST

START_TEST(jmm_impose_must_match)
{
    /* Round 1. T2 reads x = 1 from T1's future first write: that write is
       imposed with 1. T1 then writing 5 instead makes the path ill-formed
       (write returns false). */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    Event *r = read_value(b, 2, X, 1);
    ck_assert(r->future);
    ck_assert_int_eq(r->rf, RF_PENDING);
    ck_assert(!do_write(b, 1, X, 5));
    bench_free(b);
}
END_TEST

START_TEST(jmm_impose_conflict_removes_choice)
{
    /* Round 0 has two paths: on one T1's first write to x writes 1, on the
       other 5; both (id, value) pairs enter the WriteSet. (T2 also writes
       x = 9 on both, racing with T1, so that round 1 runs.) In round 1,
       once T2 has read 1 from T1's future write (imposing 1), a second read
       may no longer choose 5 from the same write: 0 (default) and 1 remain;
       T2's own later write 9 is never offered to T2. */
    Bench *b = bench_new("jmm");
    start(b);
    do_write(b, 2, X, 9);
    do_write(b, 1, X, 1);
    ck_assert(b->ops->path_end(b->m));
    trail_undo(&b->trail, 0);
    b->events.len = 0;
    b->ops->begin(b->m);
    start(b);
    do_write(b, 2, X, 9);
    do_write(b, 1, X, 5);
    ck_assert(b->ops->path_end(b->m));
    ck_assert(next_round(b));
    start(b);
    ReadChoice c[16];
    int n = choices(b, 2, X, c);
    ck_assert(has_value(c, n, 0) && has_value(c, n, 1) && has_value(c, n, 5));
    read_value(b, 2, X, 1);
    n = choices(b, 2, X, c);
    ck_assert_int_eq(n, 2);
    ck_assert(has_value(c, n, 0) && has_value(c, n, 1));
    bench_free(b);
}
END_TEST

START_TEST(jmm_future_read_must_not_happen_before_write)
{
    /* Round 1. T2 reads x = 1 from T1's future write and unlocks l; T1
       locks l and then writes x = 1: the read happens-before the write it
       read, so the write makes the path ill-formed. */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_sync(b, 2, SYNC_LOCK, 1);
    read_value(b, 2, X, 1);
    do_sync(b, 2, SYNC_UNLOCK, 1);
    do_sync(b, 1, SYNC_LOCK, 1);
    ck_assert(!do_write(b, 1, X, 1));
    bench_free(b);
}
END_TEST

START_TEST(jmm_unperformed_impose_is_ill_formed)
{
    /* Round 1. T2 reads 1 from T1's future write, which never happens:
       the path end is not well formed. With the write done (value 1), it
       is, and the read learns the event it saw. */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    Event *r = read_value(b, 2, X, 1);
    size_t read_index = (size_t)(r - b->events.v);
    ck_assert(!b->ops->path_end(b->m));
    ck_assert(do_write(b, 1, X, 1));
    size_t write_index = b->events.len - 1;
    ck_assert(b->ops->path_end(b->m));
    ck_assert_int_eq(b->events.v[read_index].rf, (int32_t)write_index);
    bench_free(b);
}
END_TEST

START_TEST(jmm_final_values_are_unhidden_writes)
{
    /* Round 1. T1: x = 1; x = 2. T2: x = 3. A reader that joined both
       sees 2 (1 is hidden by 2 in program order) and 3 (unordered). */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    do_write(b, 2, X, 3);
    int64_t v[8];
    int n = b->ops->final_values(b->m, X, v, 8);
    ck_assert_int_eq(n, 2);
    ck_assert((v[0] == 2 && v[1] == 3) || (v[0] == 3 && v[1] == 2));
    bench_free(b);
}
END_TEST

START_TEST(jmm_fixed_point_stops)
{
    /* Round 1 performs the same writes as round 0: the WriteSet does not
       grow, so no round 2. Two searches in all. */
    Bench *b = bench_new("jmm");
    writeset_x123(b);
    do_write(b, 1, X, 1);
    do_write(b, 1, X, 2);
    do_write(b, 2, X, 3);
    ck_assert(b->ops->path_end(b->m));
    ck_assert(!next_round(b));
    ck_assert_int_eq(b->r->iterations, 2);
    ck_assert_uint_eq(b->r->writeset_size, 3);
    bench_free(b);
}
END_TEST

/* ---- whole programs: delayed reports ---------------------------------------------- */

START_TEST(jmm_holds_violations_of_ill_formed_paths)
{
    /* The paper's Fig. 12. In round 1 T1 may read x = 1 from T2's future
       write, so T2 reads y = 1 and its assert fails on that path; but then
       T2 writes x = 0, not the imposed 1, and the path is dropped. The
       failure is held until the path ends, so it is never reported. Every
       well-formed path has r2 == 0. */
    ExploreConfig cfg = {.unroll = 8, .no_drf_shortcut = true};
    Run run = run_program("jmm", &cfg,
                          "Java fig12\n"
                          "int x, y;\n"
                          "thread T1 { int r1 = x; y = r1; }\n"
                          "thread T2 { int r2 = y; assert r2 != 1; if (r2 == 0) x = 1; else x = 0; }\n");
    ck_assert_uint_eq(run.r->violations->len, 0);
    ck_assert_uint_gt(run.r->total.discarded, 0);
    ck_assert_int_ge(run.r->iterations, 2);
    run_free(&run);
}
END_TEST

START_TEST(jmm_drf_program_answered_by_sc)
{
    /* Every access to x is inside synchronized (l): data-race free, so
       round 0 (SC) is the answer: one search, and the result says so. */
    Run run = run_program("jmm", NULL,
                          "Java drf\nclass L {}\nint x; L l = new L();\n"
                          "thread T1 { synchronized (l) { x = 1; } }\n"
                          "thread T2 { int r = 0; synchronized (l) { r = x; } }\n");
    ck_assert(run.r->drf_shortcut);
    ck_assert_int_eq(run.r->iterations, 1);
    ck_assert_uint_eq(run.r->states->len, 2); /* r = 0 or 1 */
    run_free(&run);
}
END_TEST

/* Runs a whole program under jmm and returns its number of violations. */
static guint jmm_violations(const char *text)
{
    Run run = run_program("jmm", NULL, text);
    guint n = run.r->violations->len;
    run_free(&run);
    return n;
}

START_TEST(jmm_final_field_seen_after_construction)
{
    /* JLS 17.5. P0 publishes a Box through a plain global after its
       constructor set the final field v = 42. P1 may get the reference
       from that write even before it happens in the path (a future read),
       but it can only see the object after the constructor finished, so
       its read of v must give 42: no violation. */
    ck_assert_uint_eq(jmm_violations("Java fin\n"
                                     "class Box { final int v; Box() { v = 42; } }\n"
                                     "Box b;\n"
                                     "thread P0 { b = new Box(); }\n"
                                     "thread P1 { Box r = b; if (r != null) { int x = r.v; assert x == 42; } }\n"),
                      0);
}
END_TEST

START_TEST(jmm_final_field_of_leaked_object)
{
    /* The constructor publishes this before setting v: P1 can see the
       object unconstructed, and then v = 0 (even under sc), so the
       guarantee does not hold and the assert can fail. */
    ck_assert_uint_eq(jmm_violations("Java leak\n"
                                     "class Box { final int v; Box() { b = this; v = 42; } }\n"
                                     "Box b;\n"
                                     "thread P0 { Box mine = new Box(); }\n"
                                     "thread P1 { Box r = b; if (r != null) { int x = r.v; assert x == 42; } }\n"),
                      1);
}
END_TEST

START_TEST(jmm_past_write_new_this_round)
{
    /* Load buffering: P0 reads y, P2 copies x0 (which P0 sets to 1) into
       y, so P0 may read y = 1 (LB is allowed by the JMM). Only then does P0
       write x = 1, an action id no earlier round saw (round 0 is sc, where
       r0 = 0), before x = 2 and the volatile v = 1. P1 waits for v and
       reads x: x = 1 and x = 2 both happen-before that read, and x = 2
       hides x = 1, so the read sees 2, a past write; its id may be new in
       this round, and it is still legal to read. The path then ends well
       formed, so r0 = 1 is found. */
    ExploreConfig cfg = {.unroll = 8};
    Run run = run_program("jmm", &cfg, "Java stuck\nint x, x0, y; volatile int v;\n"
                            "thread P0 { int r0 = y; x0 = 1; if (r0 == 1) { x = 1; } x = 2; v = 1; }\n"
                            "thread P1 { while (v == 0) { } int rx = x; }\n"
                            "thread P2 { int r2 = x0; y = r2; }\n"
                            "exists (P0:r0 == 1)\n");
    ck_assert(result_validated(run.r));
    ck_assert(result_complete(run.r));
    run_free(&run);
}
END_TEST

START_TEST(jmm_relax_keeps_sc_order)
{
    /* With --relax y, x reads as under sc. P0 and P1 each write x and then
       set their volatile flag; P2 waits for both flags and reads x: under
       sc the last write to x is P0's or P1's, so r is 1 or 2 (both orders
       occur), exactly as with --model sc. */
    ExploreConfig cfg = {.unroll = 8, .relax = "y"};
    Run run = run_program("jmm", &cfg, "Java relaxorder\nint x, y; volatile int f0, f1;\n"
                            "thread P0 { x = 1; f0 = 1; }\n"
                            "thread P1 { x = 2; f1 = 1; }\n"
                            "thread P2 { int a = f0; int b = f1; assume (a == 1 && b == 1); int r = x; }\n"
                            "locations [P2:r]\n");
    ck_assert_uint_eq(run.r->states->len, 2);
    run_free(&run);
}
END_TEST

START_TEST(jmm_final_field_last_constructor_write)
{
    /* The constructor writes f = 1 then f = 2. A thread that sees the
       object only through p (published after the constructor) must see
       f = 2 (JLS 17.5), even if it reads f while the constructor is still
       running in the path: rf is -1 (p still null) or 2, never 1. */
    ExploreConfig cfg = {.unroll = 8};
    Run run = run_program("jmm", &cfg, "Java final2\nclass C { final int f; C() { f = 1; f = 2; } }\nC p;\n"
                            "thread T1 { p = new C(); }\n"
                            "thread T2 { C q = p; int rf = -1; if (q != null) { rf = q.f; } }\n"
                            "locations [T2:rf]\n");
    ck_assert_uint_eq(run.r->states->len, 2);
    for (guint i = 0; i < run.r->states->len; i++) {
        int64_t v = g_array_index(run.r->states, FinalState, i).values[0];
        ck_assert(v == -1 || v == 2);
    }
    run_free(&run);
}
END_TEST

static Suite *models_suite(void)
{
    Suite *s = suite_create("models");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sc_reads_last_write);
    tcase_add_test(tc, tso_buffers_and_forwards);
    tcase_add_test(tc, tso_buffer_is_fifo);
    tcase_add_test(tc, pso_buffers_per_location);
    tcase_add_test(tc, tso_lock_fences_and_join_drains);
    tcase_add_test(tc, jmm_round0_is_sc_and_fills_writeset);
    tcase_add_test(tc, jmm_past_write_hidden_by_happens_before);
    tcase_add_test(tc, jmm_lock_orders_writes);
    tcase_add_test(tc, jmm_volatile_write_synchronises);
    tcase_add_test(tc, jmm_impose_must_match);
    tcase_add_test(tc, jmm_impose_conflict_removes_choice);
    tcase_add_test(tc, jmm_future_read_must_not_happen_before_write);
    tcase_add_test(tc, jmm_unperformed_impose_is_ill_formed);
    tcase_add_test(tc, jmm_final_values_are_unhidden_writes);
    tcase_add_test(tc, jmm_fixed_point_stops);
    tcase_add_test(tc, jmm_holds_violations_of_ill_formed_paths);
    tcase_add_test(tc, jmm_drf_program_answered_by_sc);
    tcase_add_test(tc, jmm_final_field_seen_after_construction);
    tcase_add_test(tc, jmm_final_field_of_leaked_object);
    tcase_add_test(tc, jmm_past_write_new_this_round);
    tcase_add_test(tc, jmm_relax_keeps_sc_order);
    tcase_add_test(tc, jmm_final_field_last_constructor_write);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(models_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
