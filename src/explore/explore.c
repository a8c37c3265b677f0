/* The search: depth-first over choice points with state matching.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * A choice point is a state where several transitions are enabled: a
 * thread's next visible action (one transition per value a read may see),
 * or a model-internal step. Backtracking restores a level's thread
 * snapshot and undoes the shared trail to the level's mark.
 */
#include "machine.h"
#include "visited.h"

typedef struct {
    int32_t tid;      /* thread, or -1 for a model move */
    ReadChoice choice;
    ModelMove move;
} Transition;

typedef struct {
    uint32_t visited_entry;  /* the level's state in the visited set */
    uint32_t visited_ctr;    /* its loop counters as stored when entered */
    size_t trail_mark;
    size_t events_len;
    guint held_len;
    guint snap_off;
    guint tr_off;
    int tr_count;
    int next;
    int moved;               /* the thread the last transition tried moved,
                                -1 for a model move (no thread changed) */
} Level;

typedef struct {
    Machine mc;
    const ExploreConfig *cfg;
    Result *r;
    SearchStats *stats;
    Visited visited;
    KeyBuf key;
    GArray *counters;
    GArray *levels;       /* Level */
    GArray *transitions;  /* Transition, for every level on the stack */
    GArray *snapshots;    /* int64, thread snapshots of every level */
    ReadChoice *choices;
    int choices_cap;
    ModelMove *moves;
    int moves_cap;
    GArray **shown_vals;   /* per shown location: its final values */
    GArray *step_scratch;
    int64_t *final_scratch; /* for the model's final_values */
    int final_cap;
    GArray *unroll_cuts;   /* Level copies: the states where --unroll cut */
    GArray *exec_states;   /* int64: the final states of the current path */
    GArray *exec_pos;      /* int32 scratch for key_execution */
    GArray *relaxed;       /* StaticLoc scratch for relaxed_reads */
    int64_t *state_values; /* record_states: one final state */
    guint *state_pick;     /* record_states: which value of each location */
    int32_t *per_thread;   /* key_execution: events per thread */
} Search;

/* ---- transitions ------------------------------------------------------ */

/* Appends the transitions enabled now; false when the state is a dead end
   the model rules out (a read that can see no value). */
static bool add_transitions(Search *s)
{
    Machine *mc = &s->mc;
    for (int t = 0; t < mc->n_tids; t++) {
        int n = machine_thread_options(mc, t, &s->choices, &s->choices_cap);
        if (n == MACHINE_NO_VALUE)
            return false;
        for (int i = 0; i < n; i++) {
            Transition tr = {.tid = t, .choice = s->choices[i]};
            g_array_append_val(s->transitions, tr);
        }
    }
    if (!mc->ops->moves)
        return true;
    int n = mc->ops->moves(mc->model, s->moves, s->moves_cap);
    if (n > s->moves_cap) {
        s->moves_cap = n * 2;
        s->moves = g_renew(ModelMove, s->moves, s->moves_cap);
        n = mc->ops->moves(mc->model, s->moves, s->moves_cap);
    }
    for (int i = 0; i < n; i++) {
        Transition tr = {.tid = -1, .move = s->moves[i]};
        g_array_append_val(s->transitions, tr);
    }
    return true;
}

static void append_final_values(Search *s, Loc loc, GArray *out)
{
    Machine *mc = &s->mc;
    int n = mc->ops->final_values(mc->model, loc, s->final_scratch, s->final_cap);
    if (n > s->final_cap) {
        s->final_cap = n * 2;
        s->final_scratch = g_renew(int64_t, s->final_scratch, s->final_cap);
        n = mc->ops->final_values(mc->model, loc, s->final_scratch, s->final_cap);
    }
    g_array_append_vals(out, s->final_scratch, (guint)n);
}

