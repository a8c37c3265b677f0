/* The jmm model: the Java Memory Model through the write-set fixed point
 * of the Java PathRelaxer paper (papers/001, Section III, Figs. 5-8).
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Round 0 is sequentially consistent and records every write, by action id
 * and value, in the WriteSet. In every later round each non-volatile read
 * chooses among the previous round's WriteSet entries for its location:
 * a write already performed on the path (a past write) unless another
 * write to the location lies between it and the read in happens-before,
 * or a write still to come (a future write), which is then imposed: the
 * path stays well formed only if that write happens, writes that value,
 * and does not come after the read in happens-before. Rounds go on until
 * the WriteSet stops growing.
 *
 * Final fields (JLS 17.5): a thread that can see an object only after its
 * constructor finished sees the constructor's values of its final fields.
 * Here: once the constructor has frozen the object on the path, a read of
 * a final field gets the frozen value; before that, another thread's read
 * (it got the reference from a write still to come) may take only the
 * constructing thread's writes to the field, and the freeze checks that it
 * took the last one. An object whose reference escapes before its freeze
 * (its constructor publishes this) has no such guarantee: such "leaky"
 * objects are remembered across rounds, and their fields read like any.
 *
 * Round 0 also looks for data races (two conflicting accesses of different
 * threads, not ordered by happens-before). When it finds none the program
 * is data-race free, its SC executions are all its executions, and no
 * further round is run.
 */
#include "pathrelax/model.h"
#include "pathrelax/result.h"
#include "hb.h"


/* Action id of a write: <kind, thread, location, n>, n counting the
   thread's earlier writes to the location. Only writes need ids here. */
static inline uint64_t write_id(int tid, Loc loc, int64_t n)
{
    return ((uint64_t)tid << 56) | ((uint64_t)(uint32_t)loc << 24) | (uint64_t)n;
}
static inline int id_tid(uint64_t id) { return (int)(id >> 56); }

/* Entries of the performed-write log. */
enum { W_ID, W_LOC, W_VALUE, W_TID, W_EPOCH, W_VC, W_EVENT, W_SIZE };
/* Entries of the ImposeSet log: what a future read imposed, and the
   reader's thread and epoch for the happens-before check. Identical
   entries are kept once: a spin loop that re-reads the same future write
   adds no new constraint, and its state then repeats. */
enum { I_ID, I_VALUE, I_TID, I_EPOCH, I_SIZE };

/* Read tokens: a past write is its log index (>= 0). */
#define TOKEN_DEFAULT (-1)
#define TOKEN_FUTURE(k) (-(int64_t)(k) - 2)
#define TOKEN_FUTURE_INDEX(t) ((guint)(-(t) - 2))

typedef struct {
    uint64_t id;
    int64_t value;
} WsEntry;

struct Model {
    ModelEnv env;
    World *world;
    Trail *trail;
    int n_tids;
    int round;
    bool drf_check;     /* round 0 looks for races */
    bool racy;          /* round 0 found one */

    /* ---- per path, undone through the trail ---- */
    Hb hb;
    TrailLog writes;    /* W_SIZE words per performed write */
    TrailLog imposes;   /* I_SIZE words per imposed write */
    /* per location */
    int64_t *mem;       /* round 0: every location; later: volatiles */
    int64_t *mem_event; /* 1 + event index of the write in mem */
    int64_t *frozen_val;   /* a frozen final field's constructor value */
    int64_t *frozen_event; /* 1 + event index of that write, 0: default */
    int64_t *race_rd;   /* round 0, [loc * n_tids + t]: 1 + epoch of t's
                           latest read of loc */
    int64_t *race_wr;   /* the same for writes */
    Loc loc_cap;
    /* per object */
    int64_t *frozen;    /* its constructor has finished (JLS 17.5) */
    int64_t obj_cap;
    int h_mem, h_mem_event, h_fval, h_fevent, h_rd, h_wr, h_frozen;

