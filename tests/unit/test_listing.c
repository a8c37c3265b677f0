/* Unit tests of the execution listings (--list-executions), the action ids,
 * the Graphviz output (--dot) and the statistics table (--stats).
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <check.h>
#include <string.h>

#include <glib/gstdio.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
#include "pathrelax/report.h"
#include "testutil.h"

/* One program checked under a model with --list-executions. */
static Run run_listing(const char *model, const char *text)
{
    ExploreConfig cfg = {.unroll = EXPLORE_DEFAULT_UNROLL, .list_executions = true};
    return run_program(model, &cfg, text);
}

static const Execution *execution(const Result *r, guint i)
{
    ck_assert_uint_gt(r->executions->len, i);
    return g_ptr_array_index(r->executions, i);
}

/* The index of the event with that action id in e, or -1. */
static gssize find_id(const GPtrArray *ids, const char *id)
{
    for (guint i = 0; i < ids->len; i++) {
        const char *s = g_ptr_array_index(ids, i);
        if (s && strcmp(s, id) == 0)
            return (gssize)i;
    }
    return -1;
}

/* The id of the write that the read with id `read` saw, or "INIT". */
static const char *source_of(const Execution *e, const GPtrArray *ids, const char *read)
{
    gssize i = find_id(ids, read);
    ck_assert_msg(i >= 0, "no action %s", read);
    int32_t rf = e->events[i].rf;
    if (rf == RF_INIT)
        return "INIT";
    ck_assert_int_ge(rf, 0);
    return g_ptr_array_index(ids, rf);
}

static const char *sb_text = "Java SB\n"
                             "int x = 0, y = 0;\n"
                             "thread P0 { x = 1; int r0 = y; }\n"
                             "thread P1 { y = 1; int r1 = x; }\n"
                             "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

/* ---- action ids and executions ------------------------------------- */

START_TEST(sb_under_sc_has_three_executions)
{
    /* An execution is its actions with what each read saw. In SB each read
       sees either the initial write or the other thread's write: 4
       combinations, and SC forbids the one where both see the initial
       write (whichever write comes first in the interleaving is seen by
       the other thread's later read). So exactly 3 executions. */
    Run run = run_listing("sc", sb_text);
    const Result *r = run.r;
    ck_assert_uint_eq(r->executions->len, 3);
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < r->executions->len; i++) {
        const Execution *e = execution(r, i);
        GPtrArray *ids = report_action_ids(r, e);
        /* Every action of the path, the initial thread's included. */
        const char *expected[] = {"<W,init,x,0>", "<W,init,y,0>", "<E,init,-,0>", "<W,P0,x,0>",
                                  "<R,P0,y,0>", "<E,P0,-,0>", "<W,P1,y,0>", "<R,P1,x,0>",
                                  "<E,P1,-,0>"};
        ck_assert_uint_eq(ids->len, G_N_ELEMENTS(expected));
        for (guint k = 0; k < G_N_ELEMENTS(expected); k++)
            ck_assert_msg(find_id(ids, expected[k]) >= 0, "no action %s", expected[k]);
        const char *r0 = source_of(e, ids, "<R,P0,y,0>");
        const char *r1 = source_of(e, ids, "<R,P1,x,0>");
        ck_assert(strcmp(r0, "<W,init,y,0>") == 0 || strcmp(r0, "<W,P1,y,0>") == 0);
        ck_assert(strcmp(r1, "<W,init,x,0>") == 0 || strcmp(r1, "<W,P0,x,0>") == 0);
        ck_assert(strcmp(r0, "<W,init,y,0>") != 0 || strcmp(r1, "<W,init,x,0>") != 0);
        g_hash_table_add(seen, g_strconcat(r0, r1, NULL));
        ck_assert_uint_eq(e->n_states, 1);
        g_ptr_array_unref(ids);
    }
    ck_assert_uint_eq(g_hash_table_size(seen), 3);   /* three distinct ones */
    g_hash_table_destroy(seen);
    run_free(&run);
}
END_TEST