static StepResult apply(Search *s, const Transition *tr)
{
    Machine *mc = &s->mc;
    if (tr->tid >= 0)
        return machine_step(mc, tr->tid, &tr->choice);
    Event *ev = machine_event(mc, EV_FLUSH, tr->move.tid, 0);
    ev->loc = tr->move.loc;
    mc->ops->apply_move(mc->model, &tr->move, ev);
    return STEP_OK;
}

/* ---- path ends ---------------------------------------------------------- */

static char *violation_message(const Machine *mc, const PathViolation *v)
{
    switch (v->kind) {
    case VIOL_ASSERT: {
        const CAssert *a = &mc->prog->asserts[v->detail];
        if (a->message)
            return g_strdup_printf("assertion failed: %s", a->message);
        return g_strdup_printf("assertion failed: %s", a->text);
    }
    case VIOL_EXCEPTION:
        return g_strdup(exception_name((ExceptionKind)v->detail));
    case VIOL_DEADLOCK:
        break;
    }
    return g_strdup("deadlock: no thread can move");
}

/* The static locations that a read on the path so far saw other than as
   sc would: not the last write to the location before it in the path. */
static void relaxed_reads(Search *s, GArray *out)
{
    const EventLog *log = s->mc.events;
    g_array_set_size(out, 0);
    for (size_t i = 0; i < log->len; i++) {
        const Event *ev = &log->v[i];
        if (ev->kind != EV_READ || ev->is_volatile)
            continue;
        int32_t last = RF_INIT;
        for (size_t j = i; j-- > 0;) {
            if (log->v[j].kind == EV_WRITE && log->v[j].loc == ev->loc) {
                last = (int32_t)j;
                break;
            }
        }
        if (ev->rf != last) {
            StaticLoc loc = world_static_loc(s->mc.world, ev->loc);
            relaxed_add(out, &loc, 1);
        }
    }
}

static void report_violation(Search *s, const PathViolation *v, size_t trace_len)
{
    char *msg = violation_message(&s->mc, v);
    Violation *rec = result_add_violation(s->r, v->kind, v->tid, v->line, msg, s->mc.events->v, trace_len);
    g_free(msg);
    if (s->cfg->tag_relaxed_reads) {
        relaxed_reads(s, s->relaxed);
        relaxed_add(rec->relaxed, (const StaticLoc *)(const void *)s->relaxed->data, s->relaxed->len);
    }
}

/* Reports the path's violations from index from on: as they happen, with
   the trace up to that point, or at the path's end when the model holds
   them, with the whole path. */
static void report_violations(Search *s, guint from)
{
    for (guint i = from; i < s->mc.held->len; i++) {
        const PathViolation *v = &g_array_index(s->mc.held, PathViolation, i);
        report_violation(s, v, s->mc.ops->holds_violations ? s->mc.events->len : v->at);
    }
}

/* The values a shown location may have at this path's end: a register's
   one value, or each value the model allows a global (several under jmm),
   then followed through the location's .f and [k] steps. */
static void shown_values(Search *s, const CondLoc *cl, GArray *out)
{
    Machine *mc = &s->mc;
    g_array_set_size(out, 0);
    if (cl->is_register) {
        int64_t v = machine_register(mc, cl->thread_index + 1, cl->reg_slot);
        g_array_append_val(out, v);
    } else {
        append_final_values(s, cl->global_index, out);
    }
    GArray *next = s->step_scratch;
    for (guint st = 0; cl->steps && st < cl->steps->len; st++) {
        const LocStep *step = &g_array_index(cl->steps, LocStep, st);
        g_array_set_size(next, 0);
        for (guint i = 0; i < out->len; i++) {
            int64_t obj = g_array_index(out, int64_t, i);
            int64_t index = step->kind == LOCSTEP_FIELD ? step->field_index : step->index;
            if (obj <= 0 || obj >= mc->world->n_objs || index < 0 ||
                index >= world_obj_size(mc->world, obj)) {
                int64_t none = VALUE_UNDEFINED; /* through null or out of bounds */
                g_array_append_val(next, none);
                continue;
            }
            append_final_values(s, world_field_loc(mc->world, obj, (int)index), next);
        }
        g_array_set_size(out, 0);
        g_array_append_vals(out, next->data, next->len);
    }
}

