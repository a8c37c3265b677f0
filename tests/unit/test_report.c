/* Unit tests of the result store and of the text and JSON reports.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Each test builds its Result by hand over a small SB-like program:
 * globals x, y (volatile) and h (a Helper), threads P0 and P1, a class
 * Helper with one int field val, the array type boolean[], and two asserts.
 * The condition is exists (P0:r0 == 0 && P1:r1 == 0) over the shown
 * registers P0:r0 and P1:r1.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pathrelax/report.h"

static const Type helper_type = {.kind = TY_CLASS, .class_index = 0, .class_name = "Helper"};
static const Type bool_array_type = {.kind = TY_ARRAY, .class_index = -1, .elem = &type_bool};

static CVar globals[] = {
    {.name = "x", .type = &type_int},
    {.name = "y", .type = &type_int, .is_volatile = true},
    {.name = "h", .type = &helper_type},
};
enum { LOC_X, LOC_Y, LOC_H };

static CVar helper_fields[] = {{.name = "val", .type = &type_int}};
static CClass classes[] = {{.name = "Helper", .fields = helper_fields, .n_fields = 1}};
static CThread threads[] = {{.name = "P0"}, {.name = "P1"}};
static CAssert asserts[] = {
    {.message = NULL, .line = 12, .col = 5, .text = "x == 1"},
    {.message = "x must be 1", .line = 13, .col = 5, .text = "x == 1"},
};
static const Type *types[] = {&bool_array_type};

static GPtrArray *allocations;   /* freed at teardown */
static Ast *ast;
static Program *prog;
static World *world;
static Result *res;

/* ---- fixture -------------------------------------------------------- */

static void *keep(void *p)
{
    g_ptr_array_add(allocations, p);
    return p;
}

static void add_shown(const char *text, const Type *type)
{
    CondLoc *loc = keep(g_new0(CondLoc, 1));
    loc->text = keep(g_strdup(text));
    loc->type = type;
    g_ptr_array_add(ast->shown, loc);
}

static CondExpr *cmp(int loc, Operator op, int64_t value)
{
    CondExpr *e = keep(g_new0(CondExpr, 1));
    e->kind = CE_CMP;
    e->loc = loc;
    e->op = op;
    e->value = value;
    return e;
}

static CondExpr *node(CondExprKind kind, CondExpr *a, CondExpr *b)
{
    CondExpr *e = keep(g_new0(CondExpr, 1));
    e->kind = kind;
    e->a = a;
    e->b = b;
    return e;
}

static void setup(void)
{
    allocations = g_ptr_array_new_with_free_func(g_free);
    ast = keep(g_new0(Ast, 1));
    ast->filename = "SB.java";
    ast->name = "SB";
    ast->shown = g_ptr_array_new();
    add_shown("P0:r0", &type_int);
    add_shown("P1:r1", &type_int);
    ast->cond_kind = CK_EXISTS;
    ast->cond = node(CE_AND, cmp(0, OPR_EQ, 0), cmp(1, OPR_EQ, 0));
    ast->cond_text = "exists (P0:r0 == 0 && P1:r1 == 0)";

    prog = keep(g_new0(Program, 1));
    prog->ast = ast;
    prog->globals = globals;
    prog->n_globals = G_N_ELEMENTS(globals);
    prog->classes = classes;
    prog->n_classes = G_N_ELEMENTS(classes);
    prog->threads = threads;
    prog->n_threads = G_N_ELEMENTS(threads);
    prog->asserts = asserts;
    prog->n_asserts = G_N_ELEMENTS(asserts);
    prog->types = types;
    prog->n_types = G_N_ELEMENTS(types);

    world = world_new(prog);
    res = result_new(prog, world, "sc", 8);
}

static void teardown(void)
{
    result_free(res);
    world_free(world);
    g_ptr_array_free(ast->shown, TRUE);
    g_ptr_array_free(allocations, TRUE);
}

static void add2(int64_t r0, int64_t r1)
{
    int64_t values[] = {r0, r1};
    result_add_state(res, values);
}

static const FinalState *state_at(guint i)
{
    return &g_array_index(res->states, FinalState, i);
}

static char *text_report(void)
{
    GString *out = g_string_new(NULL);
    report_text(out, res);
    return g_string_free(out, FALSE);
}

static char *trace_text(const Event *trace, size_t len)
{
    GString *out = g_string_new(NULL);
    report_trace(out, res, trace, len);
    return g_string_free(out, FALSE);
}

/* The line of text that starts with prefix, or NULL. */
static char *line_starting(const char *text, const char *prefix)
{
    char **lines = g_strsplit(text, "\n", -1);
    char *found = NULL;
    for (char **l = lines; *l && !found; l++) {
        if (g_str_has_prefix(*l, prefix))
            found = g_strdup(*l);
    }
    g_strfreev(lines);
    return found;
}

static Event ev_read(int tid, int line, Loc loc, int64_t value, int rf)
{
    return (Event){.kind = EV_READ, .tid = tid, .line = line, .loc = loc, .value = value,
                   .rf = rf};
}