START_TEST(ids_count_per_kind_thread_and_location)
{
    /* x and y have no initialiser, so the initial thread writes neither
       and P1's read of x sees the default value (INIT). The n of an id
       counts per kind, thread and location: the two writes of x are 0 and
       1, the read of x is 0 again; locks name their object, joins the
       joined thread. */
    Run run = run_listing("sc", "Java ids\n"
                                "int x, y;\n"
                                "volatile int v;\n"
                                "class Lock {}\n"
                                "Lock o = new Lock();\n"
                                "thread P0 { x = 1; x = 2; int r0 = x; v = 1;\n"
                                "  synchronized (o) { y = 1; } }\n"
                                "thread P1 { int r1 = x; join P0; int r2 = v; }\n");
    const Result *r = run.r;
    ck_assert_uint_ge(r->executions->len, 1);
    bool saw_init = false;
    for (guint i = 0; i < r->executions->len; i++) {
        const Execution *e = execution(r, i);
        GPtrArray *ids = report_action_ids(r, e);
        const char *expected[] = {"<W,init,o,0>", "<W,P0,x,0>", "<W,P0,x,1>", "<R,P0,x,0>",
                                  "<Wv,P0,v,0>", "<R,P0,o,0>", "<L,P0,Lock@init.0,0>",
                                  "<W,P0,y,0>", "<U,P0,Lock@init.0,0>", "<E,P0,-,0>",
                                  "<R,P1,x,0>", "<J,P1,P0,0>", "<Rv,P1,v,0>"};
        for (guint k = 0; k < G_N_ELEMENTS(expected); k++)
            ck_assert_msg(find_id(ids, expected[k]) >= 0, "no action %s", expected[k]);
        ck_assert_str_eq(source_of(e, ids, "<R,P0,x,0>"), "<W,P0,x,1>");
        ck_assert_str_eq(source_of(e, ids, "<Rv,P1,v,0>"), "<Wv,P0,v,0>");
        saw_init |= strcmp(source_of(e, ids, "<R,P1,x,0>"), "INIT") == 0;
        g_ptr_array_unref(ids);
    }
    ck_assert(saw_init);
    run_free(&run);
}
END_TEST

START_TEST(lb_under_jmm_marks_future_reads)
{
    /* Under the JMM both LB reads may return 1, each seeing the other
       thread's write. On a path one of the two reads comes first, before
       the write it sees: that read is a read of a future write. */
    Run run = run_listing("jmm", "Java LB\n"
                                 "int x, y;\n"
                                 "thread P0 { int r0 = x; y = 1; }\n"
                                 "thread P1 { int r1 = y; x = 1; }\n"
                                 "exists (P0:r0 == 1 /\\ P1:r1 == 1)\n");
    const Result *r = run.r;
    bool found = false;
    for (guint i = 0; i < r->executions->len; i++) {
        const Execution *e = execution(r, i);
        GPtrArray *ids = report_action_ids(r, e);
        if (strcmp(source_of(e, ids, "<R,P0,x,0>"), "<W,P1,x,0>") == 0
            && strcmp(source_of(e, ids, "<R,P1,y,0>"), "<W,P0,y,0>") == 0) {
            found = true;
            bool future0 = e->events[find_id(ids, "<R,P0,x,0>")].future;
            bool future1 = e->events[find_id(ids, "<R,P1,y,0>")].future;
            ck_assert(future0 || future1);
        }
        g_ptr_array_unref(ids);
    }
    ck_assert(found);

    GString *out = g_string_new(NULL);
    report_executions_text(out, r);
    ck_assert_ptr_nonnull(strstr(out->str, "P0:r0=1; P1:r1=1;"));
    ck_assert_ptr_nonnull(strstr(out->str, " (future)\n"));
    ck_assert_ptr_nonnull(strstr(out->str, "reads-from INIT\n"));
    g_string_free(out, TRUE);
    run_free(&run);
}
END_TEST

/* ---- text and JSON ---------------------------------------------------- */

START_TEST(text_lists_one_block_per_execution)
{
    Run run = run_listing("sc", sb_text);
    GString *out = g_string_new(NULL);
    report_executions_text(out, run.r);
    ck_assert(g_str_has_prefix(out->str, "Executions 3\nExecution 1: "));
    ck_assert_ptr_nonnull(strstr(out->str, "\nExecution 3: "));
    ck_assert_ptr_null(strstr(out->str, "\nExecution 4: "));
    /* Columns: id, thread and line, what the action does, its source. */
    ck_assert_ptr_nonnull(strstr(out->str, "  <W,P0,x,0>    P0 L.3    W x = 1\n"));
    ck_assert_ptr_nonnull(strstr(out->str, "R y = 0  reads-from <W,init,y,0>\n"));
    g_string_free(out, TRUE);
    run_free(&run);
}
END_TEST