    /* ---- across rounds ---- */
    GHashTable *ws;        /* every (id, value) written so far: WsEntry set */
    guint ws_old_size;     /* its size when this round began */
    GHashTable *leaky;     /* objects whose reference was written before
                              their freeze, on some path of some round */
    guint leaky_old_size;
    GArray **old_by_loc;   /* the previous round's WriteSet, by location */
    Loc old_nlocs;

    GArray *scratch;       /* key building */
    int64_t *thread_ends;  /* key building: n_tids + 1 bucket ends */
    GArray *values;        /* final_values */
};

/* ---- WriteSet ------------------------------------------------------------ */

static guint ws_hash(gconstpointer p)
{
    const WsEntry *e = p;
    uint64_t h = e->id * 0x9E3779B97F4A7C15ull ^ (uint64_t)e->value * 0xC2B2AE3D27D4EB4Full;
    return (guint)(h ^ (h >> 32));
}

static gboolean ws_equal(gconstpointer a, gconstpointer b)
{
    const WsEntry *x = a, *y = b;
    return x->id == y->id && x->value == y->value;
}

static void ws_add(Model *m, uint64_t id, int64_t value)
{
    WsEntry key = {id, value};
    if (!g_hash_table_contains(m->ws, &key))
        g_hash_table_add(m->ws, g_memdup2(&key, sizeof key));
}

static void free_old(Model *m)
{
    for (Loc l = 0; l < m->old_nlocs; l++)
        if (m->old_by_loc[l])
            g_array_free(m->old_by_loc[l], TRUE);
    g_free(m->old_by_loc);
    m->old_by_loc = NULL;
    m->old_nlocs = 0;
}

static int compare_ws(const void *a, const void *b)
{
    const WsEntry *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

/* The WriteSet becomes the next round's read-only candidate lists. */
static void snapshot_writeset(Model *m)
{
    free_old(m);
    m->old_nlocs = m->world->n_locs;
    m->old_by_loc = g_new0(GArray *, m->old_nlocs);
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, m->ws);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const WsEntry *e = key;
        Loc loc = (Loc)((e->id >> 24) & 0xffffffffu);
        if (!m->old_by_loc[loc])
            m->old_by_loc[loc] = g_array_new(FALSE, FALSE, sizeof(WsEntry));
        g_array_append_val(m->old_by_loc[loc], *e);
    }
    /* A fixed order, so that choices (and traces) do not depend on hashing. */
    for (Loc l = 0; l < m->old_nlocs; l++)
        if (m->old_by_loc[l])
            g_array_sort(m->old_by_loc[l], compare_ws);
    m->ws_old_size = g_hash_table_size(m->ws);
    m->leaky_old_size = g_hash_table_size(m->leaky);
}

/* ---- storage ---------------------------------------------------------------- */

/* Locations and objects appear as the program allocates; cover them all. */
static void ensure(Model *m)
{
    if (m->world->n_locs > m->loc_cap) {
        Loc cap = (Loc)array_capacity(m->loc_cap, m->world->n_locs, 64);
        array_grow(&m->mem, m->loc_cap, cap);
        array_grow(&m->mem_event, m->loc_cap, cap);
        array_grow(&m->frozen_val, m->loc_cap, cap);
        array_grow(&m->frozen_event, m->loc_cap, cap);
        array_grow(&m->race_rd, (int64_t)m->loc_cap * m->n_tids, (int64_t)cap * m->n_tids);
        array_grow(&m->race_wr, (int64_t)m->loc_cap * m->n_tids, (int64_t)cap * m->n_tids);
        m->loc_cap = cap;
    }
    if (m->world->n_objs > m->obj_cap) {
        int64_t cap = array_capacity(m->obj_cap, m->world->n_objs, 16);
        array_grow(&m->frozen, m->obj_cap, cap);
        m->obj_cap = cap;
    }
}

static inline int64_t n_writes(const Model *m) { return trail_log_len(&m->writes); }
static inline const int64_t *wentry(const Model *m, int64_t i) { return trail_log_at(&m->writes, i); }
static inline int64_t n_imposes(const Model *m) { return trail_log_len(&m->imposes); }
static inline const int64_t *ientry(const Model *m, int64_t i) { return trail_log_at(&m->imposes, i); }

