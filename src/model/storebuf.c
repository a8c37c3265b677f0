/* The tso and pso models: store buffers between each thread and memory.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * tso: one FIFO buffer per thread. pso: one FIFO buffer per thread and
 * location, so one thread's writes to different locations may reach
 * memory in either order. A write goes into the buffer; a read sees its
 * own thread's newest buffered write to the location, else memory.
 * Flushing a buffer's oldest write to memory is a choice point of the
 * search (a model move). A volatile write, a lock, an unlock, an atomic
 * step (SYNC_FENCE) and the end of a constructor that froze final fields
 * drain the thread's buffers first (a full fence); a volatile write then
 * goes straight to memory. An ended thread's buffers drain before a join
 * of it takes effect, and every buffer is empty before a path counts as
 * ended.
 *
 * Every buffered write of the path is one entry of an append-only log, in
 * program order per thread; a flush marks its entry flushed. An entry is
 * in a buffer while it is not flushed.
 */
#include "pathrelax/model.h"

#include <string.h>

enum { B_TID, B_LOC, B_VALUE, B_EVENT, B_SIZE };
enum { S_FIRST, S_SIZE }; /* the first entry that may be unflushed */

struct Model {
    ModelEnv env;
    World *world;
    Trail *trail;
    bool per_location;   /* pso */
    int64_t *scal;
    TrailLog log;        /* B_SIZE words per buffered write */
    int64_t *flushed;    /* per log entry */
    size_t flushed_cap;
    int64_t *mem;        /* per location */
    int64_t *mem_event;  /* 1 + index of the write event in memory */
    Loc loc_cap;
    int h_scal, h_flushed, h_mem, h_mem_event;
};

static Model *create(const ModelEnv *env, bool per_location)
{
    Model *m = g_new0(Model, 1);
    m->env = *env;
    m->world = env->world;
    m->trail = env->trail;
    m->per_location = per_location;
    m->scal = g_new0(int64_t, S_SIZE);
    m->h_scal = trail_register(m->trail, &m->scal);
    trail_log_init(&m->log, m->trail, B_SIZE);
    m->h_flushed = trail_register(m->trail, &m->flushed);
    m->h_mem = trail_register(m->trail, &m->mem);
    m->h_mem_event = trail_register(m->trail, &m->mem_event);
    return m;
}

static Model *tso_create(const ModelEnv *env) { return create(env, false); }
static Model *pso_create(const ModelEnv *env) { return create(env, true); }

static void sb_destroy(Model *m)
{
    g_free(m->scal);
    trail_log_free(&m->log);
    g_free(m->flushed);
    g_free(m->mem);
    g_free(m->mem_event);
    g_free(m);
}

static void ensure(Model *m)
{
    if (m->world->n_locs <= m->loc_cap)
        return;
    Loc cap = (Loc)array_capacity(m->loc_cap, m->world->n_locs, 64);
    array_grow(&m->mem, m->loc_cap, cap);
    array_grow(&m->mem_event, m->loc_cap, cap);
    m->loc_cap = cap;
}

static void sb_begin(Model *m) { ensure(m); }
static void sb_finish(Model *m) { (void)m; }

static inline int64_t log_len(const Model *m) { return trail_log_len(&m->log); }
static inline const int64_t *entry(const Model *m, int64_t i) { return trail_log_at(&m->log, i); }
static inline bool buffered(const Model *m, int64_t i) { return !m->flushed[i]; }

static int64_t event_index(const Model *m, const Event *ev) { return (int64_t)(ev - m->env.events->v); }

/* Thread tid's newest buffered write to loc, or -1. */
static int64_t newest_buffered(const Model *m, int tid, Loc loc)
{
    for (int64_t i = log_len(m) - 1; i >= m->scal[S_FIRST]; i--) {
        const int64_t *e = entry(m, i);
        if (e[B_TID] == tid && e[B_LOC] == loc && buffered(m, i))
            return i;
    }
    return -1;
}

