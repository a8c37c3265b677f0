/* PathRelax JSON report: one object per file, built with json-glib.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/report.h"

/* ---- states --------------------------------------------------------- */

/* Numbers and booleans as such, null as null, other references by the
   name of their object. */
void report_json_value(JsonBuilder *b, const World *w, const Type *type, int64_t value)
{
    if (world_value_undefined(type, value)) {
        json_builder_add_string_value(b, "undefined");
        return;
    }
    switch (type->kind) {
    case TY_BOOL:
        json_builder_add_boolean_value(b, value != 0);
        return;
    case TY_CLASS:
    case TY_ARRAY:
    case TY_ATOMIC_INT:
    case TY_ATOMIC_ARRAY:
    case TY_NULL:
        if (value == 0) {
            json_builder_add_null_value(b);
        } else {
            char *name = world_value_string(w, type, value);
            json_builder_add_string_value(b, name);
            g_free(name);
        }
        return;
    default:
        json_builder_add_int_value(b, value);
        return;
    }
}

void report_json_state(JsonBuilder *b, const Result *r, const int64_t *values)
{
    const GPtrArray *shown = r->prog->ast->shown;
    json_builder_begin_object(b);
    for (guint i = 0; i < shown->len; i++) {
        const CondLoc *loc = g_ptr_array_index(shown, i);
        json_builder_set_member_name(b, loc->text);
        report_json_value(b, r->world, loc->type, values[i]);
    }
    json_builder_end_object(b);
}

static void add_states(JsonBuilder *b, const Result *r)
{
    json_builder_set_member_name(b, "states");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->states->len; i++)
        report_json_state(b, r, g_array_index(r->states, FinalState, i).values);
    json_builder_end_array(b);
}

/* ---- condition ------------------------------------------------------ */

static const char *cond_kind_name(CondKind kind)
{
    switch (kind) {
    case CK_EXISTS: return "exists";
    case CK_NOT_EXISTS: return "~exists";
    case CK_FORALL: return "forall";
    case CK_NONE: break;
    }
    return NULL;
}

static void add_condition(JsonBuilder *b, const Result *r)
{
    const Ast *ast = r->prog->ast;
    json_builder_set_member_name(b, "condition");
    if (ast->cond_kind == CK_NONE) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "kind");
    json_builder_add_string_value(b, cond_kind_name(ast->cond_kind));
    json_builder_set_member_name(b, "text");
    json_builder_add_string_value(b, ast->cond_text);
    json_builder_set_member_name(b, "validated");
    json_builder_add_boolean_value(b, result_validated(r));
    json_builder_set_member_name(b, "positive");
    json_builder_add_int_value(b, (gint64)r->positive);
    json_builder_set_member_name(b, "negative");
    json_builder_add_int_value(b, (gint64)r->negative);
    json_builder_end_object(b);
}

/* ---- violations ----------------------------------------------------- */

/* The text report's trace lines, without their indentation. */
void report_json_trace(JsonBuilder *b, const Result *r, const Event *trace, size_t len)
{
    GString *text = g_string_new(NULL);
    report_trace(text, r, trace, len);
    char **lines = g_strsplit(text->str, "\n", -1);
    json_builder_begin_array(b);
    for (char **line = lines; *line; line++) {
        if (**line != '\0')
            json_builder_add_string_value(b, g_strchug(*line));
    }
    json_builder_end_array(b);
    g_strfreev(lines);
    g_string_free(text, TRUE);
}

static void add_violation(JsonBuilder *b, const Result *r, const Violation *v)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "kind");
    json_builder_add_string_value(b, violation_kind_name(v->kind));
    json_builder_set_member_name(b, "thread");
    if (v->kind == VIOL_DEADLOCK)
        json_builder_add_null_value(b);
    else
        json_builder_add_string_value(b, world_thread_name(r->world, v->tid));
    json_builder_set_member_name(b, "line");
    json_builder_add_int_value(b, v->line);
    json_builder_set_member_name(b, "message");
    json_builder_add_string_value(b, v->message);
    json_builder_set_member_name(b, "count");
    json_builder_add_int_value(b, (gint64)v->count);
    json_builder_set_member_name(b, "trace");
    report_json_trace(b, r, v->trace, v->trace_len);
    json_builder_end_object(b);
}