static inline int64_t event_index(const Model *m, const Event *ev)
{
    return (int64_t)(ev - m->env.events->v);
}

/* ---- happens-before between logged writes and the current read ------------- */

/* Performed write i happens-before performed write j. */
static bool write_hb_write(const Model *m, int64_t i, int64_t j)
{
    const int64_t *a = wentry(m, i), *b = wentry(m, j);
    if (a[W_TID] == b[W_TID])
        return i < j; /* program order */
    return vc_at(&m->hb.vc, b[W_VC])[a[W_TID]] > a[W_EPOCH];
}

/* Performed write i happens-before thread t's next action. */
static bool write_hb_now(const Model *m, int64_t i, int t)
{
    const int64_t *w = wentry(m, i);
    return w[W_TID] == t || vc_seen_by(&m->hb.vc, (int)w[W_TID], w[W_EPOCH], t);
}

static int64_t find_performed(const Model *m, uint64_t id)
{
    for (int64_t i = n_writes(m) - 1; i >= 0; i--)
        if ((uint64_t)wentry(m, i)[W_ID] == id)
            return i;
    return -1;
}

/* A past write may be read unless another write to the location lies
   between it and the read in happens-before. */
static bool past_write_visible(const Model *m, int64_t i, int t)
{
    Loc loc = (Loc)wentry(m, i)[W_LOC];
    for (int64_t j = 0; j < n_writes(m); j++) {
        if (j == i || wentry(m, j)[W_LOC] != loc)
            continue;
        if (write_hb_now(m, j, t) && write_hb_write(m, i, j))
            return false;
    }
    return true;
}

/* The default value is hidden by any write to the location that
   happens-before the read. */
static bool default_visible(const Model *m, Loc loc, int t)
{
    for (int64_t j = 0; j < n_writes(m); j++)
        if (wentry(m, j)[W_LOC] == loc && write_hb_now(m, j, t))
            return false;
    return true;
}

/* The value already imposed on write id, if any. */
static bool imposed_value(const Model *m, uint64_t id, int64_t *value)
{
    for (int64_t i = 0; i < n_imposes(m); i++) {
        if ((uint64_t)ientry(m, i)[I_ID] == id) {
            *value = ientry(m, i)[I_VALUE];
            return true;
        }
    }
    return false;
}

/* ---- data races in round 0 ---------------------------------------------------- */

static inline bool tracking_races(const Model *m) { return m->round == 0 && m->drf_check && !m->racy; }

/* An access by t to loc races with an earlier conflicting access of another
   thread that does not happen-before it. Only the latest access of each
   kind per thread need be checked: earlier ones are ordered before it. */
static void check_race(Model *m, int t, Loc loc, bool is_write)
{
    size_t base = (size_t)loc * (size_t)m->n_tids;
    for (int u = 0; u < m->n_tids && !m->racy; u++) {
        if (u == t)
            continue;
        int64_t w = m->race_wr[base + u], r = m->race_rd[base + u];
        if (w && !vc_seen_by(&m->hb.vc, u, w - 1, t))
            m->racy = true;
        if (is_write && r && !vc_seen_by(&m->hb.vc, u, r - 1, t))
            m->racy = true;
    }
    trail_set(m->trail, is_write ? m->h_wr : m->h_rd, base + (size_t)t, vc_epoch(&m->hb.vc, t) + 1);
}

/* ---- the model operations -------------------------------------------------------- */

