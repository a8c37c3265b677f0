/* The sc model: sequential consistency. Every read sees the last write to
 * its location in the interleaving, so a read has exactly one choice.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/model.h"

#include <string.h>

struct Model {
    ModelEnv env;
    int64_t *mem;        /* per location: its value */
    int64_t *writer;     /* per location: 1 + index of the event that wrote
                            it, 0 for the default value */
    Loc cap;
    int h_mem, h_writer;
};

static Model *sc_create(const ModelEnv *env)
{
    Model *m = g_new0(Model, 1);
    m->env = *env;
    m->h_mem = trail_register(env->trail, &m->mem);
    m->h_writer = trail_register(env->trail, &m->writer);
    return m;
}

static void sc_destroy(Model *m)
{
    g_free(m->mem);
    g_free(m->writer);
    g_free(m);
}

/* Locations appear as objects are allocated; grow to cover them all. */
static void ensure(Model *m)
{
    Loc need = m->env.world->n_locs;
    if (need <= m->cap)
        return;
    Loc cap = m->cap ? m->cap : 64;
    while (cap < need)
        cap *= 2;
    m->mem = g_renew(int64_t, m->mem, cap);
    m->writer = g_renew(int64_t, m->writer, cap);
    memset(m->mem + m->cap, 0, sizeof(int64_t) * (size_t)(cap - m->cap));
    memset(m->writer + m->cap, 0, sizeof(int64_t) * (size_t)(cap - m->cap));
    m->cap = cap;
}

static void sc_begin(Model *m) { ensure(m); }
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
    (void)m;
    (void)tid;
    (void)loc;
    ev->value = c->value;
    ev->rf = c->token ? (int32_t)(c->token - 1) : RF_INIT;
}

static bool sc_write(Model *m, int tid, Loc loc, int64_t value, Event *ev)
{
    (void)tid;
    ensure(m);
    trail_set(m->env.trail, m->h_mem, (size_t)loc, value);
    trail_set(m->env.trail, m->h_writer, (size_t)loc, (int64_t)(ev - m->env.events->v) + 1);
    return true;
}

static bool sc_sync(Model *m, int tid, SyncKind kind, int64_t arg, Event *ev)
{
    (void)m;
    (void)tid;
    (void)kind;
    (void)arg;
    (void)ev;
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
