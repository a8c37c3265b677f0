/* PathRelax front end: the lexer, from litmus text to tokens.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "lang_internal.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
    const char *text;
    gsize len;
    gsize offset;        /* next character */
    SrcPos pos;          /* position of text[offset] */
    SrcPos last_end;     /* just after the last token, where EOF is shown */
    GStringChunk *strings;
    GArray *tokens;
} Lexer;

/* ---- spelling tables ------------------------------------------------ */

typedef struct {
    const char *spelling;
    TokenKind kind;
} Spelling;

static const Spelling keywords[] = {
    { "assert", TK_KW_ASSERT }, { "assume", TK_KW_ASSUME },
    { "boolean", TK_KW_BOOLEAN }, { "break", TK_KW_BREAK },
    { "class", TK_KW_CLASS }, { "continue", TK_KW_CONTINUE },
    { "do", TK_KW_DO }, { "else", TK_KW_ELSE }, { "exists", TK_KW_EXISTS },
    { "false", TK_KW_FALSE }, { "final", TK_KW_FINAL }, { "for", TK_KW_FOR },
    { "forall", TK_KW_FORALL }, { "if", TK_KW_IF }, { "int", TK_KW_INT },
    { "join", TK_KW_JOIN }, { "locations", TK_KW_LOCATIONS },
    { "long", TK_KW_LONG }, { "new", TK_KW_NEW }, { "null", TK_KW_NULL },
    { "return", TK_KW_RETURN }, { "synchronized", TK_KW_SYNCHRONIZED },
    { "this", TK_KW_THIS }, { "thread", TK_KW_THREAD }, { "true", TK_KW_TRUE },
    { "void", TK_KW_VOID }, { "volatile", TK_KW_VOLATILE },
    { "while", TK_KW_WHILE },
};

/* Longest spellings first, so that the first match is the longest. */
static const Spelling operators[] = {
    { ">>>=", TK_USHR_ASSIGN },
    { ">>>", TK_USHR }, { "<<=", TK_SHL_ASSIGN }, { ">>=", TK_SHR_ASSIGN },
    { "==", TK_EQ }, { "!=", TK_NE }, { "<=", TK_LE }, { ">=", TK_GE },
    { "<<", TK_SHL }, { ">>", TK_SHR }, { "&&", TK_ANDAND }, { "||", TK_OROR },
    { "++", TK_INC }, { "--", TK_DEC }, { "+=", TK_PLUS_ASSIGN },
    { "-=", TK_MINUS_ASSIGN }, { "*=", TK_STAR_ASSIGN },
    { "/=", TK_SLASH_ASSIGN }, { "%=", TK_PERCENT_ASSIGN },
    { "&=", TK_AMP_ASSIGN }, { "|=", TK_PIPE_ASSIGN }, { "^=", TK_CARET_ASSIGN },
    { "/\\", TK_COND_AND }, { "\\/", TK_COND_OR },
    { "(", TK_LPAREN }, { ")", TK_RPAREN }, { "{", TK_LBRACE },
    { "}", TK_RBRACE }, { "[", TK_LBRACKET }, { "]", TK_RBRACKET },
    { ";", TK_SEMI }, { ",", TK_COMMA }, { ".", TK_DOT }, { ":", TK_COLON },
    { "?", TK_QUESTION }, { "=", TK_ASSIGN }, { "<", TK_LT }, { ">", TK_GT },
    { "+", TK_PLUS }, { "-", TK_MINUS }, { "*", TK_STAR }, { "/", TK_SLASH },
    { "%", TK_PERCENT }, { "&", TK_AMP }, { "|", TK_PIPE }, { "^", TK_CARET },
    { "~", TK_TILDE }, { "!", TK_BANG },
};