static Model *jmm_create(const ModelEnv *env)
{
    Model *m = g_new0(Model, 1);
    m->env = *env;
    m->world = env->world;
    m->trail = env->trail;
    m->n_tids = env->world->n_tids;
    m->drf_check = env->drf_shortcut;
    Trail *tr = env->trail;
    trail_log_init(&m->writes, tr, W_SIZE);
    trail_log_init(&m->imposes, tr, I_SIZE);
    hb_init(&m->hb, env->world, tr);
    m->h_mem = trail_register(tr, &m->mem);
    m->h_mem_event = trail_register(tr, &m->mem_event);
    m->h_fval = trail_register(tr, &m->frozen_val);
    m->h_fevent = trail_register(tr, &m->frozen_event);
    m->h_rd = trail_register(tr, &m->race_rd);
    m->h_wr = trail_register(tr, &m->race_wr);
    m->h_frozen = trail_register(tr, &m->frozen);
    m->ws = g_hash_table_new_full(ws_hash, ws_equal, g_free, NULL);
    m->leaky = g_hash_table_new(g_direct_hash, g_direct_equal);
    m->scratch = g_array_new(FALSE, FALSE, sizeof(int64_t));
    m->thread_ends = g_new(int64_t, m->n_tids + 1);
    m->values = g_array_new(FALSE, FALSE, sizeof(int64_t));
    ensure(m);
    return m;
}

static void jmm_destroy(Model *m)
{
    free_old(m);
    g_hash_table_destroy(m->ws);
    g_hash_table_destroy(m->leaky);
    g_array_free(m->scratch, TRUE);
    g_free(m->thread_ends);
    g_array_free(m->values, TRUE);
    hb_free(&m->hb);
    trail_log_free(&m->writes);
    trail_log_free(&m->imposes);
    int64_t *arrays[] = {m->mem, m->mem_event, m->frozen_val, m->frozen_event, m->race_rd,
                         m->race_wr, m->frozen};
    for (size_t i = 0; i < G_N_ELEMENTS(arrays); i++)
        g_free(arrays[i]);
    g_free(m);
}

static void jmm_begin(Model *m)
{
    ensure(m);
    hb_begin(&m->hb);
}

static void jmm_finish(Model *m) { (void)m; }

static inline bool is_volatile(const Model *m, Loc loc) { return m->world->locs[loc].is_volatile; }

/* A final field of a frozen object reads its constructor's value, unless
   the object's reference escaped before the freeze (then nothing is
   guaranteed: JLS 17.5). */
static bool frozen_final(const Model *m, Loc loc)
{
    const LocInfo *l = &m->world->locs[loc];
    return l->is_final && l->obj && m->frozen[l->obj] &&
           !g_hash_table_contains(m->leaky, GSIZE_TO_POINTER((gsize)l->obj));
}

static int add_choice(ReadChoice *out, int n, int cap, int64_t value, int64_t token)
{
    if (n < cap)
        out[n] = (ReadChoice){value, token};
    return n + 1;
}

/* A final field of an object not yet frozen on this path, read by a thread
   other than the one constructing it, of an object whose reference has not
   escaped its constructor: returns the constructing thread (whose last
   write before the freeze the read must see), else -1. */
static int awaited_final(const Model *m, int tid, Loc loc)
{
    const LocInfo *l = &m->world->locs[loc];
    if (!l->is_final || l->obj == 0 || m->frozen[l->obj])
        return -1;
    int constructor = m->world->objs[l->obj].tid;
    if (constructor == tid || g_hash_table_contains(m->leaky, GSIZE_TO_POINTER((gsize)l->obj)))
        return -1;
    return constructor;
}

/* A reference to an object written by its constructing thread before the
   object's freeze lets other threads see it unconstructed. */
static void note_escape(Model *m, int tid, Loc loc, int64_t value)
{
    if (value <= 0 || value >= m->world->n_objs || !type_is_ref(world_loc_type(m->world, loc)))
        return;
    const ObjInfo *o = &m->world->objs[value];
    if (o->class_index < 0 || !m->world->prog->classes[o->class_index].has_final_field)
        return;
    if (o->tid == tid && !m->frozen[value])
        g_hash_table_add(m->leaky, GSIZE_TO_POINTER((gsize)value));
}

/* Reads that see memory, as under sc: in round 0, volatile locations, and
   with --relax every location but the relaxed one. */
static bool reads_memory(const Model *m, Loc loc)
{
    return m->round == 0 || is_volatile(m, loc) || m->world->locs[loc].is_sc;
}

/* Candidates: the past writes happens-before does not hide (every write
   performed on the path, whether or not the previous round saw its id:
   reading a visible past write is always legal), the default value when
   no write hides it, and the future writes of the previous round's
   WriteSet. */
