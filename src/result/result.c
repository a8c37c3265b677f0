/* PathRelax result store: final states, condition counts, violations.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <stdio.h>
#include <string.h>

#include "pathrelax/result.h"

const char *exception_name(ExceptionKind k)
{
    switch (k) {
    case EXC_NULL_POINTER: return "NullPointerException";
    case EXC_ARRAY_INDEX: return "ArrayIndexOutOfBoundsException";
    case EXC_ARITHMETIC: return "ArithmeticException";
    case EXC_NEGATIVE_ARRAY_SIZE: return "NegativeArraySizeException";
    }
    return "Exception";
}

const char *violation_kind_name(ViolationKind k)
{
    switch (k) {
    case VIOL_ASSERT: return "assert";
    case VIOL_EXCEPTION: return "exception";
    case VIOL_DEADLOCK: return "deadlock";
    }
    return "violation";
}

static guint n_shown(const Result *r)
{
    return r->prog->ast->shown->len;
}

static size_t state_bytes(const Result *r)
{
    return n_shown(r) * sizeof(int64_t);
}

/* ---- creation and destruction --------------------------------------- */

/* The index maps a state's value tuple to its position in r->states + 1.
   Its keys borrow the tuples the FinalStates own. */
static GHashTable *new_state_index(void)
{
    return g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
                                 (GDestroyNotify)g_bytes_unref, NULL);
}

static void violation_free(Violation *v)
{
    g_free(v->message);
    g_free(v->trace);
    g_array_free(v->relaxed, TRUE);
    g_free(v);
}

static void execution_free(Execution *e)
{
    g_free(e->events);
    g_free(e->states);
    g_free(e);
}

void advice_free(Advice *a)
{
    g_free(a->text);
    g_free(a->change);
    g_free(a->reason);
    g_free(a);
}

static void race_free(Race *race)
{
    g_free(race->loc_name);
    g_free(race->trace);
    g_ptr_array_free(race->advice, TRUE);
    g_free(race);
}

Result *result_new(const Program *prog, const World *world, const char *model, int unroll)
{
    Result *r = g_new0(Result, 1);
    r->prog = prog;
    r->world = world;
    r->model = model;
    r->unroll = unroll;
    r->states = g_array_new(FALSE, FALSE, sizeof(FinalState));
    r->state_index = new_state_index();
    r->violations = g_ptr_array_new_with_free_func((GDestroyNotify)violation_free);
    r->rounds = g_array_new(FALSE, TRUE, sizeof(SearchStats));
    r->executions = g_ptr_array_new_with_free_func((GDestroyNotify)execution_free);
    r->execution_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    r->races = g_ptr_array_new_with_free_func((GDestroyNotify)race_free);
    r->cond_fail_relaxed = g_array_new(FALSE, FALSE, sizeof(StaticLoc));
    r->acquires = g_array_new(FALSE, FALSE, sizeof(Acquire));
    r->limit = LIMIT_NONE;
    return r;
}

void result_free(Result *r)
{
    if (!r)
        return;
    g_hash_table_destroy(r->state_index);
    for (guint i = 0; i < r->states->len; i++)
        g_free(g_array_index(r->states, FinalState, i).values);
    g_array_free(r->states, TRUE);
    g_ptr_array_free(r->violations, TRUE);
    g_array_free(r->rounds, TRUE);
    g_ptr_array_free(r->executions, TRUE);
    g_hash_table_destroy(r->execution_index);
    g_ptr_array_free(r->races, TRUE);
    world_free(r->races_world);
    g_array_free(r->cond_fail_relaxed, TRUE);
    g_array_free(r->acquires, TRUE);
    g_free(r);
}

/* ---- the condition -------------------------------------------------- */

static bool compare(Operator op, int64_t a, int64_t b)
{
    switch (op) {
    case OPR_EQ: return a == b;
    case OPR_NE: return a != b;
    case OPR_LT: return a < b;
    case OPR_LE: return a <= b;
    case OPR_GT: return a > b;
    case OPR_GE: return a >= b;
    default: return false;
    }
}

/* References are object ids with null as 0, and the checker stores null as
   the value 0, so == null and != null need no case of their own. */
static bool cond_holds(const CondExpr *e, const GPtrArray *shown, const int64_t *values)
{
    const CondLoc *loc;
    switch (e->kind) {
    case CE_CMP:
        /* An undefined location satisfies no comparison. */
        loc = g_ptr_array_index(shown, e->loc);
        return !world_value_undefined(loc->type, values[e->loc]) &&
               compare(e->op, values[e->loc], e->value);
    case CE_AND: return cond_holds(e->a, shown, values) && cond_holds(e->b, shown, values);
    case CE_OR: return cond_holds(e->a, shown, values) || cond_holds(e->b, shown, values);
    case CE_NOT: return !cond_holds(e->a, shown, values);
    case CE_TRUE: return true;
    }
    return false;
}

bool result_state_satisfies(const Result *r, const int64_t *values)
{
    const CondExpr *cond = r->prog->ast->cond;
    return cond == NULL || cond_holds(cond, r->prog->ast->shown, values);
}