/* The oldest write in the buffer the move names: thread tid's (tso), or
   thread tid's to loc (pso). */
static int64_t oldest_buffered(const Model *m, int tid, Loc loc)
{
    for (int64_t i = m->scal[S_FIRST]; i < log_len(m); i++) {
        const int64_t *e = entry(m, i);
        if (e[B_TID] == tid && buffered(m, i) && (!m->per_location || e[B_LOC] == loc))
            return i;
    }
    return -1;
}

static void to_memory(Model *m, Loc loc, int64_t value, int64_t event)
{
    trail_set(m->trail, m->h_mem, (size_t)loc, value);
    trail_set(m->trail, m->h_mem_event, (size_t)loc, event + 1);
}

static void flush_entry(Model *m, int64_t i)
{
    const int64_t *e = entry(m, i);
    to_memory(m, (Loc)e[B_LOC], e[B_VALUE], e[B_EVENT]);
    trail_set(m->trail, m->h_flushed, (size_t)i, 1);
    /* Keep S_FIRST at the first entry still buffered, so scans skip the
       flushed prefix. */
    int64_t first = m->scal[S_FIRST];
    while (first < log_len(m) && !buffered(m, first))
        first++;
    trail_set(m->trail, m->h_scal, S_FIRST, first);
}

/* A full fence: thread tid's buffered writes reach memory in order. (In
   pso the order across locations is free, but draining them in program
   order gives one of the allowed outcomes, and the others are reached by
   flushing before the fence.) */
static void drain(Model *m, int tid)
{
    for (int64_t i = m->scal[S_FIRST]; i < log_len(m); i++)
        if (entry(m, i)[B_TID] == tid && buffered(m, i))
            flush_entry(m, i);
}

static int sb_read_choices(Model *m, int tid, Loc loc, ReadChoice *out, int cap)
{
    ensure(m);
    int64_t i = newest_buffered(m, tid, loc);
    if (cap >= 1)
        out[0] = i >= 0 ? (ReadChoice){entry(m, i)[B_VALUE], entry(m, i)[B_EVENT] + 1}
                        : (ReadChoice){m->mem[loc], m->mem_event[loc]};
    return 1;
}

static void sb_read(Model *m, int tid, Loc loc, const ReadChoice *c, Event *ev)
{
    (void)m;
    (void)tid;
    (void)loc;
    ev->value = c->value;
    ev->rf = c->token ? (int32_t)(c->token - 1) : RF_INIT;
}

static bool sb_write(Model *m, int tid, Loc loc, int64_t value, Event *ev)
{
    ensure(m);
    if (m->world->locs[loc].is_volatile) {
        drain(m, tid);
        to_memory(m, loc, value, event_index(m, ev));
        return true;
    }
    int64_t len = log_len(m);
    if ((size_t)(len + 1) > m->flushed_cap) {
        size_t cap = m->flushed_cap ? m->flushed_cap * 2 : 64;
        array_grow(&m->flushed, (int64_t)m->flushed_cap, (int64_t)cap);
        m->flushed_cap = cap;
    }
    int64_t *e = trail_log_append(&m->log, m->trail);
    e[B_TID] = tid;
    e[B_LOC] = loc;
    e[B_VALUE] = value;
    e[B_EVENT] = event_index(m, ev);
    /* The slot may hold a flag from an undone path: set it through the
       trail so that undoing this write restores whatever was there. */
    trail_set(m->trail, m->h_flushed, (size_t)len, 0);
    ev->buffered = true;
    return true;
}

static bool sb_sync(Model *m, int tid, SyncKind kind, int64_t arg, Event *ev)
{
    (void)arg;
    (void)ev;
    switch (kind) {
    case SYNC_LOCK:
    case SYNC_UNLOCK:
    case SYNC_FREEZE:
    case SYNC_FENCE:
        drain(m, tid);
        break;
    case SYNC_JOIN:
        /* The joined thread's writes have all reached memory. */
        drain(m, (int)arg);
        break;
    case SYNC_START:
        drain(m, 0); /* the initial thread's */
        break;
    case SYNC_END:
        /* A thread ends in the same step as its last action; its buffer
           drains later through flush moves (before a join of it, or
           before the final state), so that other threads may still act
           while its writes are buffered. */
        break;
    }
    return true;
}