/* A final state that makes the condition fail: one that satisfies a
   ~exists, or one that does not satisfy a forall. */
static bool condition_fails_on(const Result *r, const int64_t *values)
{
    CondKind k = r->prog->ast->cond_kind;
    if (k == CK_NOT_EXISTS)
        return result_state_satisfies(r, values);
    if (k == CK_FORALL)
        return !result_state_satisfies(r, values);
    return false;
}

/* Records every combination of the shown locations' final values, and
   with --list-executions the execution itself. */
static void record_states(Search *s)
{
    const GPtrArray *shown = s->mc.prog->ast->shown;
    guint n = shown->len;
    for (guint i = 0; i < n; i++)
        shown_values(s, g_ptr_array_index(shown, i), s->shown_vals[i]);
    int64_t *values = s->state_values;
    guint *pick = s->state_pick;
    for (guint i = 0; i < n; i++)
        pick[i] = 0;
    for (;;) {
        for (guint i = 0; i < n; i++)
            values[i] = g_array_index(s->shown_vals[i], int64_t, pick[i]);
        result_add_state(s->r, values);
        if (s->cfg->tag_relaxed_reads && condition_fails_on(s->r, values)) {
            relaxed_reads(s, s->relaxed);
            relaxed_add(s->r->cond_fail_relaxed, (const StaticLoc *)(const void *)s->relaxed->data,
                        s->relaxed->len);
        }
        if (s->r->list_executions)
            g_array_append_vals(s->exec_states, values, n);
        guint i = 0;
        while (i < n && ++pick[i] == s->shown_vals[i]->len)
            pick[i++] = 0;
        if (i == n)
            break;
    }
    if (s->r->list_executions) {
        guint n_states = n ? s->exec_states->len / n : 1;
        result_add_execution(s->r, s->mc.events->v, s->mc.events->len,
                             (const int64_t *)(const void *)s->exec_states->data, n_states);
        g_array_set_size(s->exec_states, 0);
    }
}

/* The model resolved each read of a future write to that write's event
   (for the reports of this path); the events stay on the trace for the
   paths that share its prefix, so the resolution is taken back. */
static void unresolve_future_reads(EventLog *log)
{
    for (size_t i = 0; i < log->len; i++)
        if (log->v[i].kind == EV_READ && log->v[i].future)
            log->v[i].rf = RF_PENDING;
}

static void path_end(Search *s, bool all_done)
{
    Machine *mc = &s->mc;
    if (!mc->ops->path_end(mc->model)) {
        s->stats->discarded++;
        return;
    }
    if (mc->ops->holds_violations)
        report_violations(s, 0);
    if (!all_done) {
        PathViolation v = {VIOL_DEADLOCK, -1, 0, 0, mc->events->len};
        report_violation(s, &v, mc->events->len);
    } else {
        s->stats->executions++;
        record_states(s);
    }
    unresolve_future_reads(mc->events);
}

/* ---- the depth-first search ---------------------------------------------- */

/* A path stopped before its end. An unroll cut is settled when the search
   ends (see settle_unroll_cuts); the others count now. */
static void count_stop(Search *s, StepResult r, const Level *from)
{
    switch (r) {
    case STEP_OK: break;
    case STEP_DISCARD: s->stats->discarded++; break;
    case STEP_CUT_UNROLL:
        if (from)
            g_array_append_val(s->unroll_cuts, *from);
        else
            s->stats->cut_unroll++;
        break;
    case STEP_CUT_DEPTH: s->stats->cut_depth++; break;
    case STEP_CUT_SIZE: s->stats->cut_size++; break;
    }
}

