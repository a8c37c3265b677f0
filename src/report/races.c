/* Reports of the race analysis (--races): text and JSON.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/report.h"

static const char *access_kind(const RaceAccess *a) { return a->is_write ? "write" : "read"; }

/* The race's trace names objects of the search that found it. */
static void append_race_trace(GString *out, const Result *r, const Race *race)
{
    Result names = *r;
    names.world = r->races_world ? r->races_world : r->world;
    report_trace(out, &names, race->trace, race->trace_len);
}

void report_races_text(GString *out, const Result *r)
{
    if (!r->races_checked)
        return;
    if (r->races->len == 0) {
        g_string_append(out, "Races 0: the program is data-race free\n");
        return;
    }
    const World *w = r->races_world ? r->races_world : r->world;
    g_string_append_printf(out, "Races %u\n", r->races->len);
    for (guint i = 0; i < r->races->len; i++) {
        const Race *race = g_ptr_array_index(r->races, i);
        g_string_append_printf(out, "Race %s: %s at %s line %d / %s at %s line %d: %s\n", race->loc_name,
                               access_kind(&race->source), world_thread_name(w, race->source.tid),
                               race->source.line, access_kind(&race->manifest),
                               world_thread_name(w, race->manifest.tid), race->manifest.line,
                               race_class_name(race->cls));
        append_race_trace(out, r, race);
        for (guint j = 0; j < race->advice->len; j++) {
            const Advice *a = g_ptr_array_index(race->advice, j);
            g_string_append_printf(out, "  Advice: %s (%s): %s\n", a->text, a->change, a->reason);
        }
    }
}

static void add_access(JsonBuilder *b, const World *w, const RaceAccess *a)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "thread");
    json_builder_add_string_value(b, world_thread_name(w, a->tid));
    json_builder_set_member_name(b, "line");
    json_builder_add_int_value(b, a->line);
    json_builder_set_member_name(b, "kind");
    json_builder_add_string_value(b, access_kind(a));
    json_builder_end_object(b);
}

static void add_advice(JsonBuilder *b, const Advice *a)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "text");
    json_builder_add_string_value(b, a->text);
    json_builder_set_member_name(b, "change");
    json_builder_add_string_value(b, a->change);
    json_builder_set_member_name(b, "verified");
    json_builder_add_boolean_value(b, a->verified);
    json_builder_set_member_name(b, "reason");
    json_builder_add_string_value(b, a->reason);
    json_builder_end_object(b);
}

static void add_race(JsonBuilder *b, const Result *r, const Race *race)
{
    const World *w = r->races_world ? r->races_world : r->world;
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "location");
    json_builder_add_string_value(b, race->loc_name);
    json_builder_set_member_name(b, "statements");
    json_builder_begin_array(b);
    add_access(b, w, &race->source);
    add_access(b, w, &race->manifest);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "class");
    json_builder_add_string_value(b, race_class_name(race->cls));
    json_builder_set_member_name(b, "advice");
    json_builder_begin_array(b);
    for (guint i = 0; i < race->advice->len; i++)
        add_advice(b, g_ptr_array_index(race->advice, i));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "trace");
    Result names = *r;
    names.world = r->races_world ? r->races_world : r->world;
    report_json_trace(b, &names, race->trace, race->trace_len);
    json_builder_end_object(b);
}

void report_races_json(JsonBuilder *b, const Result *r)
{
    if (!r->races_checked)
        return;
    json_builder_set_member_name(b, "drf");
    json_builder_add_boolean_value(b, r->races->len == 0);
    json_builder_set_member_name(b, "races");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->races->len; i++)
        add_race(b, r, g_ptr_array_index(r->races, i));
    json_builder_end_array(b);
}
