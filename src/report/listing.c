/* PathRelax execution listings: JPR action ids, and every legal execution in text and JSON.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <string.h>

#include "pathrelax/report.h"

/* ---- action ids ----------------------------------------------------- */

/* The kind of an action id; NULL for events that are not actions. */
static const char *action_kind(const Event *ev)
{
    switch ((EventKind)ev->kind) {
    case EV_READ: return ev->is_volatile ? "Rv" : "R";
    case EV_WRITE: return ev->is_volatile ? "Wv" : "W";
    case EV_LOCK: return "L";
    case EV_UNLOCK: return "U";
    case EV_JOIN: return "J";
    case EV_END: return "E";
    case EV_FLUSH: case EV_ASSERT: case EV_EXCEPTION: break;
    }
    return NULL;
}

/* The kind as the JSON listing names it: the id's kind for actions. */
static const char *event_kind_name(const Event *ev)
{
    switch ((EventKind)ev->kind) {
    case EV_FLUSH: return "flush";
    case EV_ASSERT: return "assert";
    case EV_EXCEPTION: return "exception";
    default: return action_kind(ev);
    }
}

/* What an event acts on: a location, the object of a lock or unlock, the
   joined thread; NULL for a thread end, an assert or an exception. */
static char *event_location(const World *w, const Event *ev)
{
    switch ((EventKind)ev->kind) {
    case EV_READ: case EV_WRITE: case EV_FLUSH:
        return world_loc_name(w, ev->loc);
    case EV_LOCK: case EV_UNLOCK:
        return world_obj_name(w, ev->arg);
    case EV_JOIN:
        return g_strdup(world_thread_name(w, (int)ev->arg));
    case EV_END: case EV_ASSERT: case EV_EXCEPTION:
        break;
    }
    return NULL;
}

static bool event_has_value(const Event *ev)
{
    return ev->kind == EV_READ || ev->kind == EV_WRITE || ev->kind == EV_FLUSH;
}

/* "<W,P0,x,N>", N counting the earlier actions with the same prefix
   (counts maps each prefix to how many there were so far). */
static char *action_id(const World *w, const Event *ev, GHashTable *counts)
{
    const char *kind = action_kind(ev);
    if (!kind)
        return NULL;
    char *loc = event_location(w, ev);
    char *prefix = g_strdup_printf("<%s,%s,%s", kind, world_thread_name(w, ev->tid),
                                   loc ? loc : "-");
    g_free(loc);
    guint n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, prefix));
    char *id = g_strdup_printf("%s,%u>", prefix, n);
    g_hash_table_insert(counts, prefix, GUINT_TO_POINTER(n + 1));
    return id;
}

GPtrArray *report_action_ids(const Result *r, const Execution *e)
{
    GPtrArray *ids = g_ptr_array_new_full((guint)e->len, g_free);
    GHashTable *counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t i = 0; i < e->len; i++)
        g_ptr_array_add(ids, action_id(r->world, &e->events[i], counts));
    g_hash_table_destroy(counts);
    return ids;
}

/* The id of the write a read saw, "INIT" for the default value; NULL if
   the read's source is not an action of e (never so for a legal
   execution, whose reads are all resolved). */
static const char *read_source(const GPtrArray *ids, const Execution *e, const Event *ev)
{
    if (ev->rf == RF_INIT)
        return "INIT";
    if (ev->rf < 0 || (size_t)ev->rf >= e->len)
        return NULL;
    return g_ptr_array_index(ids, ev->rf);
}

/* ---- what an event does --------------------------------------------- */

/* "VERB LOC = VALUE" */
static void append_access(GString *out, const World *w, const char *verb, const Event *ev)
{
    char *loc = world_loc_name(w, ev->loc);
    char *value = world_value_string(w, world_loc_type(w, ev->loc), ev->value);
    g_string_append_printf(out, "%s %s = %s", verb, loc, value);
    g_free(value);
    g_free(loc);
}

static void append_assert(GString *out, const Program *prog, int index)
{
    const CAssert *a = &prog->asserts[index];
    g_string_append_printf(out, "assertion failed: %s", a->message ? a->message : a->text);
}

void report_action_text(GString *out, const Result *r, const Event *ev)
{
    const World *w = r->world;
    char *loc = event_location(w, ev);
    switch ((EventKind)ev->kind) {
    case EV_READ:
    case EV_WRITE:
        append_access(out, w, action_kind(ev), ev);
        if (ev->buffered)
            g_string_append(out, " (buffered)");
        break;
    case EV_FLUSH:
        append_access(out, w, "flush", ev);
        break;
    case EV_LOCK:
        g_string_append_printf(out, "lock %s", loc);
        break;
    case EV_UNLOCK:
        g_string_append_printf(out, "unlock %s", loc);
        break;
    case EV_JOIN:
        g_string_append_printf(out, "join %s", loc);
        break;
    case EV_END:
        g_string_append(out, "end");
        break;
    case EV_ASSERT:
        append_assert(out, r->prog, ev->msg);
        break;
    case EV_EXCEPTION:
        g_string_append_printf(out, "throws %s", exception_name((ExceptionKind)ev->msg));
        break;
    }
    g_free(loc);
}

/* ---- text ----------------------------------------------------------- */

/* "P0:r0=0; P1:r1=1;" */
static const int64_t *execution_state(const Result *r, const Execution *e, guint k)
{
    return e->states + (size_t)k * r->prog->ast->shown->len;
}