/* Memory the search holds: the visited states and the stack of levels. */
static size_t search_bytes(const Search *s)
{
    return visited_bytes(&s->visited) + s->snapshots->len * sizeof(int64_t) +
           s->transitions->len * sizeof(Transition) + s->levels->len * sizeof(Level);
}

static bool limit_reached(Search *s)
{
    if (s->cfg->max_states && s->stats->states_visited >= s->cfg->max_states) {
        s->r->limit = LIMIT_STATES;
        return true;
    }
    if (s->cfg->stop_on_violation && s->r->violations->len > 0) {
        s->r->limit = LIMIT_VIOLATION;
        return true;
    }
    if ((s->cfg->max_memory_mb && (s->stats->transitions & 255) == 0 &&
         search_bytes(s) > s->cfg->max_memory_mb << 20) ||
        visited_nearly_full(&s->visited)) {
        s->r->limit = LIMIT_MEMORY;
        return true;
    }
    /* The clock is read every 1024 transitions: cheap, and fine-grained
       enough. */
    if (s->cfg->deadline > 0 && (s->stats->transitions & 1023) == 0 &&
        g_get_monotonic_time() / 1e6 > s->cfg->deadline) {
        s->r->limit = LIMIT_TIME;
        return true;
    }
    return false;
}

static bool all_threads_done(const Machine *mc)
{
    for (int t = 0; t < mc->n_tids; t++) {
        int st = machine_status(mc, t);
        if (st != TS_ENDED && st != TS_DEAD)
            return false;
    }
    return true;
}

/* With --list-executions, two paths are one state only if they are one
   execution so far: the same actions per thread, each read seeing the same
   write, each lock following the same unlock. So the key gets each
   thread's actions in order, with the source of each read and lock named
   by (thread, position in that thread); interleavings of one execution
   still meet. */
static int32_t previous_unlock(const EventLog *log, size_t lock)
{
    for (size_t i = lock; i-- > 0;)
        if (log->v[i].kind == EV_UNLOCK && log->v[i].arg == log->v[lock].arg)
            return (int32_t)i;
    return -1;
}

static void key_execution(Search *s)
{
    const EventLog *log = s->mc.events;
    int n_tids = s->mc.n_tids;
    GArray *pos = s->exec_pos;  /* event -> position in its thread */
    g_array_set_size(pos, (guint)log->len);
    int32_t *per_thread = s->per_thread;
    for (int t = 0; t < n_tids; t++)
        per_thread[t] = 0;
    for (size_t i = 0; i < log->len; i++)
        g_array_index(pos, int32_t, i) = per_thread[log->v[i].tid]++;
    for (int t = 0; t < n_tids; t++) {
        for (size_t i = 0; i < log->len; i++) {
            const Event *ev = &log->v[i];
            if (ev->tid != t)
                continue;
            key_put(&s->key, ev->kind);
            key_put(&s->key, ev->loc);
            key_put(&s->key, ev->value);
            int32_t src = ev->kind == EV_READ ? ev->rf : ev->kind == EV_LOCK ? previous_unlock(log, i) : -1;
            if (src >= 0) {
                key_put(&s->key, log->v[src].tid);
                key_put(&s->key, g_array_index(pos, int32_t, src));
            } else {
                key_put(&s->key, src);
            }
        }
        key_put(&s->key, -1);
    }
}

/* A new state: report what happened on the way, match it, and either end
   the path or push a level with its transitions. */