static int jmm_read_choices(Model *m, int tid, Loc loc, ReadChoice *out, int cap)
{
    ensure(m);
    if (frozen_final(m, loc))
        return add_choice(out, 0, cap, m->frozen_val[loc], 0);
    if (reads_memory(m, loc))
        return add_choice(out, 0, cap, m->mem[loc], 0);
    int constructor = awaited_final(m, tid, loc);

    int n = 0;
    if (constructor < 0 && default_visible(m, loc, tid))
        n = add_choice(out, n, cap, 0, TOKEN_DEFAULT);
    for (int64_t i = 0; i < n_writes(m); i++) {
        const int64_t *w = wentry(m, i);
        if (w[W_LOC] != loc || (constructor >= 0 && w[W_TID] != constructor))
            continue; /* only the constructor's writes, see awaited_final */
        if (past_write_visible(m, i, tid))
            n = add_choice(out, n, cap, w[W_VALUE], i);
    }
    const GArray *cands = loc < m->old_nlocs ? m->old_by_loc[loc] : NULL;
    for (guint k = 0; cands && k < cands->len; k++) {
        const WsEntry *e = &g_array_index(cands, WsEntry, k);
        if (constructor >= 0 && id_tid(e->id) != constructor)
            continue;
        if (find_performed(m, e->id) >= 0)
            continue; /* past: offered above, with the value it wrote */
        /* A future write of the reader's own thread would come after the
           read in program order, and one of an ended thread never comes:
           neither can be justified, so neither is offered. */
        int writer = id_tid(e->id);
        if (writer == tid || hb_thread_ended(&m->hb, writer))
            continue;
        int64_t v;
        if (imposed_value(m, e->id, &v) && v != e->value)
            continue;
        n = add_choice(out, n, cap, e->value, TOKEN_FUTURE(k));
    }
    return n;
}

static void impose(Model *m, uint64_t id, int64_t value, int tid)
{
    int64_t epoch = vc_epoch(&m->hb.vc, tid);
    for (int64_t i = 0; i < n_imposes(m); i++) {
        const int64_t *imp = ientry(m, i);
        if ((uint64_t)imp[I_ID] == id && imp[I_VALUE] == value && imp[I_TID] == tid &&
            imp[I_EPOCH] == epoch)
            return;
    }
    int64_t *imp = trail_log_append(&m->imposes, m->trail);
    imp[I_ID] = (int64_t)id;
    imp[I_VALUE] = value;
    imp[I_TID] = tid;
    imp[I_EPOCH] = epoch;
}

static void jmm_read(Model *m, int tid, Loc loc, const ReadChoice *c, Event *ev)
{
    ensure(m);
    ev->value = c->value;
    if (frozen_final(m, loc)) {
        ev->rf = m->frozen_event[loc] ? (int32_t)(m->frozen_event[loc] - 1) : RF_INIT;
        return;
    }
    if (reads_memory(m, loc)) {
        ev->rf = m->mem_event[loc] ? (int32_t)(m->mem_event[loc] - 1) : RF_INIT;
        if (is_volatile(m, loc))
            hb_volatile_read(&m->hb, tid, loc);
        else if (tracking_races(m))
            check_race(m, tid, loc, false);
        return;
    }
    if (c->token >= 0) {
        const int64_t *w = wentry(m, c->token);
        ev->rf = (int32_t)w[W_EVENT];
        /* A read of a final field awaiting its freeze must have taken the
           constructor's last write: recorded like an impose, the freeze
           checks it (awaited_reads_hold). */
        if (awaited_final(m, tid, loc) >= 0)
            impose(m, (uint64_t)w[W_ID], w[W_VALUE], tid);
        return;
    }
    if (c->token == TOKEN_DEFAULT) {
        ev->rf = RF_INIT;
        return;
    }
    const WsEntry *e = &g_array_index(m->old_by_loc[loc], WsEntry, TOKEN_FUTURE_INDEX(c->token));
    impose(m, e->id, e->value, tid);
    ev->future = true;
    ev->rf = RF_PENDING;
    ev->arg = (int64_t)e->id; /* resolved to the write's event at path end */
}

