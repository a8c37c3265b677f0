/* PathRelax reports: herd-style text and JSON.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_REPORT_H
#define PATHRELAX_REPORT_H

#include <json-glib/json-glib.h>
#include "pathrelax/result.h"

/* Appends the text result of one file to out, in herd7's shape:
     Test NAME Allowed|Required
     States N
     T1:r1=0; T2:r2=1;
     ...
     Ok|No
     Witnesses
     Positive: P Negative: N
     Condition exists (...)
     Observation NAME Always|Sometimes|Never P N
   then the violations with their traces, then the figures. */
void report_text(GString *out, const Result *r);

/* The JSON object of one file (keys: name, model, complete, states,
   condition, violations, stats; and executions when r->list_executions). */
JsonNode *report_json(const Result *r);

/* --races: herd's "Flag data-race" line is printed by report_text; these
   give the race section (each race, its class, its trace and its checked
   advice) in text, and the "drf" and "races" keys in JSON. */
void report_races_text(GString *out, const Result *r);
void report_races_json(JsonBuilder *b, const Result *r);

/* Shared pieces: a final state as "P0:r0=1; x=2;" (no newline), a value
   or a state as JSON, and a trace as a JSON array of lines. */
void report_state_line(GString *out, const Result *r, const int64_t *values);
void report_json_value(JsonBuilder *b, const World *w, const Type *type, int64_t value);
void report_json_state(JsonBuilder *b, const Result *r, const int64_t *values);
void report_json_trace(JsonBuilder *b, const Result *r, const Event *trace, size_t len);

/* One trace line per event, as "  T1 L.12: R x = 0 [INIT]". */
void report_trace(GString *out, const Result *r, const Event *trace, size_t len);

/* ---- executions (--list-executions, --dot) --------------------------- */

/* The action id of each event of e, "<KIND,THREAD,LOCATION,N>" (JPR Section
   III): the N-th action (from 0) of that kind by that thread on that
   location. Kinds R, W, Rv, Wv, L, U (location: the object), J (location:
   the joined thread), E (location: -). Events that are not actions (flush,
   failed assert, exception) get NULL. The array frees its strings. */
GPtrArray *report_action_ids(const Result *r, const Execution *e);

/* What an event does, as "W x = 1", "lock Helper@init.0", "join P1", "end",
   "flush x = 1", "assertion failed: ...", "throws NullPointerException". */
void report_action_text(GString *out, const Result *r, const Event *ev);

/* After report_text: "Executions N", then one block per execution:
     Execution 1: P0:r0=0; P1:r1=1;
       <W,P0,x,0>  P0 L.6  W x = 1
       <R,P1,x,0>  P1 L.11 R x = 1  reads-from <W,P0,x,0> (future)
   with the execution's final states after the colon (several joined by
   " | "). */
void report_executions_text(GString *out, const Result *r);

/* The "executions" member of report_json's object: a list of {index,
   states, actions: [{id, kind, thread, line, location, value, reads_from,
   future}]}. */
void report_executions_json(JsonBuilder *b, const Result *r);

/* Writes DIR/NAME-N.dot for each execution N (from 1): a Graphviz digraph
   with a cluster per thread, and po, rf and sw edges. Creates dir if
   missing. */
bool report_dot(const Result *r, const char *dir, GError **err);

/* The --stats table, one row per result, shaped like the JPR paper's
   Fig. 14: test, threads, iter, time, 1st, ave, WS, states, mem. */
void report_stats_table(GString *out, Result *const *results, guint n);

#endif
