/* PathRelax text report: herd7-shaped states and verdict, violation traces, figures.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <inttypes.h>

#include "pathrelax/report.h"

/* ---- trace lines ---------------------------------------------------- */

/* Which write a read saw. */
static void append_read_source(GString *out, const World *w, const Event *trace,
                               size_t len, const Event *ev)
{
    if (ev->rf == RF_INIT) {
        g_string_append(out, " [INIT]");
    } else if (ev->rf == RF_PENDING) {
        g_string_append(out, " [pending]");
    } else if ((size_t)ev->rf < len) {
        /* A future write beyond the end of a shortened trace has no line
           to name, hence the bound. */
        const Event *write = &trace[ev->rf];
        g_string_append_printf(out, " [%s%s L.%d]", ev->future ? "future " : "",
                               world_thread_name(w, write->tid), write->line);
    }
}

/* The action, as listings print it, and for a read the write it saw. */
static void append_action(GString *out, const Result *r, const Event *trace, size_t len,
                          const Event *ev)
{
    report_action_text(out, r, ev);
    if (ev->kind == EV_READ)
        append_read_source(out, r->world, trace, len, ev);
}

void report_trace(GString *out, const Result *r, const Event *trace, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const Event *ev = &trace[i];
        if (ev->tid == 0)   /* the initial thread's set-up is not shown */
            continue;
        g_string_append_printf(out, "  %s L.%d: ", world_thread_name(r->world, ev->tid),
                               ev->line);
        append_action(out, r, trace, len, ev);
        g_string_append_c(out, '\n');
    }
}

/* ---- states and verdict --------------------------------------------- */

/* herd's pp_kind */
static const char *test_kind_word(CondKind kind)
{
    switch (kind) {
    case CK_EXISTS: return "Allowed";
    case CK_NOT_EXISTS: return "Forbidden";
    case CK_FORALL: return "Required";
    case CK_NONE: return "Final";
    }
    return "Final";
}

static const char *observation_word(uint64_t positive, uint64_t negative)
{
    if (positive == 0)
        return "Never";
    return negative == 0 ? "Always" : "Sometimes";
}

/* "T0:r0=1; x=0;" */
void report_state_line(GString *out, const Result *r, const int64_t *values)
{
    const GPtrArray *shown = r->prog->ast->shown;
    for (guint i = 0; i < shown->len; i++) {
        const CondLoc *loc = g_ptr_array_index(shown, i);
        char *value = world_value_string(r->world, loc->type, values[i]);
        g_string_append_printf(out, "%s%s=%s;", i > 0 ? " " : "", loc->text, value);
        g_free(value);
    }
}

static void append_states(GString *out, const Result *r)
{
    const Ast *ast = r->prog->ast;
    g_string_append_printf(out, "Test %s %s\n", ast->name, test_kind_word(ast->cond_kind));
    g_string_append_printf(out, "States %u\n", r->states->len);
    for (guint i = 0; i < r->states->len; i++) {
        report_state_line(out, r, g_array_index(r->states, FinalState, i).values);
        g_string_append_c(out, '\n');
    }
}

static void append_verdict(GString *out, const Result *r)
{
    const Ast *ast = r->prog->ast;
    g_string_append(out, result_validated(r) ? "Ok\n" : "No\n");
    g_string_append(out, "Witnesses\n");
    g_string_append_printf(out, "Positive: %" PRIu64 " Negative: %" PRIu64 "\n",
                           r->positive, r->negative);
    g_string_append_printf(out, "Condition %s\n", ast->cond_text);
    g_string_append_printf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", ast->name,
                           observation_word(r->positive, r->negative), r->positive,
                           r->negative);
}

/* ---- violations ----------------------------------------------------- */

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static void append_violation(GString *out, const Result *r, const Violation *v)
{
    g_string_append_printf(out, "Violation %s", violation_kind_name(v->kind));
    if (v->kind != VIOL_DEADLOCK)
        g_string_append_printf(out, " %s line %d", world_thread_name(r->world, v->tid),
                               v->line);
    g_string_append_printf(out, ": %s (seen in %" PRIu64 " execution%s)\n", v->message,
                           v->count, plural(v->count));
    report_trace(out, r, v->trace, v->trace_len);
}