static void add_violations(JsonBuilder *b, const Result *r)
{
    json_builder_set_member_name(b, "violations");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->violations->len; i++)
        add_violation(b, r, g_ptr_array_index(r->violations, i));
    json_builder_end_array(b);
}

/* ---- figures -------------------------------------------------------- */

static void add_uint_member(JsonBuilder *b, const char *name, uint64_t value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, (gint64)value);
}

static void add_double_member(JsonBuilder *b, const char *name, double value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_double_value(b, value);
}

static void add_rounds(JsonBuilder *b, const Result *r)
{
    json_builder_set_member_name(b, "rounds");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->rounds->len; i++) {
        const SearchStats *round = &g_array_index(r->rounds, SearchStats, i);
        json_builder_begin_object(b);
        add_uint_member(b, "states_visited", round->states_visited);
        add_uint_member(b, "executions", round->executions);
        add_double_member(b, "seconds", round->seconds);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static void add_stats(JsonBuilder *b, const Result *r)
{
    const SearchStats *t = &r->total;
    json_builder_set_member_name(b, "stats");
    json_builder_begin_object(b);
    add_uint_member(b, "executions", t->executions);
    add_uint_member(b, "states_visited", t->states_visited);
    add_uint_member(b, "transitions", t->transitions);
    add_uint_member(b, "discarded", t->discarded);
    add_uint_member(b, "cut", search_stats_cut(t));
    add_uint_member(b, "cut_unroll", t->cut_unroll);
    add_uint_member(b, "cut_depth", t->cut_depth);
    add_uint_member(b, "cut_size", t->cut_size);
    add_double_member(b, "seconds", t->seconds);
    add_uint_member(b, "peak_rss_kb", r->peak_rss_kb);
    add_uint_member(b, "unroll", (uint64_t)r->unroll);
    json_builder_set_member_name(b, "drf_shortcut");
    json_builder_add_boolean_value(b, r->drf_shortcut);
    if (r->iterations > 0) {
        add_uint_member(b, "iterations", (uint64_t)r->iterations);
        add_uint_member(b, "writeset", r->writeset_size);
        add_rounds(b, r);
    }
    json_builder_end_object(b);
}

static void add_limit(JsonBuilder *b, LimitHit limit)
{
    json_builder_set_member_name(b, "limit");
    switch (limit) {
    case LIMIT_STATES:
        json_builder_add_string_value(b, "states");
        return;
    case LIMIT_TIME:
        json_builder_add_string_value(b, "time");
        return;
    case LIMIT_MEMORY:
        json_builder_add_string_value(b, "memory");
        return;
    case LIMIT_VIOLATION:
        json_builder_add_string_value(b, "violation");
        return;
    case LIMIT_NONE:
        break;
    }
    json_builder_add_null_value(b);
}

JsonNode *report_json(const Result *r)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "name");
    json_builder_add_string_value(b, r->prog->ast->name);
    json_builder_set_member_name(b, "model");
    json_builder_add_string_value(b, r->model);
    json_builder_set_member_name(b, "complete");
    json_builder_add_boolean_value(b, result_complete(r));
    add_limit(b, r->limit);
    add_states(b, r);
    add_condition(b, r);
    add_violations(b, r);
    report_races_json(b, r);
    add_stats(b, r);
    if (r->list_executions)
        report_executions_json(b, r);
    json_builder_end_object(b);

    JsonNode *root = json_builder_get_root(b);
    g_object_unref(b);
    return root;
}
