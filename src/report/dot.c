/* PathRelax Graphviz output: one digraph per legal execution, with po, rf and sw edges.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Nodes are the execution's actions (those with an action id), one cluster
 * per thread; events that are not actions (flushes, failed asserts,
 * exceptions) are left out.
 */
#include <errno.h>
#include <string.h>

#include "pathrelax/report.h"

typedef struct {
    const Result *r;
    const Execution *e;
    GPtrArray *ids;   /* action id per event, NULL: not a node */
    GString *out;
} Graph;

static bool is_node(const Graph *g, size_t i)
{
    return g_ptr_array_index(g->ids, i) != NULL;
}

/* Text inside a DOT double-quoted string. */
static void append_escaped(GString *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            g_string_append_c(out, '\\');
        g_string_append_c(out, *s);
    }
}

/* ---- nodes ---------------------------------------------------------- */

/* e7 [label="<W,P0,x,0>\nW x = 1\nL.6"] */
static void append_node(Graph *g, size_t i)
{
    const Event *ev = &g->e->events[i];
    GString *what = g_string_new(NULL);
    report_action_text(what, g->r, ev);
    if (ev->kind == EV_READ && ev->rf == RF_INIT)
        g_string_append(what, " [INIT]");
    g_string_append_printf(g->out, "    e%zu [label=\"", i);
    append_escaped(g->out, g_ptr_array_index(g->ids, i));
    g_string_append(g->out, "\\n");
    append_escaped(g->out, what->str);
    g_string_append_printf(g->out, "\\nL.%d\"];\n", ev->line);
    g_string_free(what, TRUE);
}

static void append_cluster(Graph *g, int tid)
{
    g_string_append_printf(g->out, "  subgraph cluster_%d {\n    label=\"", tid);
    append_escaped(g->out, world_thread_name(g->r->world, tid));
    g_string_append(g->out, "\";\n");
    for (size_t i = 0; i < g->e->len; i++)
        if (g->e->events[i].tid == tid && is_node(g, i))
            append_node(g, i);
    g_string_append(g->out, "  }\n");
}

/* ---- edges ---------------------------------------------------------- */

static void append_edge(Graph *g, size_t from, size_t to, const char *attrs)
{
    g_string_append_printf(g->out, "  e%zu -> e%zu [%s];\n", from, to, attrs);
}

static void append_sw(Graph *g, size_t from, size_t to)
{
    append_edge(g, from, to, "color=blue, fontcolor=blue, label=\"sw\"");
}

/* Between consecutive actions of each thread. */
static void append_po_edges(Graph *g)
{
    size_t n_tids = (size_t)g->r->world->n_tids;
    gssize *last = g_new(gssize, n_tids);
    for (size_t t = 0; t < n_tids; t++)
        last[t] = -1;
    for (size_t i = 0; i < g->e->len; i++) {
        if (!is_node(g, i))
            continue;
        int tid = g->e->events[i].tid;
        if (last[tid] >= 0)
            append_edge(g, (size_t)last[tid], i, "label=\"po\"");
        last[tid] = (gssize)i;
    }
    g_free(last);
}

/* From each write to the reads that saw it; a volatile read also
   synchronises with that write. Reads of the default value have no
   edge (their label says [INIT]). */
static void append_rf_edges(Graph *g)
{
    for (size_t i = 0; i < g->e->len; i++) {
        const Event *ev = &g->e->events[i];
        if (ev->kind != EV_READ || ev->rf < 0 || !is_node(g, (size_t)ev->rf))
            continue;
        append_edge(g, (size_t)ev->rf, i,
                    ev->future ? "color=red, fontcolor=red, style=dashed, label=\"rf (future)\""
                               : "color=red, fontcolor=red, label=\"rf\"");
        if (ev->is_volatile)
            append_sw(g, (size_t)ev->rf, i);
    }
}