static void append_violations(GString *out, const Result *r)
{
    g_string_append_printf(out, "Violations %u\n", r->violations->len);
    for (guint i = 0; i < r->violations->len; i++)
        append_violation(out, r, g_ptr_array_index(r->violations, i));
}

/* ---- figures -------------------------------------------------------- */

static void append_model(GString *out, const Result *r)
{
    g_string_append_printf(out, "Model %s\n", r->model);
    if (r->iterations > 0) {
        g_string_append_printf(out, "Rounds %d\n", r->iterations);
        g_string_append_printf(out, "WriteSet %" PRIu64 "\n", r->writeset_size);
    }
    if (r->drf_shortcut)
        g_string_append(out, "DRF yes: the program is data-race free, so its SC executions "
                             "are all its executions\n");
}

/* "Incomplete: 2 paths cut by --unroll 8 (loop bound); ..." naming only
   the bounds that cut something. */
static void append_cut_line(GString *out, const Result *r)
{
    const SearchStats *t = &r->total;
    if (search_stats_cut(t) == 0)
        return;
    g_string_append(out, "Incomplete: ");
    if (t->cut_unroll > 0)
        g_string_append_printf(out, "%" PRIu64 " path%s cut by --unroll %d (loop bound); ",
                               t->cut_unroll, plural(t->cut_unroll), r->unroll);
    if (t->cut_depth > 0)
        g_string_append_printf(out, "%" PRIu64 " path%s cut by the call-depth limit; ",
                               t->cut_depth, plural(t->cut_depth));
    if (t->cut_size > 0)
        g_string_append_printf(out, "%" PRIu64 " path%s cut by the array-size limit; ",
                               t->cut_size, plural(t->cut_size));
    g_string_append(out, "the answer holds only up to these bounds.\n");
}

static void append_limit_line(GString *out, LimitHit limit)
{
    switch (limit) {
    case LIMIT_STATES:
        g_string_append(out, "Incomplete: the state limit was reached (--max-states)\n");
        break;
    case LIMIT_TIME:
        g_string_append(out, "Incomplete: the time limit was reached (--timeout)\n");
        break;
    case LIMIT_MEMORY:
        g_string_append(out, "Incomplete: the memory limit was reached (--max-memory)\n");
        break;
    case LIMIT_VIOLATION:
        g_string_append(out, "Incomplete: stopped at the first violation (--stop-on-violation)\n");
        break;
    case LIMIT_NONE:
        break;
    }
}

static void append_figures(GString *out, const Result *r)
{
    const SearchStats *t = &r->total;
    append_model(out, r);
    g_string_append_printf(out, "Executions %" PRIu64 "\n", t->executions);
    g_string_append_printf(out, "States-visited %" PRIu64 "\n", t->states_visited);
    g_string_append_printf(out, "Transitions %" PRIu64 "\n", t->transitions);
    g_string_append_printf(out, "Discarded %" PRIu64 "\n", t->discarded);
    g_string_append_printf(out, "Cut %" PRIu64 "\n", search_stats_cut(t));
    g_string_append_printf(out, "Complete %s\n", result_complete(r) ? "yes" : "no");
    append_cut_line(out, r);
    append_limit_line(out, r->limit);
    g_string_append_printf(out, "Time %s %.2f\n", r->prog->ast->name, t->seconds);
}

void report_text(GString *out, const Result *r)
{
    append_states(out, r);
    if (r->prog->ast->cond_kind != CK_NONE)
        append_verdict(out, r);
    if (r->races_checked && r->races->len > 0)
        g_string_append(out, "Flag data-race\n");
    append_violations(out, r);
    report_races_text(out, r);
    append_figures(out, r);
}