static Event ev_write(int tid, int line, Loc loc, int64_t value)
{
    return (Event){.kind = EV_WRITE, .tid = tid, .line = line, .loc = loc, .value = value,
                   .rf = RF_INIT};
}

static Event ev_other(EventKind kind, int tid, int line, int64_t arg, int msg)
{
    return (Event){.kind = kind, .tid = tid, .line = line, .loc = LOC_NONE, .arg = arg,
                   .msg = msg};
}

/* ---- result store --------------------------------------------------- */

START_TEST(test_states_dedup_and_count)
{
    add2(1, 0);
    add2(0, 0);
    add2(1, 0);
    add2(1, 0);
    ck_assert_uint_eq(res->states->len, 2);
    ck_assert_int_eq(state_at(0)->values[0], 1);
    ck_assert_uint_eq(state_at(0)->count, 3);
    ck_assert_uint_eq(state_at(1)->count, 1);
    /* with multiplicity: three paths ended in (1,0) */
    ck_assert_uint_eq(res->positive, 1);
    ck_assert_uint_eq(res->negative, 3);
}
END_TEST

START_TEST(test_states_sorted)
{
    add2(1, 1);
    add2(0, 1);
    add2(-1, 5);
    add2(0, 0);
    add2(INT64_MIN, 9);
    result_finish(res);
    const int64_t expect[][2] = {{INT64_MIN, 9}, {-1, 5}, {0, 0}, {0, 1}, {1, 1}};
    ck_assert_uint_eq(res->states->len, G_N_ELEMENTS(expect));
    for (guint i = 0; i < G_N_ELEMENTS(expect); i++) {
        ck_assert_int_eq(state_at(i)->values[0], expect[i][0]);
        ck_assert_int_eq(state_at(i)->values[1], expect[i][1]);
    }
    /* the index follows the sort: a known state is still found */
    add2(0, 1);
    ck_assert_uint_eq(res->states->len, G_N_ELEMENTS(expect));
    ck_assert_uint_eq(state_at(3)->count, 2);
}
END_TEST

START_TEST(test_no_shown_locations)
{
    g_ptr_array_set_size(ast->shown, 0);
    ast->cond_kind = CK_NONE;
    ast->cond = NULL;
    result_add_state(res, NULL);
    result_add_state(res, NULL);
    result_finish(res);
    ck_assert_uint_eq(res->states->len, 1);
    ck_assert_uint_eq(state_at(0)->count, 2);
    ck_assert_uint_eq(res->positive + res->negative, 0);
}
END_TEST

START_TEST(test_condition_evaluation)
{
    /* The locations are ints: the least int, not INT64_MIN (which stands
       for "undefined" in an int location). */
    const int64_t minus_one[] = {-1, 0}, zero_one[] = {0, 1}, big[] = {INT32_MIN, INT64_MAX};

    ast->cond = cmp(0, OPR_LT, 0);   /* signed: -1 < 0 */
    ck_assert(result_state_satisfies(res, minus_one));
    ck_assert(result_state_satisfies(res, big));
    ck_assert(!result_state_satisfies(res, zero_one));

    ast->cond = cmp(1, OPR_GE, INT64_MAX);
    ck_assert(result_state_satisfies(res, big));
    ck_assert(!result_state_satisfies(res, zero_one));

    ast->cond = node(CE_OR, cmp(0, OPR_GT, 0), cmp(1, OPR_NE, 0));
    ck_assert(result_state_satisfies(res, zero_one));
    ck_assert(!result_state_satisfies(res, minus_one));

    ast->cond = node(CE_NOT, cmp(0, OPR_LE, -1), NULL);
    ck_assert(result_state_satisfies(res, zero_one));
    ck_assert(!result_state_satisfies(res, minus_one));

    ast->cond = node(CE_TRUE, NULL, NULL);
    ck_assert(result_state_satisfies(res, minus_one));
}
END_TEST

START_TEST(test_condition_on_references)
{
    add_shown("h", &helper_type);
    int64_t obj = world_intern_object(world, 1, 0, 0, -1, 0);
    const int64_t with_null[] = {0, 0, 0}, with_obj[] = {0, 0, obj};

    CondExpr *is_null = cmp(2, OPR_EQ, 0);
    is_null->value_is_null = true;
    ast->cond = is_null;
    ck_assert(result_state_satisfies(res, with_null));
    ck_assert(!result_state_satisfies(res, with_obj));

    CondExpr *not_null = cmp(2, OPR_NE, 0);
    not_null->value_is_null = true;
    ast->cond = not_null;
    ck_assert(result_state_satisfies(res, with_obj));
    ck_assert(!result_state_satisfies(res, with_null));
}
END_TEST

/* One row per condition kind and outcome: the verdict, herd's words and
   the exit status of a complete search. */