/* Writes to loc by tid so far on this path: the n of the next write's id. */
static int64_t count_writes(const Model *m, int tid, Loc loc)
{
    int64_t n = 0;
    for (int64_t i = 0; i < n_writes(m); i++)
        n += wentry(m, i)[W_TID] == tid && wentry(m, i)[W_LOC] == loc;
    return n;
}

/* A write that was imposed on by future reads must write their value, and
   none of those reads may happen-before it (Fig. 8, lines 40-45). */
static bool imposes_hold(const Model *m, uint64_t id, int tid, int64_t value)
{
    for (int64_t i = 0; i < n_imposes(m); i++) {
        const int64_t *imp = ientry(m, i);
        if ((uint64_t)imp[I_ID] != id)
            continue;
        if (imp[I_VALUE] != value)
            return false;
        int reader = (int)imp[I_TID];
        if (reader == tid || vc_seen_by(&m->hb.vc, reader, imp[I_EPOCH], tid))
            return false;
    }
    return true;
}

static bool jmm_write(Model *m, int tid, Loc loc, int64_t value, Event *ev)
{
    ensure(m);
    note_escape(m, tid, loc, value);
    if (is_volatile(m, loc)) {
        hb_volatile_write(&m->hb, tid, loc);
        trail_set(m->trail, m->h_mem, (size_t)loc, value);
        trail_set(m->trail, m->h_mem_event, (size_t)loc, event_index(m, ev) + 1);
        return true;
    }
    uint64_t id = write_id(tid, loc, count_writes(m, tid, loc));
    ev->id = id;
    if (m->round > 0 && !imposes_hold(m, id, tid, value))
        return false;
    int64_t vc_off = hb_publish(&m->hb, tid);
    int64_t *w = trail_log_append(&m->writes, m->trail);
    w[W_ID] = (int64_t)id;
    w[W_LOC] = loc;
    w[W_VALUE] = value;
    w[W_TID] = tid;
    w[W_EPOCH] = vc_epoch(&m->hb.vc, tid);
    w[W_VC] = vc_off;
    w[W_EVENT] = event_index(m, ev);
    if (reads_memory(m, loc)) {
        trail_set(m->trail, m->h_mem, (size_t)loc, value);
        trail_set(m->trail, m->h_mem_event, (size_t)loc, event_index(m, ev) + 1);
    }
    if (tracking_races(m))
        check_race(m, tid, loc, true);
    return true;
}

/* Reads of the final field at loc that waited for the freeze must have
   taken the constructor's last write to it, last_id. */
static bool awaited_reads_hold(const Model *m, Loc loc, uint64_t last_id)
{
    for (int64_t i = 0; i < n_imposes(m); i++) {
        uint64_t id = (uint64_t)ientry(m, i)[I_ID];
        if ((Loc)((id >> 24) & 0xffffffffu) == loc && id != last_id)
            return false;
    }
    return true;
}

/* The end of a constructor: each final field keeps the value the
   constructing thread last wrote to it (the default if none). */
static bool freeze(Model *m, int tid, int64_t obj)
{
    const ObjInfo *o = &m->world->objs[obj];
    if (obj <= 0 || o->class_index < 0)
        return true;
    bool leaky = g_hash_table_contains(m->leaky, GSIZE_TO_POINTER((gsize)obj));
    const CClass *c = &m->world->prog->classes[o->class_index];
    for (int f = 0; f < c->n_fields; f++) {
        if (!c->fields[f].is_final)
            continue;
        Loc loc = world_field_loc(m->world, obj, f);
        int64_t value = 0, event = 0;
        uint64_t last_id = 0;
        for (int64_t i = n_writes(m) - 1; i >= 0; i--) {
            const int64_t *w = wentry(m, i);
            if (w[W_LOC] == loc && w[W_TID] == tid) {
                value = w[W_VALUE];
                event = w[W_EVENT] + 1;
                last_id = (uint64_t)w[W_ID];
                break;
            }
        }
        if (!leaky && !awaited_reads_hold(m, loc, last_id))
            return false;
        trail_set(m->trail, m->h_fval, (size_t)loc, value);
        trail_set(m->trail, m->h_fevent, (size_t)loc, event);
    }
    trail_set(m->trail, m->h_frozen, (size_t)obj, 1);
    return true;
}