START_TEST(text_shows_non_actions_without_id)
{
    /* P1 reads x before or after P0 writes it; the assert fails when it
       read 0, and that line has no action id. */
    Run run = run_listing("sc", "Java A\n"
                                "int x;\n"
                                "thread P0 { x = 1; }\n"
                                "thread P1 { int r = x; assert r == 1 : \"stale\"; }\n");
    GString *out = g_string_new(NULL);
    report_executions_text(out, run.r);
    ck_assert_ptr_nonnull(strstr(out->str, "Executions 2\n"));
    const char *line = strstr(out->str, "assertion failed: stale\n");
    ck_assert_ptr_nonnull(line);
    while (line > out->str && line[-1] != '\n')
        line--;
    ck_assert_msg(g_str_has_prefix(line, "  ") && line[2] == ' ', "line with an id: %s", line);
    g_string_free(out, TRUE);
    run_free(&run);
}
END_TEST

START_TEST(json_has_executions_key)
{
    Run run = run_listing("sc", sb_text);
    JsonNode *root = report_json(run.r);
    JsonObject *doc = json_node_get_object(root);
    JsonArray *execs = json_object_get_array_member(doc, "executions");
    ck_assert_uint_eq(json_array_get_length(execs), 3);
    JsonObject *first = json_array_get_object_element(execs, 0);
    ck_assert_int_eq(json_object_get_int_member(first, "index"), 1);
    JsonArray *states = json_object_get_array_member(first, "states");
    ck_assert_uint_eq(json_array_get_length(states), 1);
    ck_assert(json_object_has_member(json_array_get_object_element(states, 0), "P0:r0"));

    JsonArray *actions = json_object_get_array_member(first, "actions");
    bool saw_read = false, saw_end = false;
    for (guint i = 0; i < json_array_get_length(actions); i++) {
        JsonObject *a = json_array_get_object_element(actions, i);
        const char *kind = json_object_get_string_member(a, "kind");
        ck_assert(json_object_has_member(a, "id") && json_object_has_member(a, "thread")
                  && json_object_has_member(a, "line") && json_object_has_member(a, "value"));
        if (strcmp(kind, "R") == 0) {
            saw_read = true;
            ck_assert(g_str_has_prefix(json_object_get_string_member(a, "reads_from"), "<W,"));
            ck_assert(!json_object_get_boolean_member(a, "future"));
        } else {
            ck_assert(!json_object_has_member(a, "reads_from"));
        }
        if (strcmp(kind, "E") == 0) {
            saw_end = true;
            ck_assert(json_object_get_null_member(a, "location"));
            ck_assert(json_object_get_null_member(a, "value"));
        }
    }
    ck_assert(saw_read && saw_end);
    json_node_unref(root);

    /* Without --list-executions there is no such key. */
    run.r->list_executions = false;
    root = report_json(run.r);
    ck_assert(!json_object_has_member(json_node_get_object(root), "executions"));
    json_node_unref(root);
    run_free(&run);
}
END_TEST

/* ---- Graphviz --------------------------------------------------------- */

