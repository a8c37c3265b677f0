/* The world of one program: interned objects and dense location ids,
 * stable across paths and JMM rounds.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/world.h"

#include <string.h>

/* An allocation's name, the key of World.obj_index. */
typedef struct {
    int tid, seq, class_index, type_index;
    int64_t length;
} AllocName;

static guint alloc_name_hash(gconstpointer p)
{
    const AllocName *a = p;
    uint64_t h = (uint64_t)a->tid * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)a->seq + 0x7F4A7C15ull + (h << 6) + (h >> 2);
    h ^= (uint64_t)(a->class_index + 7) * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(a->type_index + 3) * 0x165667B19E3779F9ull;
    h ^= (uint64_t)a->length * 0x27D4EB2F165667C5ull;
    return (guint)(h ^ (h >> 32));
}

static gboolean alloc_name_equal(gconstpointer pa, gconstpointer pb)
{
    const AllocName *a = pa, *b = pb;
    return a->tid == b->tid && a->seq == b->seq && a->class_index == b->class_index &&
           a->type_index == b->type_index && a->length == b->length;
}

static bool in_set(GHashTable *set, StaticLoc s)
{
    return set && g_hash_table_contains(set, &s);
}

/* Applies the command line's changes to one location. */
static void apply_overrides(World *w, Loc loc)
{
    StaticLoc s = world_static_loc(w, loc);
    if (in_set(w->make_volatile, s))
        w->locs[loc].is_volatile = true;
    w->locs[loc].is_sc = w->relax_only && !in_set(w->relax_only, s);
}

static Loc add_locations(World *w, int64_t obj, int count, const CVar *vars)
{
    Loc base = w->n_locs;
    if (w->n_locs + count > w->locs_cap) {
        while (w->n_locs + count > w->locs_cap)
            w->locs_cap = w->locs_cap ? w->locs_cap * 2 : 64;
        w->locs = g_renew(LocInfo, w->locs, w->locs_cap);
    }
    for (int i = 0; i < count; i++) {
        w->locs[base + i] = (LocInfo){
            .obj = obj,
            .index = i,
            .is_volatile = vars ? vars[i].is_volatile : false,
            .is_final = vars ? vars[i].is_final : false,
        };
    }
    w->n_locs += count;
    for (int i = 0; i < count; i++)
        apply_overrides(w, base + i);
    return base;
}

World *world_new(const Program *prog)
{
    World *w = g_new0(World, 1);
    w->prog = prog;
    w->n_tids = 1 + prog->n_threads;
    w->objs_cap = 16;
    w->objs = g_new0(ObjInfo, w->objs_cap);
    w->n_objs = 1; /* id 0 is null */
    w->obj_index = g_hash_table_new_full(alloc_name_hash, alloc_name_equal, g_free, NULL);
    w->global_ref = g_new0(int64_t, prog->n_globals + 1);
    add_locations(w, 0, prog->n_globals, prog->globals);
    return w;
}

void world_free(World *w)
{
    if (!w)
        return;
    g_hash_table_destroy(w->obj_index);
    g_free(w->global_ref);
    if (w->make_volatile)
        g_hash_table_destroy(w->make_volatile);
    if (w->relax_only)
        g_hash_table_destroy(w->relax_only);
    g_free(w->objs);
    g_free(w->locs);
    g_free(w);
}

int64_t world_intern_object(World *w, int tid, int seq, int class_index, int type_index,
                            int64_t length)
{
    AllocName key = {tid, seq, class_index, type_index, length};
    gpointer found = g_hash_table_lookup(w->obj_index, &key);
    if (found)
        return GPOINTER_TO_SIZE(found);

    int64_t id = w->n_objs++;
    if (id >= w->objs_cap) {
        w->objs_cap *= 2;
        w->objs = g_renew(ObjInfo, w->objs, w->objs_cap);
    }
    const CVar *fields = NULL;
    int count;
    if (class_index >= 0) {
        fields = w->prog->classes[class_index].fields;
        count = w->prog->classes[class_index].n_fields;
    } else {
        count = (int)length;
    }
    w->objs[id] = (ObjInfo){
        .tid = tid,
        .seq = seq,
        .class_index = class_index,
        .type_index = type_index,
        .length = length,
        .loc_base = add_locations(w, id, count, fields),
    };
    /* The elements of an AtomicIntegerArray are volatile. */
    if (class_index < 0 && w->prog->types[type_index]->kind == TY_ATOMIC_ARRAY)
        for (int i = 0; i < count; i++)
            w->locs[w->objs[id].loc_base + i].is_volatile = true;
    g_hash_table_insert(w->obj_index, g_memdup2(&key, sizeof key), GSIZE_TO_POINTER((gsize)id));
    return id;
}

const Type *world_loc_type(const World *w, Loc loc)
{
    const LocInfo *l = &w->locs[loc];
    if (l->obj == 0)
        return w->prog->globals[l->index].type;
    const ObjInfo *o = &w->objs[l->obj];
    if (o->class_index >= 0)
        return w->prog->classes[o->class_index].fields[l->index].type;
    return w->prog->types[o->type_index]->elem;
}

const char *world_thread_name(const World *w, int tid)
{
    if (tid <= 0 || tid > w->prog->n_threads)
        return "init";
    return w->prog->threads[tid - 1].name;
}