static const struct {
    CondKind kind;
    int n_pos, n_neg;        /* states added satisfying / not satisfying */
    bool validated;
    const char *test_word;
    const char *observation;
    int exit_status;
} verdicts[] = {
    {CK_EXISTS, 1, 2, true, "Allowed", "Sometimes", 0},
    {CK_EXISTS, 0, 3, false, "Allowed", "Never", 1},
    {CK_EXISTS, 2, 0, true, "Allowed", "Always", 0},
    {CK_NOT_EXISTS, 0, 3, true, "Forbidden", "Never", 0},
    {CK_NOT_EXISTS, 1, 3, false, "Forbidden", "Sometimes", 1},
    {CK_FORALL, 2, 0, true, "Required", "Always", 0},
    {CK_FORALL, 2, 1, false, "Required", "Sometimes", 1},
    {CK_FORALL, 0, 1, false, "Required", "Never", 1},
};

START_TEST(test_verdict_words)
{
    ast->cond_kind = verdicts[_i].kind;
    for (int i = 0; i < verdicts[_i].n_pos; i++)
        add2(0, 0);
    for (int i = 0; i < verdicts[_i].n_neg; i++)
        add2(i + 1, 0);
    result_finish(res);

    ck_assert_int_eq(result_validated(res), verdicts[_i].validated);
    ck_assert_int_eq(result_exit_status(res), verdicts[_i].exit_status);

    char *text = text_report();
    char *test_line = g_strdup_printf("Test SB %s", verdicts[_i].test_word);
    char *obs_line = g_strdup_printf("Observation SB %s %d %d", verdicts[_i].observation,
                                     verdicts[_i].n_pos, verdicts[_i].n_neg);
    char *got_test = line_starting(text, "Test ");
    char *got_obs = line_starting(text, "Observation ");
    char *got_ok = line_starting(text, "Ok");
    ck_assert_str_eq(got_test, test_line);
    ck_assert_str_eq(got_obs, obs_line);
    ck_assert_int_eq(got_ok != NULL, verdicts[_i].validated);
    g_free(got_ok);
    g_free(got_obs);
    g_free(got_test);
    g_free(obs_line);
    g_free(test_line);
    g_free(text);
}
END_TEST

START_TEST(test_no_condition_validated)
{
    ast->cond_kind = CK_NONE;
    ast->cond = NULL;
    add2(1, 1);
    ck_assert(result_validated(res));
    ck_assert_int_eq(result_exit_status(res), 0);
}
END_TEST

START_TEST(test_exit_status)
{
    /* exists with a witness: 0 complete, 3 when a bound cut paths */
    add2(0, 0);
    ck_assert_int_eq(result_exit_status(res), 0);
    res->total.cut_depth = 1;
    ck_assert(!result_complete(res));
    ck_assert_int_eq(result_exit_status(res), 3);
    res->total.cut_depth = 0;
    res->limit = LIMIT_TIME;
    ck_assert_int_eq(result_exit_status(res), 3);
    res->limit = LIMIT_NONE;

    /* a violation fails the file whatever the condition says */
    result_add_violation(res, VIOL_DEADLOCK, -1, 0, "deadlock", NULL, 0);
    ck_assert_int_eq(result_exit_status(res), 1);
}
END_TEST

START_TEST(test_exists_incomplete_is_not_failure)
{
    add2(1, 0);
    ck_assert_int_eq(result_exit_status(res), 1);
    res->total.cut_unroll = 4;
    ck_assert_int_eq(result_exit_status(res), 3);
    res->total.cut_unroll = 0;
    res->limit = LIMIT_STATES;
    ck_assert_int_eq(result_exit_status(res), 3);
}
END_TEST

START_TEST(test_definite_failures_despite_cuts)
{
    res->total.cut_unroll = 1;
    ast->cond_kind = CK_NOT_EXISTS;
    add2(0, 0);
    ck_assert_int_eq(result_exit_status(res), 1);
    ast->cond_kind = CK_FORALL;
    ck_assert_int_eq(res->negative, 0);
    ck_assert_int_eq(result_exit_status(res), 3);
    add2(1, 0);
    ck_assert_int_eq(result_exit_status(res), 1);
}
END_TEST

START_TEST(test_violation_dedup)
{
    Event first[] = {ev_write(1, 5, LOC_X, 1)};
    Event second[] = {ev_write(2, 7, LOC_Y, 2), ev_write(2, 8, LOC_Y, 3)};
    result_add_violation(res, VIOL_ASSERT, 2, 12, "assertion failed: x == 1", first, 1);
    result_add_violation(res, VIOL_ASSERT, 2, 12, "assertion failed: x == 1", second, 2);
    result_add_violation(res, VIOL_ASSERT, 2, 13, "assertion failed: x == 1", second, 2);
    result_add_violation(res, VIOL_ASSERT, 1, 12, "assertion failed: x == 1", second, 2);
    result_add_violation(res, VIOL_EXCEPTION, 2, 12, "assertion failed: x == 1", second, 2);
    result_add_violation(res, VIOL_ASSERT, 2, 12, "x must be 1", second, 2);
    ck_assert_uint_eq(res->violations->len, 5);

    const Violation *v = g_ptr_array_index(res->violations, 0);
    ck_assert_uint_eq(v->count, 2);
    ck_assert_uint_eq(v->trace_len, 1);
    ck_assert_ptr_ne(v->trace, first);    /* a copy, */
    first[0].value = 99;
    ck_assert_int_eq(v->trace[0].value, 1);   /* not a reference */
    ck_assert_int_eq(v->trace[0].line, 5);
    ck_assert_str_eq(v->message, "assertion failed: x == 1");
}
END_TEST

