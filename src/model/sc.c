/* The sc model: sequential consistency. Every read sees the last write to
 * its location in the interleaving, so a read has exactly one choice.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * With ModelEnv.track_races it also finds data races, precisely, as Java
 * Race Finder does (papers/000, Section 2): two accesses of different
 * threads to a non-volatile location, at least one a write, that
 * happens-before does not order. Each access is logged with its thread's
 * epoch (see vclock.h); a new access races with a logged one of another
 * thread that its thread's clock has not seen. A thread's accesses from
 * one statement at one epoch are logged once, so a loop that only spins
 * does not grow the log, and its state repeats.
 */
#include "pathrelax/result.h"
#include "hb.h"

struct Model {
    ModelEnv env;
    int64_t *mem;        /* per location: its value */
    int64_t *writer;     /* per location: 1 + index of the event that wrote
                            it, 0 for the default value */
    Loc cap;
    int h_mem, h_writer;

    /* race tracking */
    bool races;
    Hb hb;
    TrailLog accesses;   /* A_SIZE words per logged access */
    int64_t *held;       /* per thread, HELD_MAX words: the monitors it holds,
                            outermost first */
    int64_t *held_n;     /* per thread: how many */
    int64_t *acquired;   /* per thread, 2 words: bit masks of the threads it
                            joined and of the volatile globals it read
                            (the first 63 of each) */
    int h_held, h_held_n, h_acquired;
};

enum { A_LOC, A_TID, A_LINE, A_WRITE, A_EPOCH, A_LOCK, A_SIZE };
#define HELD_MAX 8 /* deeper nesting is not remembered for advice */

static Model *sc_create(const ModelEnv *env)
{
    Model *m = g_new0(Model, 1);
    m->env = *env;
    m->h_mem = trail_register(env->trail, &m->mem);
    m->h_writer = trail_register(env->trail, &m->writer);
    m->races = env->track_races;
    if (m->races) {
        hb_init(&m->hb, env->world, env->trail);
        trail_log_init(&m->accesses, env->trail, A_SIZE);
        m->held = g_new0(int64_t, env->world->n_tids * HELD_MAX);
        m->h_held = trail_register(env->trail, &m->held);
        m->held_n = g_new0(int64_t, env->world->n_tids);
        m->h_held_n = trail_register(env->trail, &m->held_n);
        m->acquired = g_new0(int64_t, 2 * env->world->n_tids);
        m->h_acquired = trail_register(env->trail, &m->acquired);
    }
    return m;
}

static void sc_destroy(Model *m)
{
    g_free(m->mem);
    g_free(m->writer);
    if (m->races) {
        hb_free(&m->hb);
        trail_log_free(&m->accesses);
        g_free(m->held);
        g_free(m->held_n);
        g_free(m->acquired);
    }
    g_free(m);
}

/* Locations appear as objects are allocated; grow to cover them all. */
static void ensure(Model *m)
{
    if (m->env.world->n_locs <= m->cap)
        return;
    Loc cap = (Loc)array_capacity(m->cap, m->env.world->n_locs, 64);
    array_grow(&m->mem, m->cap, cap);
    array_grow(&m->writer, m->cap, cap);
    m->cap = cap;
}

static void sc_begin(Model *m)
{
    ensure(m);
    if (m->races)
        hb_begin(&m->hb);
}

/* ---- races ---------------------------------------------------------------- */

static inline const int64_t *access_at(const Model *m, int64_t i)
{
    return trail_log_at(&m->accesses, i);
}

static RaceAccess race_side(const int64_t *a)
{
    return (RaceAccess){(int)a[A_TID], (int)a[A_LINE], a[A_WRITE] != 0, a[A_LOCK]};
}

static int64_t innermost_lock(const Model *m, int tid)
{
    int64_t n = m->held_n[tid];
    return n > 0 && n <= HELD_MAX ? m->held[tid * HELD_MAX + n - 1] : 0;
}

/* Locks and unlocks nest (synchronized blocks), so a stack per thread. */
static void note_lock(Model *m, int tid, SyncKind kind, int64_t obj)
{
    int64_t n = m->held_n[tid];
    if (kind == SYNC_LOCK) {
        if (n < HELD_MAX)
            trail_set(m->env.trail, m->h_held, (size_t)(tid * HELD_MAX + n), obj);
        trail_set(m->env.trail, m->h_held_n, (size_t)tid, n + 1);
    } else if (kind == SYNC_UNLOCK && n > 0) {
        trail_set(m->env.trail, m->h_held_n, (size_t)tid, n - 1);
    }
}

static void note_acquire(Model *m, int tid, AcquireKind kind, int target)
{
    if (target < 0 || target >= 63)
        return;
    size_t i = (size_t)(2 * tid + (kind == ACQUIRE_READ));
    trail_set(m->env.trail, m->h_acquired, i, m->acquired[i] | (int64_t)1 << target);
}

/* An access by tid ordered after one of thread u: the acquires tid has
   performed go to the acquiring history of the location (for JRF-E's
   "perform the same acquire" advice). A join of u is recorded only when
   it is u that tid joined. */
static void note_ordered(Model *m, int tid, int u, Loc loc)
{
    StaticLoc s = world_static_loc(m->env.world, loc);
    if (u < 63 && (m->acquired[2 * tid] >> u & 1))
        result_add_acquire(m->env.result, (Acquire){s, ACQUIRE_JOIN, u});
    int64_t reads = m->acquired[2 * tid + 1];
    for (int g = 0; reads && g < 63; g++, reads >>= 1)
        if (reads & 1)
            result_add_acquire(m->env.result, (Acquire){s, ACQUIRE_READ, g});
}