const char *token_kind_name(TokenKind kind)
{
    static const char *const names[] = {
        [TK_EOF] = "end of file", [TK_ERROR] = "an invalid token",
        [TK_IDENT] = "a name", [TK_INT_LIT] = "an integer",
        [TK_STRING] = "a string", [TK_HEADER_NAME] = "a test name",
        [TK_KW_ASSERT] = "'assert'", [TK_KW_ASSUME] = "'assume'",
        [TK_KW_BOOLEAN] = "'boolean'", [TK_KW_BREAK] = "'break'",
        [TK_KW_CLASS] = "'class'", [TK_KW_CONTINUE] = "'continue'",
        [TK_KW_DO] = "'do'", [TK_KW_ELSE] = "'else'", [TK_KW_EXISTS] = "'exists'",
        [TK_KW_FALSE] = "'false'", [TK_KW_FINAL] = "'final'", [TK_KW_FOR] = "'for'",
        [TK_KW_FORALL] = "'forall'", [TK_KW_IF] = "'if'", [TK_KW_INT] = "'int'",
        [TK_KW_JOIN] = "'join'", [TK_KW_LOCATIONS] = "'locations'",
        [TK_KW_LONG] = "'long'", [TK_KW_NEW] = "'new'", [TK_KW_NULL] = "'null'",
        [TK_KW_RETURN] = "'return'", [TK_KW_SYNCHRONIZED] = "'synchronized'",
        [TK_KW_THIS] = "'this'", [TK_KW_THREAD] = "'thread'", [TK_KW_TRUE] = "'true'",
        [TK_KW_VOID] = "'void'", [TK_KW_VOLATILE] = "'volatile'",
        [TK_KW_WHILE] = "'while'",
        [TK_LPAREN] = "'('", [TK_RPAREN] = "')'", [TK_LBRACE] = "'{'",
        [TK_RBRACE] = "'}'", [TK_LBRACKET] = "'['", [TK_RBRACKET] = "']'",
        [TK_SEMI] = "';'", [TK_COMMA] = "','", [TK_DOT] = "'.'", [TK_COLON] = "':'",
        [TK_QUESTION] = "'?'", [TK_ASSIGN] = "'='", [TK_EQ] = "'=='",
        [TK_NE] = "'!='", [TK_LT] = "'<'", [TK_LE] = "'<='", [TK_GT] = "'>'",
        [TK_GE] = "'>='", [TK_SHL] = "'<<'", [TK_SHR] = "'>>'", [TK_USHR] = "'>>>'",
        [TK_PLUS] = "'+'", [TK_MINUS] = "'-'", [TK_STAR] = "'*'", [TK_SLASH] = "'/'",
        [TK_PERCENT] = "'%'", [TK_AMP] = "'&'", [TK_PIPE] = "'|'", [TK_CARET] = "'^'",
        [TK_TILDE] = "'~'", [TK_BANG] = "'!'", [TK_ANDAND] = "'&&'",
        [TK_OROR] = "'||'", [TK_INC] = "'++'", [TK_DEC] = "'--'",
        [TK_PLUS_ASSIGN] = "'+='", [TK_MINUS_ASSIGN] = "'-='",
        [TK_STAR_ASSIGN] = "'*='", [TK_SLASH_ASSIGN] = "'/='",
        [TK_PERCENT_ASSIGN] = "'%='", [TK_AMP_ASSIGN] = "'&='",
        [TK_PIPE_ASSIGN] = "'|='", [TK_CARET_ASSIGN] = "'^='",
        [TK_SHL_ASSIGN] = "'<<='", [TK_SHR_ASSIGN] = "'>>='",
        [TK_USHR_ASSIGN] = "'>>>='", [TK_COND_AND] = "'/\\'",
        [TK_COND_OR] = "'\\/'",
    };
    return names[kind];
}

/* ---- characters ----------------------------------------------------- */

/* The character ahead characters from the current one, or -1 past the end. */
static int peek(const Lexer *lx, gsize ahead)
{
    gsize at = lx->offset + ahead;
    return at < lx->len ? (unsigned char) lx->text[at] : -1;
}