START_TEST(test_add_stats)
{
    const SearchStats a = {.executions = 1, .states_visited = 2, .transitions = 3,
                           .discarded = 4, .cut_unroll = 5, .cut_depth = 6, .seconds = 0.25};
    const SearchStats b = {.executions = 10, .states_visited = 20, .transitions = 30,
                           .discarded = 40, .cut_unroll = 50, .cut_depth = 60, .seconds = 0.5};
    result_add_stats(res, &a);
    result_add_stats(res, &b);
    ck_assert_uint_eq(res->total.executions, 11);
    ck_assert_uint_eq(res->total.states_visited, 22);
    ck_assert_uint_eq(res->total.transitions, 33);
    ck_assert_uint_eq(res->total.discarded, 44);
    ck_assert_uint_eq(res->total.cut_unroll, 55);
    ck_assert_uint_eq(res->total.cut_depth, 66);
    ck_assert_double_eq_tol(res->total.seconds, 0.75, 1e-9);
    ck_assert_uint_eq(res->rounds->len, 0);   /* the explorer appends rounds */
}
END_TEST

START_TEST(test_clear_findings)
{
    const Event trace[] = {ev_write(1, 5, LOC_X, 1)};
    add2(0, 0);
    add2(1, 0);
    result_add_violation(res, VIOL_ASSERT, 2, 12, "assertion failed: x == 1", trace, 1);
    res->total.executions = 2;
    result_clear_findings(res);
    ck_assert_uint_eq(res->states->len, 0);
    ck_assert_uint_eq(res->positive + res->negative, 0);
    ck_assert_uint_eq(res->violations->len, 0);
    ck_assert_uint_eq(res->total.executions, 2);

    /* the next round starts afresh: a state seen before is new again */
    add2(1, 0);
    result_add_violation(res, VIOL_ASSERT, 2, 12, "assertion failed: x == 1", trace, 1);
    ck_assert_uint_eq(res->states->len, 1);
    ck_assert_uint_eq(state_at(0)->count, 1);
    ck_assert_uint_eq(res->negative, 1);
    ck_assert_uint_eq(((const Violation *)g_ptr_array_index(res->violations, 0))->count, 1);
}
END_TEST

START_TEST(test_names)
{
    ck_assert_str_eq(exception_name(EXC_NULL_POINTER), "NullPointerException");
    ck_assert_str_eq(exception_name(EXC_ARRAY_INDEX), "ArrayIndexOutOfBoundsException");
    ck_assert_str_eq(exception_name(EXC_ARITHMETIC), "ArithmeticException");
    ck_assert_str_eq(exception_name(EXC_NEGATIVE_ARRAY_SIZE), "NegativeArraySizeException");
    ck_assert_str_eq(violation_kind_name(VIOL_ASSERT), "assert");
    ck_assert_str_eq(violation_kind_name(VIOL_EXCEPTION), "exception");
    ck_assert_str_eq(violation_kind_name(VIOL_DEADLOCK), "deadlock");
}
END_TEST

START_TEST(test_peak_rss)
{
    ck_assert_uint_gt(peak_rss_kb(), 0);
}
END_TEST

/* ---- text report ---------------------------------------------------- */

static void sb_result(void)
{
    add2(0, 1);
    add2(1, 0);
    add2(1, 1);
    add2(0, 0);
    add2(1, 0);
    result_finish(res);
    res->total = (SearchStats){.executions = 5, .states_visited = 23, .transitions = 40,
                               .seconds = 0.004};
}

START_TEST(test_text_sb)
{
    sb_result();
    char *text = text_report();
    ck_assert_str_eq(text,
                     "Test SB Allowed\n"
                     "States 4\n"
                     "P0:r0=0; P1:r1=0;\n"
                     "P0:r0=0; P1:r1=1;\n"
                     "P0:r0=1; P1:r1=0;\n"
                     "P0:r0=1; P1:r1=1;\n"
                     "Ok\n"
                     "Witnesses\n"
                     "Positive: 1 Negative: 4\n"
                     "Condition exists (P0:r0 == 0 && P1:r1 == 0)\n"
                     "Observation SB Sometimes 1 4\n"
                     "Violations 0\n"
                     "Model sc\n"
                     "Executions 5\n"
                     "States-visited 23\n"
                     "Transitions 40\n"
                     "Discarded 0\n"
                     "Cut 0\n"
                     "Complete yes\n"
                     "Time SB 0.00\n");
    g_free(text);
}
END_TEST