static void enter_state(Search *s, guint held_before)
{
    Machine *mc = &s->mc;
    if (!mc->ops->holds_violations)
        report_violations(s, held_before);

    s->key.len = 0;
    g_array_set_size(s->counters, 0);
    machine_key(mc, &s->key, s->counters);
    mc->ops->key(mc->model, &s->key);
    if (s->r->list_executions)
        key_execution(s);
    uint32_t entry, ctr_off;
    if (visited_check_insert(&s->visited, s->key.data, s->key.len, s->counters, &entry, &ctr_off))
        return;
    s->stats->states_visited++;

    guint tr_off = s->transitions->len;
    if (!add_transitions(s)) {
        g_array_set_size(s->transitions, tr_off);
        s->stats->discarded++;
        return;
    }
    int count = (int)(s->transitions->len - tr_off);
    if (count == 0) {
        path_end(s, all_threads_done(mc));
        return;
    }
    Level lv = {
        .visited_entry = entry,
        .visited_ctr = ctr_off,
        .trail_mark = trail_mark(mc->trail),
        .events_len = mc->events->len,
        .held_len = mc->held->len,
        .snap_off = s->snapshots->len,
        .tr_off = tr_off,
        .tr_count = count,
        .next = 0,
        .moved = -1,
    };
    machine_snapshot(mc, s->snapshots);
    g_array_append_val(s->levels, lv);
}

static void restore_level(Search *s, const Level *lv)
{
    Machine *mc = &s->mc;
    trail_undo(mc->trail, lv->trail_mark);
    mc->events->len = lv->events_len;
    g_array_set_size(mc->held, lv->held_len);
    /* Only the thread that moved needs its words back; when the initial
       thread moved, it may have started every other one. */
    if (lv->moved != -1)
        machine_restore(mc, s->snapshots, lv->snap_off, lv->moved == 0 ? -1 : lv->moved);
}

static void search(Search *s)
{
    Machine *mc = &s->mc;
    StepResult r = machine_start(mc);
    if (r != STEP_OK) {
        count_stop(s, r, NULL);
        return;
    }
    enter_state(s, 0);
    while (s->levels->len > 0) {
        Level *lv = &g_array_index(s->levels, Level, s->levels->len - 1);
        if (lv->next > 0)
            restore_level(s, lv);
        if (lv->next == lv->tr_count) {
            g_array_set_size(s->transitions, lv->tr_off);
            g_array_set_size(s->snapshots, lv->snap_off);
            g_array_set_size(s->levels, s->levels->len - 1);
            continue;
        }
        Transition tr = g_array_index(s->transitions, Transition, lv->tr_off + lv->next);
        lv->next++;
        lv->moved = tr.tid;
        guint held_before = mc->held->len;
        s->stats->transitions++;
        r = apply(s, &tr);
        if (r != STEP_OK) {
            if (!mc->ops->holds_violations)
                report_violations(s, held_before);
            count_stop(s, r, lv);
            continue;
        }
        /* The new state first: a violation its step found is reported
           even when a limit then ends the search. */
        enter_state(s, held_before);
        if (limit_reached(s))
            break;
    }
}

/* DFS may reach a state first with more loop iterations behind it than
   another path has, and cut a loop there; when the state is explored again
   later with every counter at or below the cut's, that exploration takes
   the same step within the bound and covers the cut path. Only the cuts
   not covered so count. */
static void settle_unroll_cuts(Search *s)
{
    for (guint i = 0; i < s->unroll_cuts->len; i++) {
        const Level *lv = &g_array_index(s->unroll_cuts, Level, i);
        if (!visited_reexplored_with_more_budget(&s->visited, lv->visited_entry, lv->visited_ctr))
            s->stats->cut_unroll++;
    }
}