bool result_validated(const Result *r)
{
    switch (r->prog->ast->cond_kind) {
    case CK_EXISTS: return r->positive > 0;
    case CK_NOT_EXISTS: return r->positive == 0;
    case CK_FORALL: return r->negative == 0;
    case CK_NONE: return true;
    }
    return true;
}

/* ---- final states --------------------------------------------------- */

/* Indexes the state at position i of r->states. */
static void index_state(Result *r, guint i)
{
    const FinalState *s = &g_array_index(r->states, FinalState, i);
    g_hash_table_insert(r->state_index, g_bytes_new_static(s->values, state_bytes(r)),
                        GUINT_TO_POINTER(i + 1));
}

void result_add_state(Result *r, const int64_t *values)
{
    GBytes *key = g_bytes_new_static(values, state_bytes(r));
    guint position = GPOINTER_TO_UINT(g_hash_table_lookup(r->state_index, key));
    g_bytes_unref(key);

    if (position > 0) {
        g_array_index(r->states, FinalState, position - 1).count++;
    } else {
        FinalState s = {g_memdup2(values, state_bytes(r)), 1};
        g_array_append_val(r->states, s);
        index_state(r, r->states->len - 1);
    }

    if (r->prog->ast->cond_kind == CK_NONE)
        return;
    if (result_state_satisfies(r, values))
        r->positive++;
    else
        r->negative++;
}

static gint compare_states(gconstpointer pa, gconstpointer pb, gpointer width)
{
    const FinalState *a = pa, *b = pb;
    for (guint i = 0; i < GPOINTER_TO_UINT(width); i++) {
        if (a->values[i] != b->values[i])
            return a->values[i] < b->values[i] ? -1 : 1;
    }
    return 0;
}

void result_finish(Result *r)
{
    g_array_sort_with_data(r->states, compare_states, GUINT_TO_POINTER(n_shown(r)));

    /* Positions moved: index the sorted array afresh. */
    g_hash_table_remove_all(r->state_index);
    for (guint i = 0; i < r->states->len; i++)
        index_state(r, i);
}

/* ---- violations ----------------------------------------------------- */

static Violation *find_violation(const Result *r, ViolationKind kind, int tid, int line,
                                 const char *message)
{
    for (guint i = 0; i < r->violations->len; i++) {
        Violation *v = g_ptr_array_index(r->violations, i);
        if (v->kind == kind && v->tid == tid && v->line == line
            && strcmp(v->message, message) == 0)
            return v;
    }
    return NULL;
}

Violation *result_add_violation(Result *r, ViolationKind kind, int tid, int line,
                                const char *message, const Event *trace, size_t trace_len)
{
    Violation *v = find_violation(r, kind, tid, line, message);
    if (v) {
        v->count++;
        return v;
    }
    v = g_new0(Violation, 1);
    v->kind = kind;
    v->tid = tid;
    v->line = line;
    v->message = g_strdup(message);
    v->trace = g_memdup2(trace, trace_len * sizeof(Event));
    v->trace_len = trace_len;
    v->count = 1;
    v->relaxed = g_array_new(FALSE, FALSE, sizeof(StaticLoc));
    g_ptr_array_add(r->violations, v);
    return v;
}

/* ---- figures and rounds --------------------------------------------- */

void result_add_stats(Result *r, const SearchStats *s)
{
    SearchStats *t = &r->total;
    t->executions += s->executions;
    t->states_visited += s->states_visited;
    t->transitions += s->transitions;
    t->discarded += s->discarded;
    t->cut_unroll += s->cut_unroll;
    t->cut_depth += s->cut_depth;
    t->cut_size += s->cut_size;
    t->seconds += s->seconds;
}

void result_clear_findings(Result *r)
{
    g_hash_table_remove_all(r->state_index);
    for (guint i = 0; i < r->states->len; i++)
        g_free(g_array_index(r->states, FinalState, i).values);
    g_array_set_size(r->states, 0);
    r->positive = 0;
    r->negative = 0;
    g_ptr_array_set_size(r->violations, 0);
    g_ptr_array_set_size(r->executions, 0);
    g_hash_table_remove_all(r->execution_index);
    g_array_set_size(r->cond_fail_relaxed, 0);
}

/* ---- verdicts ------------------------------------------------------- */

bool result_complete(const Result *r)
{
    return search_stats_cut(&r->total) == 0 && r->limit == LIMIT_NONE;
}

/* An exists that found nothing fails definitely only when the search was
   complete: with larger bounds it might still find a witness. */
static bool condition_definitely_fails(const Result *r)
{
    switch (r->prog->ast->cond_kind) {
    case CK_EXISTS: return r->positive == 0 && result_complete(r);
    case CK_NOT_EXISTS: return r->positive > 0;
    case CK_FORALL: return r->negative > 0;
    case CK_NONE: return false;
    }
    return false;
}

int result_exit_status(const Result *r)
{
    if (r->violations->len > 0 || condition_definitely_fails(r))
        return 1;
    return result_complete(r) ? 0 : 3;
}