START_TEST(test_text_no_condition)
{
    ast->cond_kind = CK_NONE;
    ast->cond = NULL;
    ast->cond_text = NULL;
    add_shown("P0:ok", &type_bool);
    add_shown("h", &helper_type);
    int64_t obj = world_intern_object(world, 1, 0, 0, -1, 0);
    const int64_t a[] = {2, -3, 1, obj}, b[] = {2, -3, 0, 0};
    result_add_state(res, a);
    result_add_state(res, b);
    result_finish(res);
    res->total = (SearchStats){.executions = 2, .states_visited = 9, .transitions = 8,
                               .discarded = 1, .seconds = 1.235};
    char *text = text_report();
    ck_assert_str_eq(text,
                     "Test SB Final\n"
                     "States 2\n"
                     "P0:r0=2; P1:r1=-3; P0:ok=false; h=null;\n"
                     "P0:r0=2; P1:r1=-3; P0:ok=true; h=Helper@P0.0;\n"
                     "Violations 0\n"
                     "Model sc\n"
                     "Executions 2\n"
                     "States-visited 9\n"
                     "Transitions 8\n"
                     "Discarded 1\n"
                     "Cut 0\n"
                     "Complete yes\n"
                     "Time SB 1.24\n");
    g_free(text);
}
END_TEST

START_TEST(test_text_violation_incomplete_jmm)
{
    ast->cond_kind = CK_NOT_EXISTS;
    ast->cond_text = "~exists (P0:r0 == 0 && P1:r1 == 0)";
    add2(1, 1);
    result_finish(res);
    res->model = "jmm";
    res->iterations = 2;
    res->writeset_size = 3;
    res->drf_shortcut = true;
    res->limit = LIMIT_STATES;
    res->total = (SearchStats){.executions = 7, .states_visited = 50, .transitions = 90,
                               .discarded = 2, .cut_unroll = 3, .cut_depth = 1,
                               .seconds = 0.5};
    const Event trace[] = {
        ev_write(0, 3, LOC_X, 0),
        ev_write(1, 5, LOC_X, 1),
        ev_read(2, 11, LOC_X, 0, RF_INIT),
        ev_other(EV_ASSERT, 2, 12, 0, 0),
    };
    for (int i = 0; i < 3; i++)
        result_add_violation(res, VIOL_ASSERT, 2, 12, "assertion failed: x == 1", trace,
                             G_N_ELEMENTS(trace));
    result_add_violation(res, VIOL_DEADLOCK, -1, 0, "deadlock: P0 and P1 wait", NULL, 0);

    char *text = text_report();
    ck_assert_str_eq(text,
                     "Test SB Forbidden\n"
                     "States 1\n"
                     "P0:r0=1; P1:r1=1;\n"
                     "Ok\n"
                     "Witnesses\n"
                     "Positive: 0 Negative: 1\n"
                     "Condition ~exists (P0:r0 == 0 && P1:r1 == 0)\n"
                     "Observation SB Never 0 1\n"
                     "Violations 2\n"
                     "Violation assert P1 line 12: assertion failed: x == 1 "
                     "(seen in 3 executions)\n"
                     "  P0 L.5: W x = 1\n"
                     "  P1 L.11: R x = 0 [INIT]\n"
                     "  P1 L.12: assertion failed: x == 1\n"
                     "Violation deadlock: deadlock: P0 and P1 wait (seen in 1 execution)\n"
                     "Model jmm\n"
                     "Rounds 2\n"
                     "WriteSet 3\n"
                     "DRF yes: the program is data-race free, so its SC executions are all "
                     "its executions\n"
                     "Executions 7\n"
                     "States-visited 50\n"
                     "Transitions 90\n"
                     "Discarded 2\n"
                     "Cut 4\n"
                     "Complete no\n"
                     "Incomplete: 3 paths cut by --unroll 8 (loop bound); 1 path cut by the "
                     "call-depth limit; the answer holds only up to these bounds.\n"
                     "Incomplete: the state limit was reached (--max-states)\n"
                     "Time SB 0.50\n");
    g_free(text);
}
END_TEST

START_TEST(test_text_incomplete_parts)
{
    res->total.cut_depth = 2;
    char *text = text_report();
    char *line = line_starting(text, "Incomplete");
    ck_assert_str_eq(line, "Incomplete: 2 paths cut by the call-depth limit; "
                           "the answer holds only up to these bounds.");
    g_free(line);
    g_free(text);

    res->total.cut_depth = 0;
    res->limit = LIMIT_TIME;
    text = text_report();
    line = line_starting(text, "Incomplete");
    ck_assert_str_eq(line, "Incomplete: the time limit was reached (--timeout)");
    g_free(line);
    g_free(text);
}
END_TEST