/* From each unlock to the next lock of the same object. */
static void append_lock_edges(Graph *g)
{
    const Event *v = g->e->events;
    for (size_t i = 0; i < g->e->len; i++) {
        if (v[i].kind != EV_UNLOCK)
            continue;
        for (size_t j = i + 1; j < g->e->len; j++) {
            if (v[j].kind == EV_LOCK && v[j].arg == v[i].arg) {
                append_sw(g, i, j);
                break;
            }
        }
    }
}

/* The end event of thread tid, or -1. */
static gssize thread_end(const Graph *g, int tid)
{
    for (size_t i = 0; i < g->e->len; i++)
        if (g->e->events[i].kind == EV_END && g->e->events[i].tid == tid)
            return (gssize)i;
    return -1;
}

/* From a thread's end to each join of it. */
static void append_join_edges(Graph *g)
{
    for (size_t j = 0; j < g->e->len; j++) {
        const Event *ev = &g->e->events[j];
        if (ev->kind != EV_JOIN)
            continue;
        gssize end = thread_end(g, (int)ev->arg);
        if (end >= 0)
            append_sw(g, (size_t)end, j);
    }
}

/* The first action of thread tid, or -1. */
static gssize first_action(const Graph *g, int tid)
{
    for (size_t i = 0; i < g->e->len; i++)
        if (g->e->events[i].tid == tid && is_node(g, i))
            return (gssize)i;
    return -1;
}

/* The last action of thread tid, or -1. */
static gssize last_action(const Graph *g, int tid)
{
    for (size_t i = g->e->len; i-- > 0;)
        if (g->e->events[i].tid == tid && is_node(g, i))
            return (gssize)i;
    return -1;
}

/* From the initial thread's last action to each thread's first: the
   initial thread starts them all. */
static void append_start_edges(Graph *g)
{
    gssize init_last = last_action(g, 0);
    if (init_last < 0)
        return;
    for (int t = 1; t < g->r->world->n_tids; t++) {
        gssize first = first_action(g, t);
        if (first >= 0)
            append_sw(g, (size_t)init_last, (size_t)first);
    }
}

/* ---- files ---------------------------------------------------------- */

static void append_graph(Graph *g, const char *title)
{
    g_string_append(g->out, "digraph \"");
    append_escaped(g->out, title);
    g_string_append(g->out, "\" {\n  label=\"");
    append_escaped(g->out, title);
    g_string_append(g->out, "\";\n  node [shape=box, fontname=\"monospace\"];\n");
    for (int t = 0; t < g->r->world->n_tids; t++)
        append_cluster(g, t);
    append_po_edges(g);
    append_rf_edges(g);
    append_lock_edges(g);
    append_join_edges(g);
    append_start_edges(g);
    g_string_append(g->out, "}\n");
}

/* The test name with characters outside [A-Za-z0-9_.+-] replaced by _. */
static char *file_stem(const char *name)
{
    char *stem = g_strdup(name);
    for (char *c = stem; *c; c++)
        if (!g_ascii_isalnum(*c) && !strchr("_.+-", *c))
            *c = '_';
    return stem;
}

static bool write_execution(const Result *r, const Execution *e, const char *dir,
                            const char *stem, guint index, GError **err)
{
    char *title = g_strdup_printf("%s-%u", stem, index);
    char *file = g_strconcat(title, ".dot", NULL);
    char *path = g_build_filename(dir, file, NULL);
    Graph g = {r, e, report_action_ids(r, e), g_string_new(NULL)};
    append_graph(&g, title);
    bool ok = g_file_set_contents(path, g.out->str, (gssize)g.out->len, err);
    g_string_free(g.out, TRUE);
    g_ptr_array_unref(g.ids);
    g_free(path);
    g_free(file);
    g_free(title);
    return ok;
}

bool report_dot(const Result *r, const char *dir, GError **err)
{
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int saved = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(saved),
                    "cannot create directory %s: %s", dir, g_strerror(saved));
        return false;
    }
    char *stem = file_stem(r->prog->ast->name);
    bool ok = true;
    for (guint i = 0; ok && i < r->executions->len; i++)
        ok = write_execution(r, g_ptr_array_index(r->executions, i), dir, stem, i + 1, err);
    g_free(stem);
    return ok;
}