void peak_rss_reset(void)
{
    /* Writing 5 to clear_refs resets the peak (VmHWM) to the current size
       (Linux 4.0 and later); elsewhere the peak stays process-wide. */
    FILE *refs = fopen("/proc/self/clear_refs", "w");
    if (refs) {
        fputs("5", refs);
        fclose(refs);
    }
}

size_t peak_rss_kb(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    if (!status)
        return 0;
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, status)) {
        if (sscanf(line, "VmHWM: %zu kB", &kb) == 1)
            break;
    }
    fclose(status);
    return kb;
}

/* What makes an execution: each thread's actions in program order, and
   for each read the action it saw, named by (thread, position in that
   thread). The interleaving, flushes, and which reads happened before
   their write in the path do not. */
static char *execution_signature(const Result *r, const Event *events, size_t len)
{
    int n_tids = r->world->n_tids;
    int32_t *pos = g_new(int32_t, len + 1);
    int32_t *per_thread = g_new0(int32_t, n_tids);
    for (size_t i = 0; i < len; i++)
        pos[i] = events[i].kind == EV_FLUSH ? -1 : per_thread[events[i].tid]++;
    GString *sig = g_string_new(NULL);
    for (int t = 0; t < n_tids; t++) {
        for (size_t i = 0; i < len; i++) {
            const Event *ev = &events[i];
            if (ev->tid != t || ev->kind == EV_FLUSH)
                continue;
            /* arg names a lock's object or a joined thread; on a read it
               is the model's bookkeeping, not part of the action. */
            gint64 arg = ev->kind == EV_READ ? 0 : (gint64)ev->arg;
            g_string_append_printf(sig, "%d,%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, ev->kind,
                                   ev->loc, (gint64)ev->value, arg);
            if (ev->kind == EV_READ && ev->rf >= 0)
                g_string_append_printf(sig, "<%d.%d", events[ev->rf].tid, pos[ev->rf]);
            g_string_append_c(sig, ';');
        }
        g_string_append_c(sig, '|');
    }
    g_free(pos);
    g_free(per_thread);
    return g_string_free(sig, FALSE);
}

void result_add_execution(Result *r, const Event *events, size_t len, const int64_t *states,
                          guint n_states)
{
    char *sig = execution_signature(r, events, len);
    if (g_hash_table_contains(r->execution_index, sig)) {
        g_free(sig);
        return;
    }
    g_hash_table_add(r->execution_index, sig);
    Execution *e = g_new0(Execution, 1);
    e->events = g_memdup2(events, sizeof(Event) * len);
    e->len = len;
    e->states = g_memdup2(states, sizeof(int64_t) * n_states * r->prog->ast->shown->len);
    e->n_states = n_states;
    g_ptr_array_add(r->executions, e);
}

static bool same_access(RaceAccess a, RaceAccess b)
{
    return a.line == b.line && a.is_write == b.is_write;
}

void result_add_race(Result *r, StaticLoc s, RaceAccess a, RaceAccess b, const Event *trace,
                     size_t trace_len)
{
    /* The write is the source; of two writes, the earlier. */
    RaceAccess source = a.is_write ? a : b;
    RaceAccess manifest = a.is_write ? b : a;
    for (guint i = 0; i < r->races->len; i++) {
        const Race *old = g_ptr_array_index(r->races, i);
        if (old->loc != s)
            continue;
        if ((same_access(old->source, source) && same_access(old->manifest, manifest)) ||
            (same_access(old->source, manifest) && same_access(old->manifest, source)))
            return;
    }
    Race *race = g_new0(Race, 1);
    race->loc = s;
    race->loc_name = world_static_loc_name(r->world, s);
    race->source = source;
    race->manifest = manifest;
    race->trace = g_memdup2(trace, sizeof(Event) * trace_len);
    race->trace_len = trace_len;
    race->advice = g_ptr_array_new_with_free_func((GDestroyNotify)advice_free);
    g_ptr_array_add(r->races, race);
}

const char *race_class_name(RaceClass c)
{
    switch (c) {
    case RACE_BENIGN: return "benign";
    case RACE_DESTRUCTIVE: return "destructive";
    case RACE_UNDECIDED: return "undecided";
    case RACE_UNCLASSIFIED: break;
    }
    return "unclassified";
}

bool relaxed_has(const GArray *set, StaticLoc s)
{
    for (guint i = 0; i < set->len; i++)
        if (g_array_index(set, StaticLoc, i) == s)
            return true;
    return false;
}

void relaxed_add(GArray *set, const StaticLoc *locs, guint n)
{
    for (guint i = 0; i < n; i++)
        if (!relaxed_has(set, locs[i]))
            g_array_append_val(set, locs[i]);
}


bool result_has_acquire(const Result *r, Acquire a)
{
    for (guint i = 0; i < r->acquires->len; i++) {
        const Acquire *b = &g_array_index(r->acquires, Acquire, i);
        if (b->loc == a.loc && b->kind == a.kind && b->target == a.target)
            return true;
    }
    return false;
}

void result_add_acquire(Result *r, Acquire a)
{
    if (!result_has_acquire(r, a))
        g_array_append_val(r->acquires, a);
}