char *world_obj_name(const World *w, int64_t obj)
{
    if (obj <= 0 || obj >= w->n_objs)
        return g_strdup("null");
    const ObjInfo *o = &w->objs[obj];
    const char *thread = world_thread_name(w, o->tid);
    if (o->class_index >= 0)
        return g_strdup_printf("%s@%s.%d", w->prog->classes[o->class_index].name, thread, o->seq);
    char *type = type_to_string(w->prog->types[o->type_index]);
    char *name = g_strdup_printf("%s@%s.%d", type, thread, o->seq);
    g_free(type);
    return name;
}

char *world_loc_name(const World *w, Loc loc)
{
    const LocInfo *l = &w->locs[loc];
    if (l->obj == 0)
        return g_strdup(w->prog->globals[l->index].name);
    const ObjInfo *o = &w->objs[l->obj];
    char *obj = world_obj_name(w, l->obj);
    char *name;
    if (o->class_index >= 0)
        name = g_strdup_printf("%s.%s", obj, w->prog->classes[o->class_index].fields[l->index].name);
    else
        name = g_strdup_printf("%s[%d]", obj, l->index);
    g_free(obj);
    return name;
}

char *world_value_string(const World *w, const Type *type, int64_t value)
{
    if (world_value_undefined(type, value))
        return g_strdup("undefined");
    if (type && type->kind == TY_BOOL)
        return g_strdup(value ? "true" : "false");
    if (type && type_is_ref(type))
        return world_obj_name(w, value);
    return g_strdup_printf("%" G_GINT64_FORMAT, (gint64)value);
}

/* ---- static locations -------------------------------------------------- */

StaticLoc world_static_loc(const World *w, Loc loc)
{
    const LocInfo *l = &w->locs[loc];
    if (l->obj == 0)
        return l->index;
    const ObjInfo *o = &w->objs[l->obj];
    if (o->class_index >= 0)
        return STATIC_FIELD | (int64_t)o->class_index << 20 | l->index;
    return STATIC_ELEMS | l->obj;
}

char *world_static_loc_name(const World *w, StaticLoc s)
{
    if (s < STATIC_FIELD)
        return g_strdup(w->prog->globals[s].name);
    if (s < STATIC_ELEMS) {
        const CClass *c = &w->prog->classes[(s >> 20) & 0xfffff];
        return g_strdup_printf("%s.%s", c->name, c->fields[s & 0xfffff].name);
    }
    int64_t obj = s & ~STATIC_ELEMS;
    for (int g = 0; g < w->prog->n_globals; g++)
        if (w->global_ref[g] == obj)
            return g_strdup_printf("%s[]", w->prog->globals[g].name);
    char *name = world_obj_name(w, obj);
    char *elems = g_strdup_printf("%s[]", name);
    g_free(name);
    return elems;
}

bool world_parse_static_loc(const World *w, const char *name, StaticLoc *out)
{
    const Program *p = w->prog;
    size_t len = strlen(name);
    bool elems = len > 2 && strcmp(name + len - 2, "[]") == 0;
    const char *dot = strchr(name, '.');
    if (dot && !elems) {
        for (int c = 0; c < p->n_classes; c++) {
            if (strncmp(p->classes[c].name, name, (size_t)(dot - name)) != 0 ||
                p->classes[c].name[dot - name])
                continue;
            for (int f = 0; f < p->classes[c].n_fields; f++) {
                if (strcmp(p->classes[c].fields[f].name, dot + 1) == 0) {
                    *out = STATIC_FIELD | (int64_t)c << 20 | f;
                    return true;
                }
            }
        }
        return false;
    }
    for (int g = 0; g < p->n_globals; g++) {
        if (strncmp(p->globals[g].name, name, elems ? len - 2 : len) != 0 ||
            p->globals[g].name[elems ? len - 2 : len])
            continue;
        if (!elems) {
            *out = g;
            return true;
        }
        int64_t ref = w->global_ref[g];
        if (!ref || w->objs[ref].class_index >= 0)
            return false;
        *out = STATIC_ELEMS | w->global_ref[g];
        return true;
    }
    return false;
}

void world_note_init_write(World *w, int global, int64_t value)
{
    const Type *t = w->prog->globals[global].type;
    if (t && type_is_ref(t) && value >= 0 && value < w->n_objs)
        w->global_ref[global] = value;
}

static void add_to(GHashTable **set, StaticLoc s)
{
    if (!*set)
        *set = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    g_hash_table_add(*set, g_memdup2(&s, sizeof s));
}

void world_make_volatile(World *w, StaticLoc s)
{
    add_to(&w->make_volatile, s);
    for (Loc l = 0; l < w->n_locs; l++)
        apply_overrides(w, l);
}

void world_relax_only(World *w, StaticLoc s)
{
    add_to(&w->relax_only, s);
    for (Loc l = 0; l < w->n_locs; l++)
        apply_overrides(w, l);
}

void world_request(World *w, const char *const *make_volatile, const char *relax)
{
    w->want_volatile = make_volatile;
    w->want_relax = relax;
}

const char *world_resolve_requests(World *w)
{
    StaticLoc s;
    for (const char *const *name = w->want_volatile; name && *name; name++) {
        if (!world_parse_static_loc(w, *name, &s))
            return w->unresolved = *name;
        world_make_volatile(w, s);
    }
    if (w->want_relax) {
        if (!world_parse_static_loc(w, w->want_relax, &s))
            return w->unresolved = w->want_relax;
        world_relax_only(w, s);
    }
    w->want_volatile = NULL;
    w->want_relax = NULL;
    return NULL;
}