static void advance(Lexer *lx)
{
    if (lx->text[lx->offset] == '\n') {
        lx->pos.line++;
        lx->pos.col = 1;
    } else {
        lx->pos.col++;
    }
    lx->offset++;
}

static void advance_n(Lexer *lx, gsize n)
{
    for (gsize i = 0; i < n; i++)
        advance(lx);
}

static bool is_ident_start(int c)
{
    return g_ascii_isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
    return g_ascii_isalnum(c) || c == '_';
}

/* ---- token output --------------------------------------------------- */

static Token *emit(Lexer *lx, TokenKind kind, gsize start, SrcPos start_pos)
{
    Token tok = { .kind = kind, .pos = start_pos, .offset = start,
                  .len = lx->offset - start };
    g_array_append_val(lx->tokens, tok);
    lx->last_end = lx->pos;
    return &g_array_index(lx->tokens, Token, lx->tokens->len - 1);
}

/* Ends the token list with an error at pos. */
static void G_GNUC_PRINTF(4, 5)
emit_error(Lexer *lx, gsize start, SrcPos pos, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = g_strdup_vprintf(fmt, args);
    va_end(args);
    Token tok = { .kind = TK_ERROR, .pos = pos, .offset = start, .len = 0,
                  .text = g_string_chunk_insert(lx->strings, message) };
    g_array_append_val(lx->tokens, tok);
    g_free(message);
}

static void emit_eof(Lexer *lx)
{
    Token tok = { .kind = TK_EOF, .pos = lx->last_end, .offset = lx->len };
    g_array_append_val(lx->tokens, tok);
}

/* ---- whitespace and comments ---------------------------------------- */

/* Skips blanks and comments; false after an unterminated comment. */
static bool skip_blanks(Lexer *lx)
{
    for (;;) {
        int c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            advance(lx);
        } else if (c == '/' && peek(lx, 1) == '/') {
            while (peek(lx, 0) != -1 && peek(lx, 0) != '\n')
                advance(lx);
        } else if (c == '/' && peek(lx, 1) == '*') {
            gsize start = lx->offset;
            SrcPos start_pos = lx->pos;
            advance_n(lx, 2);
            while (peek(lx, 0) != -1 && !(peek(lx, 0) == '*' && peek(lx, 1) == '/'))
                advance(lx);
            if (peek(lx, 0) == -1) {
                emit_error(lx, start, start_pos, "unterminated comment");
                return false;
            }
            advance_n(lx, 2);
        } else {
            return true;
        }
    }
}

/* ---- names ---------------------------------------------------------- */

static void lex_word(Lexer *lx)
{
    gsize start = lx->offset;
    SrcPos start_pos = lx->pos;
    while (is_ident_char(peek(lx, 0)))
        advance(lx);
    char *word = g_strndup(lx->text + start, lx->offset - start);
    TokenKind kind = TK_IDENT;
    for (gsize i = 0; i < G_N_ELEMENTS(keywords); i++)
        if (strcmp(word, keywords[i].spelling) == 0)
            kind = keywords[i].kind;
    Token *tok = emit(lx, kind, start, start_pos);
    tok->text = g_string_chunk_insert_const(lx->strings, word);
    g_free(word);
}

static bool is_header_name_char(int c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}

/* After a leading "Java": the test name, up to the next blank or quote on
   the same line. Returns false after an error. */
static bool lex_header_name(Lexer *lx)
{
    while (peek(lx, 0) == ' ' || peek(lx, 0) == '\t')
        advance(lx);
    gsize start = lx->offset;
    SrcPos start_pos = lx->pos;
    for (int c = peek(lx, 0); c > ' ' && c != '"' && c != 0x7f; c = peek(lx, 0)) {
        if (!is_header_name_char(c)) {
            emit_error(lx, lx->offset, lx->pos,
                       g_ascii_isprint(c) ? "invalid character '%c' in test name"
                                          : "invalid byte 0x%02X in test name", c);
            return false;
        }
        advance(lx);
    }
    if (lx->offset == start)
        return true;   /* no name: the parser says what it expected */
    char *name = g_strndup(lx->text + start, lx->offset - start);
    Token *tok = emit(lx, TK_HEADER_NAME, start, start_pos);
    tok->text = g_string_chunk_insert_const(lx->strings, name);
    g_free(name);
    return true;
}