static bool already_listed(const ModelMove *out, int n, int cap, int tid, Loc loc)
{
    for (int i = 0; i < n && i < cap; i++)
        if (out[i].tid == tid && out[i].loc == loc)
            return true;
    return false;
}

/* One move per non-empty buffer: per thread (tso) or per thread and
   location (pso). */
static int sb_moves(Model *m, ModelMove *out, int cap)
{
    int n = 0;
    for (int64_t i = m->scal[S_FIRST]; i < log_len(m); i++) {
        if (!buffered(m, i))
            continue;
        int tid = (int)entry(m, i)[B_TID];
        Loc loc = m->per_location ? (Loc)entry(m, i)[B_LOC] : LOC_NONE;
        if (already_listed(out, n, cap, tid, loc))
            continue;
        if (n < cap)
            out[n] = (ModelMove){tid, loc};
        n++;
    }
    return n;
}

static void sb_apply_move(Model *m, const ModelMove *mv, Event *ev)
{
    int64_t i = oldest_buffered(m, mv->tid, mv->loc);
    g_assert(i >= 0);
    const int64_t *e = entry(m, i);
    ev->loc = (Loc)e[B_LOC];
    ev->value = e[B_VALUE];
    ev->arg = e[B_EVENT];
    ev->line = m->env.events->v[e[B_EVENT]].line;
    flush_entry(m, i);
}

static bool sb_path_end(Model *m)
{
    (void)m;
    return true;
}

static int sb_final_values(Model *m, Loc loc, int64_t *out, int cap)
{
    ensure(m);
    if (cap >= 1)
        out[0] = m->mem[loc];
    return 1;
}

/* Memory, then the buffers: per thread in program order (tso), or per
   thread and location (pso, where the order across locations does not
   matter for the future). */
static void key_buffer(const Model *m, KeyBuf *key, int tid, Loc only)
{
    for (int64_t i = m->scal[S_FIRST]; i < log_len(m); i++) {
        const int64_t *e = entry(m, i);
        if (e[B_TID] == tid && buffered(m, i) && (only == LOC_NONE || e[B_LOC] == only)) {
            key_put(key, e[B_LOC]);
            key_put(key, e[B_VALUE]);
        }
    }
}

static void sb_key(Model *m, KeyBuf *key)
{
    ensure(m);
    for (Loc l = 0; l < m->world->n_locs; l++) {
        if (m->mem[l]) {
            key_put(key, l);
            key_put(key, m->mem[l]);
        }
    }
    key_put(key, -1);
    for (int t = 0; t < m->world->n_tids; t++) {
        if (m->per_location) {
            for (Loc l = 0; l < m->world->n_locs; l++)
                key_buffer(m, key, t, l);
        } else {
            key_buffer(m, key, t, LOC_NONE);
        }
        key_put(key, -1);
    }
}

#define STORE_BUFFER_OPS                  \
    .holds_violations = false,            \
    .destroy = sb_destroy,                \
    .begin = sb_begin,                    \
    .finish = sb_finish,                  \
    .read_choices = sb_read_choices,      \
    .read = sb_read,                      \
    .write = sb_write,                    \
    .sync = sb_sync,                      \
    .moves = sb_moves,                    \
    .apply_move = sb_apply_move,          \
    .path_end = sb_path_end,              \
    .final_values = sb_final_values,      \
    .key = sb_key

const ModelOps model_tso = {.name = "tso", .create = tso_create, STORE_BUFFER_OPS};
const ModelOps model_pso = {.name = "pso", .create = pso_create, STORE_BUFFER_OPS};