/* Checks an access by tid against the log, then logs it. */
static void track_access(Model *m, int tid, Loc loc, bool is_write, const Event *ev)
{
    if (m->env.world->locs[loc].is_volatile)
        return;
    int64_t epoch = vc_epoch(&m->hb.vc, tid);
    int64_t len = trail_log_len(&m->accesses);
    bool logged = false;
    for (int64_t i = 0; i < len; i++) {
        const int64_t *a = access_at(m, i);
        if (a[A_LOC] != loc)
            continue;
        if (a[A_TID] == tid) {
            logged |= a[A_LINE] == ev->line && a[A_WRITE] == is_write && a[A_EPOCH] == epoch &&
                      a[A_LOCK] == innermost_lock(m, tid);
            continue;
        }
        if (!a[A_WRITE] && !is_write)
            continue;
        if (!vc_seen_by(&m->hb.vc, (int)a[A_TID], a[A_EPOCH], tid)) {
            RaceAccess now = {tid, ev->line, is_write, innermost_lock(m, tid)};
            const EventLog *log = m->env.events;
            result_add_race(m->env.result, world_static_loc(m->env.world, loc), race_side(a), now,
                            log->v, log->len);
        } else {
            note_ordered(m, tid, (int)a[A_TID], loc);
        }
    }
    if (logged)
        return;
    int64_t *a = trail_log_append(&m->accesses, m->env.trail);
    a[A_LOC] = loc;
    a[A_TID] = tid;
    a[A_LINE] = ev->line;
    a[A_WRITE] = is_write;
    a[A_EPOCH] = epoch;
    a[A_LOCK] = innermost_lock(m, tid);
}
static void sc_finish(Model *m) { (void)m; }

static int sc_read_choices(Model *m, int tid, Loc loc, ReadChoice *out, int cap)
{
    (void)tid;
    ensure(m);
    if (cap >= 1)
        out[0] = (ReadChoice){m->mem[loc], m->writer[loc]};
    return 1;
}

static void sc_read(Model *m, int tid, Loc loc, const ReadChoice *c, Event *ev)
{
    ev->value = c->value;
    ev->rf = c->token ? (int32_t)(c->token - 1) : RF_INIT;
    if (m->races) {
        if (m->env.world->locs[loc].is_volatile) {
            hb_volatile_read(&m->hb, tid, loc);
            if (m->env.world->locs[loc].obj == 0)
                note_acquire(m, tid, ACQUIRE_READ, loc);
        } else {
            track_access(m, tid, loc, false, ev);
        }
    }
}

static bool sc_write(Model *m, int tid, Loc loc, int64_t value, Event *ev)
{
    ensure(m);
    if (m->races) {
        if (m->env.world->locs[loc].is_volatile)
            hb_volatile_write(&m->hb, tid, loc);
        else
            track_access(m, tid, loc, true, ev);
    }
    trail_set(m->env.trail, m->h_mem, (size_t)loc, value);
    trail_set(m->env.trail, m->h_writer, (size_t)loc, (int64_t)(ev - m->env.events->v) + 1);
    return true;
}

static bool sc_sync(Model *m, int tid, SyncKind kind, int64_t arg, Event *ev)
{
    (void)ev;
    if (m->races) {
        hb_sync(&m->hb, tid, kind, arg);
        note_lock(m, tid, kind, arg);
        if (kind == SYNC_JOIN)
            note_acquire(m, tid, ACQUIRE_JOIN, (int)arg);
    }
    return true;
}

static bool sc_path_end(Model *m)
{
    (void)m;
    return true;
}

static int sc_final_values(Model *m, Loc loc, int64_t *out, int cap)
{
    ensure(m);
    if (cap >= 1)
        out[0] = m->mem[loc];
    return 1;
}

/* Memory decides the future; which event wrote a value does not. Only
   locations off their default are listed, so the key stays short. */
static void sc_key(Model *m, KeyBuf *key)
{
    ensure(m);
    for (Loc l = 0; l < m->env.world->n_locs; l++) {
        if (m->mem[l]) {
            key_put(key, l);
            key_put(key, m->mem[l]);
        }
    }
    key_put(key, -1);
    if (!m->races)
        return;
    /* Race tracking decides which races the future reports: the clocks and
       the access log, per thread in program order (interleaving-free). */
    hb_key(&m->hb, key);
    for (int t = 0; t < m->env.world->n_tids; t++) {
        for (int64_t i = 0; i < trail_log_len(&m->accesses); i++) {
            const int64_t *a = access_at(m, i);
            if (a[A_TID] != t)
                continue;
            key_put(key, a[A_LOC]);
            key_put(key, a[A_LINE]);
            key_put(key, a[A_WRITE]);
            key_put(key, a[A_EPOCH]);
            key_put(key, a[A_LOCK]);
        }
        key_put(key, m->acquired[2 * t]);
        key_put(key, m->acquired[2 * t + 1]);
        key_put(key, -1);
    }
}

const ModelOps model_sc = {
    .name = "sc",
    .holds_violations = false,
    .create = sc_create,
    .destroy = sc_destroy,
    .begin = sc_begin,
    .finish = sc_finish,
    .read_choices = sc_read_choices,
    .read = sc_read,
    .write = sc_write,
    .sync = sc_sync,
    .path_end = sc_path_end,
    .final_values = sc_final_values,
    .key = sc_key,
};
