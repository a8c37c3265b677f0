/* PathRelax front end: lexer, parser and checker for litmus files
 * (language version 1, see litmus/README.md).
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_LANG_H
#define PATHRELAX_LANG_H

#include "pathrelax/ast.h"

#define PR_LANG_ERROR (pr_lang_error_quark())
GQuark pr_lang_error_quark(void);

typedef enum {
    PR_LANG_ERROR_IO,      /* the file cannot be read */
    PR_LANG_ERROR_SYNTAX,  /* lexer or parser */
    PR_LANG_ERROR_CHECK,   /* names, types, final, condition locations */
} PrLangError;

/* Deepest nesting of expressions plus statements the parser accepts; deeper
   input gets an error instead of overflowing the stack. */
#define LANG_MAX_NESTING 500

/* Parses and checks a litmus file. On failure returns NULL and sets *err;
   its message holds one or more diagnostics, each
       FILE:LINE:COL: error: MESSAGE
         <the source line>
         <spaces>^
   separated by newlines (the checker reports up to 20 errors; the parser
   stops at the first). */
Ast *lang_load_file(const char *path, GError **err);

/* The same, on text already in memory; filename is used in diagnostics. */
Ast *lang_load_string(const char *filename, const char *text, GError **err);

/* The two halves, for the unit tests. lang_parse only builds the tree
   (no resolution); lang_check resolves and type-checks it in place. */
Ast *lang_parse(const char *filename, const char *text, GError **err);
bool lang_check(Ast *ast, GError **err);

#endif
