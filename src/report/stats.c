/* PathRelax statistics table (--stats), shaped like the JPR paper's Fig. 14.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <inttypes.h>
#include <string.h>

#include "pathrelax/report.h"

enum { N_COLUMNS = 9 };

static const char *const headers[N_COLUMNS] = {
    "test", "threads", "iter", "time", "1st", "ave", "WS", "states", "mem",
};

static char *seconds_cell(double seconds)
{
    return g_strdup_printf("%.2fs", seconds);
}

/* One row: the figures of r. A model without rounds searched once. */
static void fill_row(char **cells, const Result *r)
{
    guint n_rounds = r->rounds->len;
    const SearchStats *first = &g_array_index(r->rounds, SearchStats, 0);
    const SearchStats *last = &g_array_index(r->rounds, SearchStats, n_rounds - 1);
    bool has_rounds = r->iterations > 0;
    cells[0] = g_strdup(r->prog->ast->name);
    cells[1] = g_strdup_printf("%d", r->prog->n_threads);
    cells[2] = g_strdup_printf("%d", has_rounds ? r->iterations : 1);
    cells[3] = seconds_cell(r->total.seconds);
    cells[4] = seconds_cell(first->seconds);
    cells[5] = seconds_cell(r->total.seconds / n_rounds);
    cells[6] = has_rounds ? g_strdup_printf("%" PRIu64, r->writeset_size) : g_strdup("-");
    cells[7] = g_strdup_printf("%" PRIu64, last->states_visited);
    cells[8] = g_strdup_printf("%.1fM", (double)r->peak_rss_kb / 1024.0);
}

/* The test name on the left, the figures right-aligned. */
static void append_row(GString *out, const char *const *cells, const int *widths)
{
    for (int c = 0; c < N_COLUMNS; c++) {
        if (c == 0)
            g_string_append_printf(out, "%-*s", widths[c], cells[c]);
        else
            g_string_append_printf(out, "  %*s", widths[c], cells[c]);
    }
    g_string_append_c(out, '\n');
}

void report_stats_table(GString *out, Result *const *results, guint n)
{
    char **cells = g_new0(char *, (size_t)n * N_COLUMNS);
    int widths[N_COLUMNS];
    for (int c = 0; c < N_COLUMNS; c++)
        widths[c] = (int)strlen(headers[c]);
    for (guint i = 0; i < n; i++) {
        fill_row(cells + (size_t)i * N_COLUMNS, results[i]);
        for (int c = 0; c < N_COLUMNS; c++)
            widths[c] = MAX(widths[c], (int)strlen(cells[(size_t)i * N_COLUMNS + c]));
    }
    append_row(out, headers, widths);
    for (guint i = 0; i < n; i++)
        append_row(out, (const char *const *)(cells + (size_t)i * N_COLUMNS), widths);
    for (size_t k = 0; k < (size_t)n * N_COLUMNS; k++)
        g_free(cells[k]);
    g_free(cells);
}
