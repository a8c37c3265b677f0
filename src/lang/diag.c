/* PathRelax front end: error messages with file, position, line and caret.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "lang_internal.h"

#include <stdarg.h>

typedef struct {
    SrcPos pos;
    char *text;          /* the three lines, without a final newline */
} DiagEntry;

static void diag_entry_free(gpointer data)
{
    DiagEntry *entry = data;
    g_free(entry->text);
    g_free(entry);
}

GQuark pr_lang_error_quark(void)
{
    return g_quark_from_static_string("pr-lang-error-quark");
}

void diag_init(Diag *diag, const char *filename, const char *source,
               gsize source_len, int limit)
{
    diag->filename = filename;
    diag->source = source;
    diag->source_len = source_len;
    diag->entries = g_ptr_array_new_with_free_func(diag_entry_free);
    diag->limit = limit;
}

int diag_count(const Diag *diag)
{
    return (int) diag->entries->len;
}

/* Appends source line number line (1-based) without its line break. */
static void append_source_line(const Diag *diag, int line, GString *out)
{
    const char *p = diag->source;
    const char *end = diag->source + diag->source_len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    const char *stop = p;
    while (stop < end && *stop != '\n')
        stop++;
    if (stop > p && stop[-1] == '\r')
        stop--;
    g_string_append_len(out, p, stop - p);
}

void diag_error(Diag *diag, SrcPos pos, const char *fmt, ...)
{
    if (diag->limit > 0 && diag_count(diag) >= diag->limit)
        return;
    GString *text = g_string_new(NULL);
    g_string_append_printf(text, "%s:%d:%d: error: ", diag->filename, pos.line, pos.col);
    va_list args;
    va_start(args, fmt);
    g_string_append_vprintf(text, fmt, args);
    va_end(args);
    g_string_append_c(text, '\n');
    gsize line_start = text->len;
    append_source_line(diag, pos.line, text);
    gsize line_len = text->len - line_start;
    g_string_append_c(text, '\n');
    /* The caret's indent copies the line's tabs, so it lines up under a
       tab-indented line too. */
    for (int c = 1; c < pos.col; c++) {
        gsize i = line_start + (gsize)(c - 1);
        g_string_append_c(text, (gsize)(c - 1) < line_len && text->str[i] == '\t' ? '\t' : ' ');
    }
    g_string_append_c(text, '^');

    DiagEntry *entry = g_new(DiagEntry, 1);
    entry->pos = pos;
    /* Messages may quote bytes that are not UTF-8; reports (JSON above
       all) need valid text. */
    entry->text = g_utf8_make_valid(text->str, (gssize)text->len);
    g_string_free(text, TRUE);
    g_ptr_array_add(diag->entries, entry);
}

static gint compare_positions(gconstpointer a, gconstpointer b)
{
    const DiagEntry *x = *(const DiagEntry *const *) a;
    const DiagEntry *y = *(const DiagEntry *const *) b;
    if (x->pos.line != y->pos.line)
        return x->pos.line < y->pos.line ? -1 : 1;
    return x->pos.col < y->pos.col ? -1 : x->pos.col > y->pos.col;
}

bool diag_finish(Diag *diag, PrLangError code, GError **err)
{
    bool ok = diag->entries->len == 0;
    if (!ok) {
        /* stable: errors at one position keep the order they were found in */
        g_ptr_array_sort(diag->entries, compare_positions);
        GString *message = g_string_new(NULL);
        for (guint i = 0; i < diag->entries->len; i++) {
            const DiagEntry *entry = diag->entries->pdata[i];
            if (i > 0)
                g_string_append_c(message, '\n');
            g_string_append(message, entry->text);
        }
        g_set_error_literal(err, PR_LANG_ERROR, code, message->str);
        g_string_free(message, TRUE);
    }
    g_ptr_array_unref(diag->entries);
    diag->entries = NULL;
    return ok;
}