START_TEST(test_trace_lines)
{
    int64_t obj = world_intern_object(world, 1, 0, 0, -1, 0);
    int64_t arr = world_intern_object(world, 0, 0, -1, 0, 2);
    Loc val = world_field_loc(world, obj, 0);
    Loc elem = world_field_loc(world, arr, 1);
    Event trace[] = {
        /* 0 */ ev_write(0, 3, LOC_Y, 0),
        /* 1 */ ev_write(1, 5, LOC_X, 1),
        /* 2 */ ev_read(2, 11, LOC_X, 0, RF_INIT),
        /* 3 */ ev_read(2, 11, LOC_Y, 0, 0),
        /* 4 */ ev_read(2, 12, LOC_X, 1, 1),
        /* 5 */ ev_read(1, 6, LOC_Y, 2, 7),
        /* 6 */ ev_read(1, 7, LOC_X, 0, RF_PENDING),
        /* 7 */ ev_write(2, 14, LOC_Y, 2),
        /* 8 */ ev_other(EV_FLUSH, 1, 8, 1, 0),
        /* 9 */ ev_other(EV_LOCK, 1, 9, obj, 0),
        /* 10 */ ev_write(1, 9, val, -4),
        /* 11 */ ev_other(EV_UNLOCK, 1, 10, obj, 0),
        /* 12 */ ev_write(1, 10, LOC_H, obj),
        /* 13 */ ev_read(2, 15, LOC_H, 0, RF_INIT),
        /* 14 */ ev_other(EV_JOIN, 2, 15, 1, 0),
        /* 15 */ ev_read(2, 16, elem, 1, 0),
        /* 16 */ ev_other(EV_ASSERT, 2, 17, 0, 0),
        /* 17 */ ev_other(EV_ASSERT, 2, 18, 0, 1),
        /* 18 */ ev_other(EV_EXCEPTION, 1, 20, 0, EXC_ARITHMETIC),
        /* 19 */ ev_other(EV_END, 1, 20, 0, 0),
        /* 20 */ ev_read(2, 21, LOC_X, 1, 21),   /* its write is past the end */
    };
    trace[1].buffered = true;
    trace[3].is_volatile = true;
    trace[5].is_volatile = true;
    trace[5].future = true;
    trace[7].is_volatile = true;
    trace[8].loc = LOC_X;
    trace[8].value = 1;

    char *type = type_to_string(&bool_array_type);
    char *expect = g_strdup_printf(
        "  P0 L.5: W x = 1 (buffered)\n"
        "  P1 L.11: R x = 0 [INIT]\n"
        "  P1 L.11: Rv y = 0 [init L.3]\n"
        "  P1 L.12: R x = 1 [P0 L.5]\n"
        "  P0 L.6: Rv y = 2 [future P1 L.14]\n"
        "  P0 L.7: R x = 0 [pending]\n"
        "  P1 L.14: Wv y = 2\n"
        "  P0 L.8: flush x = 1\n"
        "  P0 L.9: lock Helper@P0.0\n"
        "  P0 L.9: W Helper@P0.0.val = -4\n"
        "  P0 L.10: unlock Helper@P0.0\n"
        "  P0 L.10: W h = Helper@P0.0\n"
        "  P1 L.15: R h = null [INIT]\n"
        "  P1 L.15: join P0\n"
        "  P1 L.16: R %s@init.0[1] = true [init L.3]\n"
        "  P1 L.17: assertion failed: x == 1\n"
        "  P1 L.18: assertion failed: x must be 1\n"
        "  P0 L.20: throws ArithmeticException\n"
        "  P0 L.20: end\n"
        "  P1 L.21: R x = 1\n",
        type);
    char *text = trace_text(trace, G_N_ELEMENTS(trace));
    ck_assert_str_eq(text, expect);
    g_free(text);
    g_free(expect);
    g_free(type);
}
END_TEST

/* ---- JSON report ---------------------------------------------------- */

/* The report, generated as text and parsed back. */
static JsonParser *json_round_trip(void)
{
    JsonNode *node = report_json(res);
    char *text = json_to_string(node, FALSE);
    json_node_unref(node);
    JsonParser *parser = json_parser_new();
    GError *err = NULL;
    ck_assert_msg(json_parser_load_from_data(parser, text, -1, &err), "bad JSON: %s", text);
    g_free(text);
    return parser;
}

static JsonObject *root_object(JsonParser *parser)
{
    return json_node_get_object(json_parser_get_root(parser));
}

static JsonObject *array_object(JsonObject *o, const char *member, guint i)
{
    return json_array_get_object_element(json_object_get_array_member(o, member), i);
}