static bool jmm_sync(Model *m, int tid, SyncKind kind, int64_t arg, Event *ev)
{
    (void)ev;
    ensure(m);
    if (kind == SYNC_FREEZE)
        return freeze(m, tid, arg);
    hb_sync(&m->hb, tid, kind, arg);
    return true;
}

/* Every imposed write was performed (with its value: checked when it
   happened). */
static bool imposes_performed(const Model *m)
{
    for (int64_t i = 0; i < n_imposes(m); i++)
        if (find_performed(m, (uint64_t)ientry(m, i)[I_ID]) < 0)
            return false;
    return true;
}

/* Each read of a future write learns that write's event, for the reports
   of this path (the explorer takes it back afterwards). */
static void resolve_future_reads(const Model *m)
{
    EventLog *log = m->env.events;
    for (size_t i = 0; i < log->len; i++) {
        Event *ev = &log->v[i];
        if (ev->kind == EV_READ && ev->future)
            ev->rf = (int32_t)wentry(m, find_performed(m, (uint64_t)ev->arg))[W_EVENT];
    }
}

/* A well-formed path: its future reads are resolved and its writes join
   the WriteSet of the next round. */
static bool jmm_path_end(Model *m)
{
    if (!imposes_performed(m))
        return false;
    resolve_future_reads(m);
    for (int64_t i = 0; i < n_writes(m); i++)
        ws_add(m, (uint64_t)wentry(m, i)[W_ID], wentry(m, i)[W_VALUE]);
    return true;
}

static void add_value(GArray *values, int64_t v)
{
    for (guint i = 0; i < values->len; i++)
        if (g_array_index(values, int64_t, i) == v)
            return;
    g_array_append_val(values, v);
}

/* A reader that joined every thread sees every performed write; those no
   other write to the location hides by happens-before remain. */
static int jmm_final_values(Model *m, Loc loc, int64_t *out, int cap)
{
    ensure(m);
    GArray *values = m->values;
    g_array_set_size(values, 0);
    if (m->round == 0 || is_volatile(m, loc)) {
        add_value(values, m->mem[loc]);
    } else {
        for (int64_t i = 0; i < n_writes(m); i++) {
            if (wentry(m, i)[W_LOC] != loc)
                continue;
            bool hidden = false;
            for (int64_t j = 0; j < n_writes(m) && !hidden; j++)
                hidden = j != i && wentry(m, j)[W_LOC] == loc && write_hb_write(m, i, j);
            if (!hidden)
                add_value(values, wentry(m, i)[W_VALUE]);
        }
        if (values->len == 0)
            add_value(values, 0);
    }
    for (guint i = 0; i < values->len && (int)i < cap; i++)
        out[i] = g_array_index(values, int64_t, i);
    return (int)values->len;
}

/* The entries of a log (entry_size words each, the thread in word
   tid_field) in thread order; one thread's entries are in its program
   order whatever the interleaving, so two interleavings that performed
   the same actions list them alike, and no sort is needed. Returns the
   entries' offsets, kept in m->scratch; ends[t] ends thread t's run. */
static const int64_t *by_thread(Model *m, const int64_t *log, int64_t len, int entry_size,
                                int tid_field, int64_t *ends)
{
    memset(ends, 0, sizeof(int64_t) * (size_t)(m->n_tids + 1));
    for (int64_t i = 0; i < len; i++)
        ends[log[i * entry_size + tid_field] + 1]++;
    for (int t = 0; t < m->n_tids; t++)
        ends[t + 1] += ends[t];
    g_array_set_size(m->scratch, (guint)len);
    int64_t *order = (int64_t *)(void *)m->scratch->data;
    for (int64_t i = 0; i < len; i++)
        order[ends[log[i * entry_size + tid_field]]++] = i * entry_size;
    return order; /* placing advanced ends[t] to the end of thread t's run */
}