static guint count_of(const char *text, const char *needle)
{
    guint n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* "e12" for the node whose label starts with that id. */
static char *node_of(const char *dot, const char *id)
{
    char *label = g_strdup_printf("[label=\"%s\\n", id);
    const char *at = strstr(dot, label);
    g_free(label);
    ck_assert_msg(at != NULL, "no node %s", id);
    const char *end = at - 1;   /* the space before [label */
    const char *start = end;
    while (start > dot && start[-1] != ' ')
        start--;
    return g_strndup(start, (gsize)(end - start));
}

/* Whether the unlock of one thread has an sw edge to the other's lock. */
static bool has_lock_sw(const char *dot, const char *unlock, const char *lock)
{
    char *from = node_of(dot, unlock), *to = node_of(dot, lock);
    char *edge = g_strdup_printf("  %s -> %s [color=blue, fontcolor=blue, label=\"sw\"];", from, to);
    bool found = strstr(dot, edge) != NULL;
    g_free(edge);
    g_free(from);
    g_free(to);
    return found;
}

START_TEST(dot_writes_one_graph_per_execution)
{
    /* Two threads lock o in turn: in each execution the first unlock
       synchronises with the other thread's lock. */
    Run run = run_listing("sc", "Java MP+sync\n"
                                "class Lock {}\n"
                                "int x;\n"
                                "Lock o = new Lock();\n"
                                "thread P0 { synchronized (o) { x = 1; } }\n"
                                "thread P1 { synchronized (o) { int r0 = x; } }\n");
    const Result *r = run.r;
    ck_assert_uint_eq(r->executions->len, 2);   /* P0 locks first, or P1 */
    char *tmp = g_dir_make_tmp("listing-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmp);
    char *dir = g_build_filename(tmp, "graphs", NULL);   /* created by report_dot */
    GError *err = NULL;
    ck_assert_msg(report_dot(r, dir, &err), "report_dot: %s", err ? err->message : "");

    bool saw_p0_first = false, saw_p1_first = false;
    for (guint n = 1; n <= 2; n++) {
        char *name = g_strdup_printf("MP+sync-%u.dot", n);
        char *path = g_build_filename(dir, name, NULL);
        char *dot = NULL;
        ck_assert_msg(g_file_get_contents(path, &dot, NULL, NULL), "no file %s", path);
        ck_assert(g_str_has_prefix(dot, "digraph \"MP+sync-"));
        ck_assert_uint_eq(count_of(dot, "subgraph cluster_"), 3);   /* init, P0, P1 */
        ck_assert_ptr_nonnull(strstr(dot, "label=\"po\""));
        ck_assert_ptr_nonnull(strstr(dot, "label=\"rf\""));
        saw_p0_first |= has_lock_sw(dot, "<U,P0,Lock@init.0,0>", "<L,P1,Lock@init.0,0>");
        saw_p1_first |= has_lock_sw(dot, "<U,P1,Lock@init.0,0>", "<L,P0,Lock@init.0,0>");
        g_free(dot);
        g_unlink(path);
        g_free(path);
        g_free(name);
    }
    ck_assert(saw_p0_first && saw_p1_first);
    char *third = g_build_filename(dir, "MP+sync-3.dot", NULL);
    ck_assert(!g_file_test(third, G_FILE_TEST_EXISTS));
    g_free(third);
    g_rmdir(dir);
    g_rmdir(tmp);
    g_free(dir);
    g_free(tmp);
    run_free(&run);
}
END_TEST

START_TEST(dot_fails_on_unwritable_dir)
{
    Run run = run_listing("sc", sb_text);
    GError *err = NULL;
    ck_assert(!report_dot(run.r, "/proc/no-such-dir/graphs", &err));
    ck_assert_ptr_nonnull(err);
    g_error_free(err);
    run_free(&run);
}
END_TEST

/* ---- statistics table ------------------------------------------------- */

START_TEST(stats_table_has_a_row_per_result)
{
    /* sc searches once (iter 1, no WriteSet: -); jmm has rounds. */
    Run sc = run_listing("sc", sb_text);
    Run jmm = run_listing("jmm", sb_text);
    Result *results[] = {sc.r, jmm.r};
    GString *out = g_string_new(NULL);
    report_stats_table(out, results, 2);
    char **lines = g_strsplit(out->str, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 4);   /* header, 2 rows, "" */
    char **header = g_strsplit_set(lines[0], " ", -1);
    GString *words = g_string_new(NULL);
    for (char **w = header; *w; w++)
        if (**w)
            g_string_append_printf(words, "%s ", *w);
    ck_assert_str_eq(words->str, "test threads iter time 1st ave WS states mem ");
    ck_assert(g_str_has_prefix(lines[1], "SB "));
    ck_assert_ptr_nonnull(strstr(lines[1], " - "));
    ck_assert(g_str_has_suffix(lines[1], "M"));
    ck_assert_uint_eq(strlen(lines[1]), strlen(lines[0]));   /* aligned */
    ck_assert_uint_eq(strlen(lines[2]), strlen(lines[0]));
    ck_assert_ptr_null(strstr(lines[2], " - "));
    g_string_free(words, TRUE);
    g_strfreev(header);
    g_strfreev(lines);
    g_string_free(out, TRUE);
    run_free(&jmm);
    run_free(&sc);
}
END_TEST

static Suite *listing_suite(void)
{
    Suite *s = suite_create("listing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sb_under_sc_has_three_executions);
    tcase_add_test(tc, ids_count_per_kind_thread_and_location);
    tcase_add_test(tc, lb_under_jmm_marks_future_reads);
    tcase_add_test(tc, text_lists_one_block_per_execution);
    tcase_add_test(tc, text_shows_non_actions_without_id);
    tcase_add_test(tc, json_has_executions_key);
    tcase_add_test(tc, dot_writes_one_graph_per_execution);
    tcase_add_test(tc, dot_fails_on_unwritable_dir);
    tcase_add_test(tc, stats_table_has_a_row_per_result);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(listing_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