START_TEST(test_json_sb)
{
    sb_result();
    JsonParser *parser = json_round_trip();
    JsonObject *root = root_object(parser);

    ck_assert_str_eq(json_object_get_string_member(root, "name"), "SB");
    ck_assert_str_eq(json_object_get_string_member(root, "model"), "sc");
    ck_assert(json_object_get_boolean_member(root, "complete"));
    ck_assert(json_object_get_null_member(root, "limit"));

    JsonArray *states = json_object_get_array_member(root, "states");
    ck_assert_uint_eq(json_array_get_length(states), 4);
    JsonObject *third = json_array_get_object_element(states, 2);
    ck_assert_uint_eq(json_object_get_size(third), 2);
    ck_assert_int_eq(json_object_get_int_member(third, "P0:r0"), 1);
    ck_assert_int_eq(json_object_get_int_member(third, "P1:r1"), 0);

    JsonObject *cond = json_object_get_object_member(root, "condition");
    ck_assert_str_eq(json_object_get_string_member(cond, "kind"), "exists");
    ck_assert_str_eq(json_object_get_string_member(cond, "text"),
                     "exists (P0:r0 == 0 && P1:r1 == 0)");
    ck_assert(json_object_get_boolean_member(cond, "validated"));
    ck_assert_int_eq(json_object_get_int_member(cond, "positive"), 1);
    ck_assert_int_eq(json_object_get_int_member(cond, "negative"), 4);

    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(root, "violations")),
                      0);

    JsonObject *stats = json_object_get_object_member(root, "stats");
    ck_assert_int_eq(json_object_get_int_member(stats, "executions"), 5);
    ck_assert_int_eq(json_object_get_int_member(stats, "states_visited"), 23);
    ck_assert_int_eq(json_object_get_int_member(stats, "transitions"), 40);
    ck_assert_int_eq(json_object_get_int_member(stats, "discarded"), 0);
    ck_assert_int_eq(json_object_get_int_member(stats, "cut"), 0);
    ck_assert_int_eq(json_object_get_int_member(stats, "unroll"), 8);
    ck_assert_double_eq_tol(json_object_get_double_member(stats, "seconds"), 0.004, 1e-9);
    ck_assert(json_object_has_member(stats, "peak_rss_kb"));
    ck_assert(!json_object_has_member(stats, "rounds"));
    ck_assert(!json_object_has_member(stats, "iterations"));
    g_object_unref(parser);
}
END_TEST

START_TEST(test_json_value_types)
{
    ast->cond_kind = CK_NONE;
    ast->cond = NULL;
    add_shown("P0:ok", &type_bool);
    add_shown("h", &helper_type);
    add_shown("P1:big", &type_long);
    int64_t obj = world_intern_object(world, 1, 0, 0, -1, 0);
    const int64_t a[] = {0, -7, 1, obj, INT64_MAX}, b[] = {0, -7, 0, 0, INT64_MIN};
    result_add_state(res, a);
    result_add_state(res, b);
    result_finish(res);

    JsonParser *parser = json_round_trip();
    JsonObject *root = root_object(parser);
    ck_assert(json_object_get_null_member(root, "condition"));

    JsonObject *s0 = array_object(root, "states", 0), *s1 = array_object(root, "states", 1);
    ck_assert_int_eq(json_object_get_int_member(s0, "P1:r1"), -7);
    ck_assert(!json_object_get_boolean_member(s0, "P0:ok"));
    ck_assert(json_object_get_null_member(s0, "h"));
    ck_assert_int_eq(json_object_get_int_member(s0, "P1:big"), INT64_MIN);
    ck_assert_int_eq(json_node_get_value_type(json_object_get_member(s1, "P0:ok")), G_TYPE_BOOLEAN);
    ck_assert(json_object_get_boolean_member(s1, "P0:ok"));
    ck_assert_str_eq(json_object_get_string_member(s1, "h"), "Helper@P0.0");
    ck_assert_int_eq(json_object_get_int_member(s1, "P1:big"), INT64_MAX);
    g_object_unref(parser);
}
END_TEST