/* "Execution 1: STATE | STATE" */
static void append_execution_header(GString *out, const Result *r, const Execution *e,
                                    guint index)
{
    g_string_append_printf(out, "Execution %u:", index);
    for (guint k = 0; k < e->n_states; k++) {
        g_string_append(out, k > 0 ? " | " : " ");
        report_state_line(out, r, execution_state(r, e, k));
    }
    g_string_append_c(out, '\n');
}

/* "P0 L.6", the second column. */
static char *event_place(const World *w, const Event *ev)
{
    return g_strdup_printf("%s L.%d", world_thread_name(w, ev->tid), ev->line);
}

static int max_width(const GPtrArray *strings)
{
    size_t width = 0;
    for (guint i = 0; i < strings->len; i++) {
        const char *s = g_ptr_array_index(strings, i);
        if (s)
            width = MAX(width, strlen(s));
    }
    return (int)width;
}

static void append_event_line(GString *out, const Result *r, const Execution *e,
                              const GPtrArray *ids, const char *place, int id_width,
                              int place_width, size_t i)
{
    const Event *ev = &e->events[i];
    const char *id = g_ptr_array_index(ids, i);
    g_string_append_printf(out, "  %-*s  %-*s  ", id_width, id ? id : "", place_width, place);
    report_action_text(out, r, ev);
    const char *source = ev->kind == EV_READ ? read_source(ids, e, ev) : NULL;
    if (source)
        g_string_append_printf(out, "  reads-from %s%s", source, ev->future ? " (future)" : "");
    g_string_append_c(out, '\n');
}

static void append_execution(GString *out, const Result *r, const Execution *e, guint index)
{
    GPtrArray *ids = report_action_ids(r, e);
    GPtrArray *places = g_ptr_array_new_full((guint)e->len, g_free);
    for (size_t i = 0; i < e->len; i++)
        g_ptr_array_add(places, event_place(r->world, &e->events[i]));
    int id_width = max_width(ids), place_width = max_width(places);

    append_execution_header(out, r, e, index);
    for (size_t i = 0; i < e->len; i++)
        append_event_line(out, r, e, ids, g_ptr_array_index(places, i), id_width, place_width, i);
    g_ptr_array_unref(places);
    g_ptr_array_unref(ids);
}

void report_executions_text(GString *out, const Result *r)
{
    g_string_append_printf(out, "Executions %u\n", r->executions->len);
    for (guint i = 0; i < r->executions->len; i++)
        append_execution(out, r, g_ptr_array_index(r->executions, i), i + 1);
}

/* ---- JSON ----------------------------------------------------------- */

/* As the top-level states: numbers and booleans as such, null as null,
   other references by the name of their object. */
static void add_nullable_string(JsonBuilder *b, const char *name, const char *value)
{
    json_builder_set_member_name(b, name);
    if (value)
        json_builder_add_string_value(b, value);
    else
        json_builder_add_null_value(b);
}

static void add_event_value(JsonBuilder *b, const World *w, const Event *ev)
{
    json_builder_set_member_name(b, "value");
    if (event_has_value(ev))
        report_json_value(b, w, world_loc_type(w, ev->loc), ev->value);
    else
        json_builder_add_null_value(b);
}

static void add_read_source(JsonBuilder *b, const GPtrArray *ids, const Execution *e,
                            const Event *ev)
{
    const char *source = read_source(ids, e, ev);
    if (source) {
        json_builder_set_member_name(b, "reads_from");
        json_builder_add_string_value(b, source);
    }
    json_builder_set_member_name(b, "future");
    json_builder_add_boolean_value(b, ev->future);
}

static void add_action(JsonBuilder *b, const Result *r, const Execution *e,
                       const GPtrArray *ids, size_t i)
{
    const Event *ev = &e->events[i];
    json_builder_begin_object(b);
    add_nullable_string(b, "id", g_ptr_array_index(ids, i));
    add_nullable_string(b, "kind", event_kind_name(ev));
    add_nullable_string(b, "thread", world_thread_name(r->world, ev->tid));
    json_builder_set_member_name(b, "line");
    json_builder_add_int_value(b, ev->line);
    char *loc = event_location(r->world, ev);
    add_nullable_string(b, "location", loc);
    g_free(loc);
    add_event_value(b, r->world, ev);
    if (ev->kind == EV_READ)
        add_read_source(b, ids, e, ev);
    json_builder_end_object(b);
}

static void add_execution(JsonBuilder *b, const Result *r, const Execution *e, guint index)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "index");
    json_builder_add_int_value(b, index);
    json_builder_set_member_name(b, "states");
    json_builder_begin_array(b);
    for (guint k = 0; k < e->n_states; k++)
        report_json_state(b, r, execution_state(r, e, k));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "actions");
    json_builder_begin_array(b);
    GPtrArray *ids = report_action_ids(r, e);
    for (size_t i = 0; i < e->len; i++)
        add_action(b, r, e, ids, i);
    g_ptr_array_unref(ids);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

void report_executions_json(JsonBuilder *b, const Result *r)
{
    json_builder_set_member_name(b, "executions");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->executions->len; i++)
        add_execution(b, r, g_ptr_array_index(r->executions, i), i + 1);
    json_builder_end_array(b);
}