/* Performed writes: per thread, each write's location and number (its id
   without the thread), value and clock. Its epoch is its clock's own entry
   and its event is history, so neither goes in. */
static void key_writes(Model *m, KeyBuf *key)
{
    int64_t *ends = m->thread_ends;
    const int64_t *order = by_thread(m, m->writes.data, n_writes(m), W_SIZE, W_TID, ends);
    int64_t next = 0;
    for (int t = 0; t < m->n_tids; t++) {
        for (; next < ends[t]; next++) {
            const int64_t *w = m->writes.data + order[next];
            key_put(key, w[W_LOC]);
            key_put(key, (int64_t)((uint64_t)w[W_ID] & 0xffffff));
            key_put(key, w[W_VALUE]);
            const int64_t *clock = vc_at(&m->hb.vc, w[W_VC]);
            for (int u = 0; u < m->n_tids; u++)
                key_put(key, clock[u]);
        }
        key_put(key, -1);
    }
}

/* Imposed writes: per reading thread, the write's id, value, and the
   reader's epoch. */
static void key_imposes(Model *m, KeyBuf *key)
{
    int64_t *ends = m->thread_ends;
    const int64_t *order = by_thread(m, m->imposes.data, n_imposes(m), I_SIZE, I_TID, ends);
    int64_t next = 0;
    for (int t = 0; t < m->n_tids; t++) {
        for (; next < ends[t]; next++) {
            const int64_t *imp = m->imposes.data + order[next];
            key_put(key, imp[I_ID]);
            key_put(key, imp[I_VALUE]);
            key_put(key, imp[I_EPOCH]);
        }
        key_put(key, -1);
    }
}

static void jmm_key(Model *m, KeyBuf *key)
{
    ensure(m);
    Loc n_locs = m->world->n_locs;
    for (Loc l = 0; l < n_locs; l++) {
        if (m->mem[l] && reads_memory(m, l)) {
            key_put(key, l);
            key_put(key, m->mem[l]);
        }
        if (m->frozen_val[l]) {
            key_put(key, l);
            key_put(key, m->frozen_val[l]);
        }
    }
    key_put(key, -1);
    if (tracking_races(m)) {
        for (int64_t i = 0; i < (int64_t)n_locs * m->n_tids; i++) {
            if (m->race_rd[i] || m->race_wr[i]) {
                key_put(key, i);
                key_put(key, m->race_rd[i]);
                key_put(key, m->race_wr[i]);
            }
        }
        key_put(key, -1);
    }
    hb_key(&m->hb, key);
    key_writes(m, key);
    key_imposes(m, key);
    for (int64_t o = 1; o < m->world->n_objs; o++)
        if (m->frozen[o])
            key_put(key, o);
    key_put(key, -1);
}

/* Round 0 answers a data-race-free program. Otherwise another round runs
   while the WriteSet grows (round 1 always runs: round 0 only gathered). */
static bool jmm_another_round(Model *m, Result *r)
{
    r->iterations = m->round + 1;
    r->writeset_size = g_hash_table_size(m->ws);
    if (m->round == 0 && m->drf_check && !m->racy) {
        r->drf_shortcut = true;
        return false;
    }
    if (m->round > 0 && g_hash_table_size(m->ws) == m->ws_old_size &&
        g_hash_table_size(m->leaky) == m->leaky_old_size)
        return false;
    snapshot_writeset(m);
    m->round++;
    return true;
}

const ModelOps model_jmm = {
    .name = "jmm",
    .holds_violations = true,
    .create = jmm_create,
    .destroy = jmm_destroy,
    .begin = jmm_begin,
    .finish = jmm_finish,
    .read_choices = jmm_read_choices,
    .read = jmm_read,
    .write = jmm_write,
    .sync = jmm_sync,
    .path_end = jmm_path_end,
    .final_values = jmm_final_values,
    .another_round = jmm_another_round,
    .key = jmm_key,
};