/* ---- integer literals ----------------------------------------------- */

static int hex_digit_value(int c)
{
    return g_ascii_isdigit(c) ? c - '0' : g_ascii_tolower((char) c) - 'a' + 10;
}

/* Reads the digits of a literal into *value; false when it exceeds 64 bits. */
static bool read_digits(Lexer *lx, unsigned base, uint64_t *value)
{
    bool fits = true;
    *value = 0;
    for (int c = peek(lx, 0); base == 16 ? g_ascii_isxdigit(c) : g_ascii_isdigit(c);
         c = peek(lx, 0)) {
        unsigned digit = (unsigned) hex_digit_value(c);
        if (*value > (UINT64_MAX - digit) / base)
            fits = false;
        *value = *value * base + digit;
        advance(lx);
    }
    return fits;
}

/* Whether a literal of this magnitude fits its type. A decimal literal may
   be one more than the maximum: it is legal right after a unary minus,
   which the parser checks. Hexadecimal literals may set the sign bit. */
static bool literal_fits(uint64_t value, bool is_hex, bool is_long)
{
    if (is_hex)
        return is_long || value <= UINT32_MAX;
    return value <= (is_long ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT32_MAX + 1);
}

static void lex_number(Lexer *lx)
{
    gsize start = lx->offset;
    SrcPos start_pos = lx->pos;
    bool is_hex = peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X');
    if (is_hex)
        advance_n(lx, 2);
    gsize digits_start = lx->offset;
    uint64_t value;
    bool fits = read_digits(lx, is_hex ? 16 : 10, &value);
    gsize n_digits = lx->offset - digits_start;
    bool is_long = peek(lx, 0) == 'L' || peek(lx, 0) == 'l';
    if (is_long)
        advance(lx);
    if (is_ident_char(peek(lx, 0)) || n_digits == 0) {
        while (is_ident_char(peek(lx, 0)))
            advance(lx);
        emit_error(lx, start, start_pos, "malformed integer literal '%.*s'",
                   (int) (lx->offset - start), lx->text + start);
        return;
    }
    if (!is_hex && n_digits > 1 && lx->text[start] == '0') {
        emit_error(lx, start, start_pos,
                   "integer literal '%.*s' has a leading zero (octal is not supported)",
                   (int) (lx->offset - start), lx->text + start);
        return;
    }
    bool beyond_int = fits && !is_long && !literal_fits(value, is_hex, false) &&
                      literal_fits(value, is_hex, true);
    if (!fits || (!literal_fits(value, is_hex, is_long) && !beyond_int)) {
        emit_error(lx, start, start_pos, "integer literal too large for %s: %.*s",
                   is_long ? "long" : "int", (int) (lx->offset - start),
                   lx->text + start);
        return;
    }
    if (is_hex && !is_long && !beyond_int)   /* 0xFFFFFFFF is the int -1 */
        value = (uint64_t) (int64_t) (int32_t) (uint32_t) value;
    Token *tok = emit(lx, TK_INT_LIT, start, start_pos);
    tok->value = value;
    tok->is_long = is_long;
    tok->is_hex = is_hex;
    tok->beyond_int = beyond_int;
}

/* ---- string literals ------------------------------------------------ */

/* Returns the character an escape stands for, or -1. */
static int escape_value(int c)
{
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    default: return -1;
    }
}