START_TEST(test_json_violations_jmm_limit)
{
    ast->cond_kind = CK_FORALL;
    ast->cond_text = "forall (P0:r0 == 0 && P1:r1 == 0)";
    add2(1, 0);
    result_finish(res);
    res->model = "jmm";
    res->iterations = 2;
    res->writeset_size = 5;
    res->limit = LIMIT_TIME;
    res->peak_rss_kb = 1234;
    res->total = (SearchStats){.executions = 3, .cut_unroll = 2, .cut_depth = 1};
    const SearchStats rounds[] = {{.states_visited = 10, .executions = 1, .seconds = 0.25},
                                  {.states_visited = 20, .executions = 2, .seconds = 0.5}};
    g_array_append_vals(res->rounds, rounds, G_N_ELEMENTS(rounds));
    const Event trace[] = {ev_write(0, 3, LOC_X, 0), ev_write(1, 5, LOC_X, 1),
                           ev_other(EV_EXCEPTION, 1, 6, 0, EXC_NULL_POINTER)};
    result_add_violation(res, VIOL_EXCEPTION, 1, 6, "NullPointerException", trace,
                         G_N_ELEMENTS(trace));
    result_add_violation(res, VIOL_EXCEPTION, 1, 6, "NullPointerException", trace, 1);
    result_add_violation(res, VIOL_DEADLOCK, -1, 0, "deadlock", NULL, 0);

    JsonParser *parser = json_round_trip();
    JsonObject *root = root_object(parser);
    ck_assert(!json_object_get_boolean_member(root, "complete"));
    ck_assert_str_eq(json_object_get_string_member(root, "limit"), "time");
    ck_assert_str_eq(json_object_get_string_member(root, "model"), "jmm");

    JsonObject *cond = json_object_get_object_member(root, "condition");
    ck_assert_str_eq(json_object_get_string_member(cond, "kind"), "forall");
    ck_assert(!json_object_get_boolean_member(cond, "validated"));
    ck_assert_int_eq(json_object_get_int_member(cond, "negative"), 1);

    JsonObject *npe = array_object(root, "violations", 0);
    ck_assert_str_eq(json_object_get_string_member(npe, "kind"), "exception");
    ck_assert_str_eq(json_object_get_string_member(npe, "thread"), "P0");
    ck_assert_int_eq(json_object_get_int_member(npe, "line"), 6);
    ck_assert_str_eq(json_object_get_string_member(npe, "message"), "NullPointerException");
    ck_assert_int_eq(json_object_get_int_member(npe, "count"), 2);
    JsonArray *lines = json_object_get_array_member(npe, "trace");
    ck_assert_uint_eq(json_array_get_length(lines), 2);
    ck_assert_str_eq(json_array_get_string_element(lines, 0), "P0 L.5: W x = 1");
    ck_assert_str_eq(json_array_get_string_element(lines, 1),
                     "P0 L.6: throws NullPointerException");

    JsonObject *deadlock = array_object(root, "violations", 1);
    ck_assert_str_eq(json_object_get_string_member(deadlock, "kind"), "deadlock");
    ck_assert(json_object_get_null_member(deadlock, "thread"));
    ck_assert_int_eq(json_object_get_int_member(deadlock, "line"), 0);
    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(deadlock, "trace")),
                      0);

    JsonObject *stats = json_object_get_object_member(root, "stats");
    ck_assert_int_eq(json_object_get_int_member(stats, "cut"), 3);
    ck_assert_int_eq(json_object_get_int_member(stats, "cut_unroll"), 2);
    ck_assert_int_eq(json_object_get_int_member(stats, "cut_depth"), 1);
    ck_assert_int_eq(json_object_get_int_member(stats, "peak_rss_kb"), 1234);
    ck_assert_int_eq(json_object_get_int_member(stats, "iterations"), 2);
    ck_assert_int_eq(json_object_get_int_member(stats, "writeset"), 5);
    JsonObject *round = array_object(stats, "rounds", 1);
    ck_assert_int_eq(json_object_get_int_member(round, "states_visited"), 20);
    ck_assert_int_eq(json_object_get_int_member(round, "executions"), 2);
    ck_assert_double_eq_tol(json_object_get_double_member(round, "seconds"), 0.5, 1e-9);
    g_object_unref(parser);
}
END_TEST

START_TEST(test_json_limit_states)
{
    res->limit = LIMIT_STATES;
    JsonParser *parser = json_round_trip();
    ck_assert_str_eq(json_object_get_string_member(root_object(parser), "limit"), "states");
    ck_assert(!json_object_get_boolean_member(root_object(parser), "complete"));
    g_object_unref(parser);
}
END_TEST

/* ---- suite ---------------------------------------------------------- */

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *store = tcase_create("result");
    tcase_add_checked_fixture(store, setup, teardown);
    tcase_add_test(store, test_states_dedup_and_count);
    tcase_add_test(store, test_states_sorted);
    tcase_add_test(store, test_no_shown_locations);
    tcase_add_test(store, test_condition_evaluation);
    tcase_add_test(store, test_condition_on_references);
    tcase_add_loop_test(store, test_verdict_words, 0, G_N_ELEMENTS(verdicts));
    tcase_add_test(store, test_no_condition_validated);
    tcase_add_test(store, test_exit_status);
    tcase_add_test(store, test_exists_incomplete_is_not_failure);
    tcase_add_test(store, test_definite_failures_despite_cuts);
    tcase_add_test(store, test_violation_dedup);
    tcase_add_test(store, test_add_stats);
    tcase_add_test(store, test_clear_findings);
    tcase_add_test(store, test_names);
    tcase_add_test(store, test_peak_rss);
    suite_add_tcase(s, store);

    TCase *text = tcase_create("text");
    tcase_add_checked_fixture(text, setup, teardown);
    tcase_add_test(text, test_text_sb);
    tcase_add_test(text, test_text_no_condition);
    tcase_add_test(text, test_text_violation_incomplete_jmm);
    tcase_add_test(text, test_text_incomplete_parts);
    tcase_add_test(text, test_trace_lines);
    suite_add_tcase(s, text);

    TCase *json = tcase_create("json");
    tcase_add_checked_fixture(json, setup, teardown);
    tcase_add_test(json, test_json_sb);
    tcase_add_test(json, test_json_value_types);
    tcase_add_test(json, test_json_violations_jmm_limit);
    tcase_add_test(json, test_json_limit_states);
    suite_add_tcase(s, json);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(report_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