void explore_run(World *world, const ModelOps *ops, Model *model, Trail *trail, EventLog *events,
                 const ExploreConfig *cfg, Result *r)
{
    SearchStats stats = {0};
    Search s = {.cfg = cfg, .r = r, .stats = &stats};
    gint64 t0 = g_get_monotonic_time();

    size_t mark = trail_mark(trail);
    events->len = 0;
    ops->begin(model);
    /* The machine's arrays join the trail for this search only. */
    int trail_arrays = trail->n_arrays;
    machine_init(&s.mc, world, ops, model, trail, events, r, cfg->unroll);
    visited_init(&s.visited);
    s.counters = g_array_new(FALSE, FALSE, sizeof(int32_t));
    s.levels = g_array_new(FALSE, FALSE, sizeof(Level));
    s.transitions = g_array_new(FALSE, FALSE, sizeof(Transition));
    s.snapshots = g_array_new(FALSE, FALSE, sizeof(int64_t));
    s.choices_cap = s.moves_cap = 16;
    s.choices = g_new(ReadChoice, s.choices_cap);
    s.moves = g_new(ModelMove, s.moves_cap);
    s.final_cap = 16;
    s.final_scratch = g_new(int64_t, s.final_cap);
    guint n_shown = world->prog->ast->shown->len;
    s.shown_vals = g_new(GArray *, n_shown + 1);
    for (guint i = 0; i < n_shown; i++)
        s.shown_vals[i] = g_array_new(FALSE, FALSE, sizeof(int64_t));
    s.step_scratch = g_array_new(FALSE, FALSE, sizeof(int64_t));
    s.unroll_cuts = g_array_new(FALSE, FALSE, sizeof(Level));
    s.exec_states = g_array_new(FALSE, FALSE, sizeof(int64_t));
    s.exec_pos = g_array_new(FALSE, FALSE, sizeof(int32_t));
    s.relaxed = g_array_new(FALSE, FALSE, sizeof(StaticLoc));
    s.state_values = g_new(int64_t, n_shown + 1);
    s.state_pick = g_new(guint, n_shown + 1);
    s.per_thread = g_new(int32_t, world->n_tids);

    search(&s);
    settle_unroll_cuts(&s);

    trail_undo(trail, mark);
    ops->finish(model);
    stats.seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    g_array_append_val(r->rounds, stats);
    result_add_stats(r, &stats);

    for (guint i = 0; i < n_shown; i++)
        g_array_free(s.shown_vals[i], TRUE);
    g_free(s.shown_vals);
    g_array_free(s.step_scratch, TRUE);
    g_array_free(s.unroll_cuts, TRUE);
    g_array_free(s.exec_states, TRUE);
    g_array_free(s.exec_pos, TRUE);
    g_array_free(s.relaxed, TRUE);
    g_free(s.state_values);
    g_free(s.state_pick);
    g_free(s.per_thread);
    g_free(s.choices);
    g_free(s.moves);
    g_free(s.final_scratch);
    g_array_free(s.snapshots, TRUE);
    g_array_free(s.transitions, TRUE);
    g_array_free(s.levels, TRUE);
    g_array_free(s.counters, TRUE);
    g_free(s.key.data);
    visited_free(&s.visited);
    machine_free(&s.mc);
    trail->n_arrays = trail_arrays;
}

Result *explore_program(const Program *prog, const ModelOps *ops, const ExploreConfig *cfg,
                        World **world_out)
{
    World *world = world_new(prog);
    Trail trail = {0};
    EventLog events = {0};
    Result *r = result_new(prog, world, ops->name, cfg->unroll);
    r->list_executions = cfg->list_executions;
    r->races_checked = cfg->track_races;
    world_request(world, cfg->make_volatile, cfg->relax);
    ModelEnv env = {world, &trail, &events, !cfg->no_drf_shortcut, cfg->track_races, r};
    Model *model = ops->create(&env);

    /* A model with rounds (jmm) searches until it reaches its fixed point;
       the result is that of the last search, which covers the others. */
    for (;;) {
        explore_run(world, ops, model, &trail, &events, cfg, r);
        if (r->limit != LIMIT_NONE || !ops->another_round || !ops->another_round(model, r))
            break;
        result_clear_findings(r);
    }
    if (ops->another_round)
        r->iterations = (int)r->rounds->len; /* also when a limit ended a round */
    /* The executions are those of the last search (its answer); states and
       transitions count the work of every search. */
    r->total.executions = g_array_index(r->rounds, SearchStats, r->rounds->len - 1).executions;
    result_finish(r);
    r->peak_rss_kb = peak_rss_kb();

    ops->destroy(model);
    g_free(events.v);
    trail_clear(&trail);
    *world_out = world;
    return r;
}