static void lex_string(Lexer *lx)
{
    gsize start = lx->offset;
    SrcPos start_pos = lx->pos;
    GString *value = g_string_new(NULL);
    advance(lx);
    for (;;) {
        int c = peek(lx, 0);
        if (c == -1 || c == '\n') {
            emit_error(lx, start, start_pos, "unterminated string literal");
            break;
        }
        if (c == '"') {
            advance(lx);
            Token *tok = emit(lx, TK_STRING, start, start_pos);
            tok->text = g_string_chunk_insert_len(lx->strings, value->str,
                                                  (gssize) value->len);
            break;
        }
        if (c == '\\') {
            int escaped = escape_value(peek(lx, 1));
            if (escaped < 0) {
                int next = peek(lx, 1);
                emit_error(lx, lx->offset, lx->pos,
                           g_ascii_isprint(next) ? "unknown escape sequence '\\%c'"
                                                 : "unknown escape sequence", next);
                break;
            }
            g_string_append_c(value, (char) escaped);
            advance_n(lx, 2);
            continue;
        }
        g_string_append_c(value, (char) c);
        advance(lx);
    }
    g_string_free(value, TRUE);
}

/* ---- operators and stray characters --------------------------------- */

static bool lex_operator(Lexer *lx)
{
    for (gsize i = 0; i < G_N_ELEMENTS(operators); i++) {
        const char *spelling = operators[i].spelling;
        gsize n = strlen(spelling);
        if (lx->len - lx->offset >= n && memcmp(lx->text + lx->offset, spelling, n) == 0) {
            gsize start = lx->offset;
            SrcPos start_pos = lx->pos;
            advance_n(lx, n);
            emit(lx, operators[i].kind, start, start_pos);
            return true;
        }
    }
    return false;
}

static void report_stray_character(Lexer *lx)
{
    int c = peek(lx, 0);
    if (g_ascii_isprint(c)) {
        emit_error(lx, lx->offset, lx->pos, "unexpected character '%c'", c);
        return;
    }
    if (c < 0x80) {
        emit_error(lx, lx->offset, lx->pos, "unexpected character U+%04X", (unsigned) c);
        return;
    }
    const char *at = lx->text + lx->offset;
    gunichar uc = g_utf8_get_char_validated(at, (gssize) (lx->len - lx->offset));
    if (uc == (gunichar) -1 || uc == (gunichar) -2) {
        emit_error(lx, lx->offset, lx->pos, "unexpected byte 0x%02X", (unsigned) c);
        return;
    }
    emit_error(lx, lx->offset, lx->pos, "unexpected character '%.*s' (U+%04X)",
               (int) (g_utf8_next_char(at) - at), at, (unsigned) uc);
}

/* ---- driver --------------------------------------------------------- */

/* Lexes one token; false once the list is complete (EOF or error). */
static bool lex_one(Lexer *lx)
{
    if (!skip_blanks(lx))
        return false;
    int c = peek(lx, 0);
    if (c == -1) {
        emit_eof(lx);
        return false;
    }
    if (is_ident_start(c)) {
        lex_word(lx);
        /* The header: "Java" as the very first token is followed by the
           test name, which may contain characters no token has. */
        const Token *first = &g_array_index(lx->tokens, Token, 0);
        if (lx->tokens->len == 1 && first->kind == TK_IDENT && strcmp(first->text, "Java") == 0)
            return lex_header_name(lx);
        return true;
    }
    if (g_ascii_isdigit(c))
        lex_number(lx);
    else if (c == '"')
        lex_string(lx);
    else if (!lex_operator(lx))
        report_stray_character(lx);
    Token *last = &g_array_index(lx->tokens, Token, lx->tokens->len - 1);
    return last->kind != TK_ERROR;
}

GArray *lex_text(const char *text, gsize len, GStringChunk *strings)
{
    Lexer lx = {
        .text = text, .len = len, .offset = 0,
        .pos = { 1, 1 }, .last_end = { 1, 1 },
        .strings = strings,
        .tokens = g_array_new(FALSE, TRUE, sizeof(Token)),
    };
    while (lex_one(&lx))
        ;
    return lx.tokens;
}
