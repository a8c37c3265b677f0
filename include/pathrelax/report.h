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
   condition, violations, stats). */
JsonNode *report_json(const Result *r);

/* One trace line per event, as "  T1 L.12: R x = 0 [INIT]". */
void report_trace(GString *out, const Result *r, const Event *trace, size_t len);

#endif
