/* Unit tests of the litmus lexer: tokens, positions, literals and errors.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "../../src/lang/lang_internal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

typedef struct {
    GStringChunk *strings;
    GArray *tokens;
} Lexed;

static Lexed lex(const char *text)
{
    Lexed lexed;
    lexed.strings = g_string_chunk_new(64);
    lexed.tokens = lex_text(text, strlen(text), lexed.strings);
    return lexed;
}

static void lexed_free(Lexed *lexed)
{
    g_array_unref(lexed->tokens);
    g_string_chunk_free(lexed->strings);
}

static const Token *tok(const Lexed *lexed, guint i)
{
    ck_assert_uint_lt(i, lexed->tokens->len);
    return &g_array_index(lexed->tokens, Token, i);
}

static void assert_token(const Lexed *lexed, guint i, TokenKind kind, int line, int col)
{
    const Token *t = tok(lexed, i);
    ck_assert_msg(t->kind == kind, "token %u: kind %d, expected %d", i, t->kind, kind);
    ck_assert_int_eq(t->pos.line, line);
    ck_assert_int_eq(t->pos.col, col);
}

/* The lexer's error for text: the message of its final TK_ERROR token,
   as "LINE:COL: MESSAGE". */
static char *lex_error(const char *text)
{
    Lexed lexed = lex(text);
    const Token *last = tok(&lexed, lexed.tokens->len - 1);
    ck_assert_msg(last->kind == TK_ERROR, "no lexical error in \"%s\"", text);
    char *result = g_strdup_printf("%d:%d: %s", last->pos.line, last->pos.col, last->text);
    lexed_free(&lexed);
    return result;
}

static void assert_lex_error(const char *text, const char *expected)
{
    char *got = lex_error(text);
    ck_assert_str_eq(got, expected);
    g_free(got);
}

/* ---- tokens and positions ------------------------------------------- */

/* "int x = 0x1F + 42L;"
    ^1  ^5^7 ^9   ^14^16 ^19                                            */
START_TEST(test_simple_declaration)
{
    Lexed l = lex("int x = 0x1F + 42L;");
    ck_assert_uint_eq(l.tokens->len, 8);
    assert_token(&l, 0, TK_KW_INT, 1, 1);
    assert_token(&l, 1, TK_IDENT, 1, 5);
    ck_assert_str_eq(tok(&l, 1)->text, "x");
    assert_token(&l, 2, TK_ASSIGN, 1, 7);
    assert_token(&l, 3, TK_INT_LIT, 1, 9);
    ck_assert_uint_eq(tok(&l, 3)->value, 31);
    ck_assert(tok(&l, 3)->is_hex && !tok(&l, 3)->is_long);
    assert_token(&l, 4, TK_PLUS, 1, 14);
    assert_token(&l, 5, TK_INT_LIT, 1, 16);
    ck_assert_uint_eq(tok(&l, 5)->value, 42);
    ck_assert(tok(&l, 5)->is_long);
    ck_assert_uint_eq(tok(&l, 5)->len, 3);
    assert_token(&l, 6, TK_SEMI, 1, 19);
    assert_token(&l, 7, TK_EOF, 1, 20);
    lexed_free(&l);
}
END_TEST

/* Longest match first: ">>>=" is one token, not ">>" ">=". */
START_TEST(test_operators_longest_match)
{
    static const TokenKind expected[] = {
        TK_USHR_ASSIGN, TK_USHR, TK_SHR_ASSIGN, TK_SHR, TK_GE, TK_GT,
        TK_SHL_ASSIGN, TK_SHL, TK_LE, TK_LT, TK_EQ, TK_ASSIGN, TK_NE, TK_BANG,
        TK_ANDAND, TK_AMP_ASSIGN, TK_AMP, TK_OROR, TK_PIPE_ASSIGN, TK_PIPE,
        TK_INC, TK_PLUS_ASSIGN, TK_PLUS, TK_DEC, TK_MINUS_ASSIGN, TK_MINUS,
        TK_STAR_ASSIGN, TK_STAR, TK_SLASH_ASSIGN, TK_SLASH, TK_PERCENT_ASSIGN,
        TK_PERCENT, TK_CARET_ASSIGN, TK_CARET, TK_TILDE, TK_COND_AND, TK_COND_OR,
        TK_QUESTION, TK_COLON, TK_DOT, TK_COMMA, TK_SEMI, TK_LPAREN, TK_RPAREN,
        TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET, TK_EOF,
    };
    Lexed l = lex(">>>= >>> >>= >> >= > <<= << <= < == = != ! && &= & || |= | "
                  "++ += + -- -= - *= * /= / %= % ^= ^ ~ /\\ \\/ ? : . , ; ( ) { } [ ]");
    ck_assert_uint_eq(l.tokens->len, G_N_ELEMENTS(expected));
    for (guint i = 0; i < G_N_ELEMENTS(expected); i++)
        ck_assert_msg(tok(&l, i)->kind == expected[i], "token %u is %d, expected %d", i,
                      tok(&l, i)->kind, expected[i]);
    lexed_free(&l);
}
END_TEST

/* "a>>b" is a, >>, b; "a- -b" keeps two minus tokens. */
START_TEST(test_operators_without_blanks)
{
    Lexed l = lex("a>>b-->c");
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_SHR, 1, 2);
    assert_token(&l, 2, TK_IDENT, 1, 4);
    assert_token(&l, 3, TK_DEC, 1, 5);
    assert_token(&l, 4, TK_GT, 1, 7);
    assert_token(&l, 5, TK_IDENT, 1, 8);
    lexed_free(&l);
}
END_TEST

/* A tab is one column; lines count from 1. */
START_TEST(test_positions_tabs_and_lines)
{
    Lexed l = lex("\tx\n  y\n\n\t\tz");
    assert_token(&l, 0, TK_IDENT, 1, 2);
    assert_token(&l, 1, TK_IDENT, 2, 3);
    assert_token(&l, 2, TK_IDENT, 4, 3);
    lexed_free(&l);
}
END_TEST

/* "\r\n" line ends: the \r is a blank. */
START_TEST(test_crlf)
{
    Lexed l = lex("a\r\nb");
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_IDENT, 2, 1);
    lexed_free(&l);
}
END_TEST

START_TEST(test_comments_are_skipped)
{
    Lexed l = lex("a // one */ line\n/* two\n lines */ b /**/c");
    ck_assert_uint_eq(l.tokens->len, 4);
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_IDENT, 3, 11);
    assert_token(&l, 2, TK_IDENT, 3, 17);
    assert_token(&l, 3, TK_EOF, 3, 18);
    lexed_free(&l);
}
END_TEST

/* EOF sits just after the last token, not on the empty last line. */
START_TEST(test_eof_position)
{
    Lexed l = lex("ab  \n\n   // c\n");
    assert_token(&l, 1, TK_EOF, 1, 3);
    lexed_free(&l);
    Lexed empty = lex("");
    ck_assert_uint_eq(empty.tokens->len, 1);
    assert_token(&empty, 0, TK_EOF, 1, 1);
    lexed_free(&empty);
}
END_TEST

START_TEST(test_keywords_and_names)
{
    Lexed l = lex("thread threads exists exists_ forall locations join assume _x1 Java");
    assert_token(&l, 0, TK_KW_THREAD, 1, 1);
    assert_token(&l, 1, TK_IDENT, 1, 8);
    assert_token(&l, 2, TK_KW_EXISTS, 1, 16);
    assert_token(&l, 3, TK_IDENT, 1, 23);
    assert_token(&l, 4, TK_KW_FORALL, 1, 31);
    assert_token(&l, 5, TK_KW_LOCATIONS, 1, 38);
    assert_token(&l, 6, TK_KW_JOIN, 1, 48);
    assert_token(&l, 7, TK_KW_ASSUME, 1, 53);
    assert_token(&l, 8, TK_IDENT, 1, 60);
    ck_assert_str_eq(tok(&l, 8)->text, "_x1");
    /* "Java" is a plain name except as the very first token */
    assert_token(&l, 9, TK_IDENT, 1, 64);
    assert_token(&l, 10, TK_EOF, 1, 68);
    lexed_free(&l);
}
END_TEST

/* After a leading "Java" the name may hold "+ . - _". */
START_TEST(test_header_name)
{
    Lexed l = lex("Java 2+2W.v_1-x\n\"desc\"");
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_HEADER_NAME, 1, 6);
    ck_assert_str_eq(tok(&l, 1)->text, "2+2W.v_1-x");
    assert_token(&l, 2, TK_STRING, 2, 1);
    ck_assert_str_eq(tok(&l, 2)->text, "desc");
    lexed_free(&l);
}
END_TEST

/* "Java" at the end of its line: no name token; the parser complains. */
START_TEST(test_header_without_name)
{
    Lexed l = lex("Java\nthread");
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_KW_THREAD, 2, 1);
    lexed_free(&l);
}
END_TEST

START_TEST(test_header_bad_character)
{
    assert_lex_error("Java tc#1\n", "1:8: invalid character '#' in test name");
    assert_lex_error("Java a/*b*/\n", "1:7: invalid character '/' in test name");
}
END_TEST

START_TEST(test_string_escapes)
{
    Lexed l = lex("\"a\\\"b\\\\c\\nd\\te\" \"\"");
    assert_token(&l, 0, TK_STRING, 1, 1);
    ck_assert_str_eq(tok(&l, 0)->text, "a\"b\\c\nd\te");
    assert_token(&l, 1, TK_STRING, 1, 17);
    ck_assert_str_eq(tok(&l, 1)->text, "");
    lexed_free(&l);
}
END_TEST

/* ---- integer literals ----------------------------------------------- */

START_TEST(test_integer_values)
{
    Lexed l = lex("0 2147483647 2147483648 0x7fffffff 0xFFFFFFFF 9223372036854775807L "
                  "9223372036854775808L 0xFFFFFFFFFFFFFFFFL 10l");
    ck_assert_uint_eq(tok(&l, 0)->value, 0);
    ck_assert_uint_eq(tok(&l, 1)->value, 2147483647);
    /* one past INT_MAX lexes; only the parser knows whether a minus precedes */
    ck_assert_uint_eq(tok(&l, 2)->value, 2147483648u);
    ck_assert_uint_eq(tok(&l, 3)->value, 0x7fffffff);
    /* a hexadecimal int may set the sign bit: 0xFFFFFFFF is -1 */
    ck_assert_int_eq((int64_t) tok(&l, 4)->value, -1);
    ck_assert_uint_eq(tok(&l, 5)->value, (uint64_t) INT64_MAX);
    ck_assert_uint_eq(tok(&l, 6)->value, (uint64_t) INT64_MAX + 1);
    ck_assert_int_eq((int64_t) tok(&l, 7)->value, -1);
    ck_assert(tok(&l, 7)->is_long);
    ck_assert(tok(&l, 8)->is_long);
    ck_assert_uint_eq(tok(&l, 8)->value, 10);
    lexed_free(&l);
}
END_TEST

START_TEST(test_integer_too_large)
{
    /* Beyond int but within long, without L: a token marked beyond_int
       (code rejects it, a condition takes it as a long). */
    const char *beyond[] = {"2147483649", "3000000000", "0x100000000"};
    const uint64_t values[] = {2147483649u, 3000000000u, 0x100000000u};
    for (size_t i = 0; i < G_N_ELEMENTS(beyond); i++) {
        Lexed lexed = lex(beyond[i]);
        const Token *t = tok(&lexed, 0);
        ck_assert_int_eq(t->kind, TK_INT_LIT);
        ck_assert(t->beyond_int && !t->is_long);
        ck_assert_uint_eq(t->value, values[i]);
        lexed_free(&lexed);
    }
    assert_lex_error("9223372036854775809L",
                     "1:1: integer literal too large for long: 9223372036854775809L");
    assert_lex_error("99999999999999999999999L",
                     "1:1: integer literal too large for long: 99999999999999999999999L");
    assert_lex_error("0x10000000000000000L",
                     "1:1: integer literal too large for long: 0x10000000000000000L");
}
END_TEST

START_TEST(test_integer_malformed)
{
    assert_lex_error("012", "1:1: integer literal '012' has a leading zero (octal is not supported)");
    assert_lex_error("  12abc", "1:3: malformed integer literal '12abc'");
    assert_lex_error("0x;", "1:1: malformed integer literal '0x'");
    assert_lex_error("1_000", "1:1: malformed integer literal '1_000'");
}
END_TEST

/* ---- lexical errors ------------------------------------------------- */

START_TEST(test_unterminated_comment)
{
    /* reported where the comment starts */
    assert_lex_error("a\n  /* never\nclosed", "2:3: unterminated comment");
}
END_TEST

START_TEST(test_unterminated_string)
{
    assert_lex_error("x \"abc\ny\"", "1:3: unterminated string literal");
    assert_lex_error("\"abc", "1:1: unterminated string literal");
}
END_TEST

START_TEST(test_unknown_escape)
{
    assert_lex_error("\"a\\qb\"", "1:3: unknown escape sequence '\\q'");
}
END_TEST

START_TEST(test_unexpected_characters)
{
    assert_lex_error("a # b", "1:3: unexpected character '#'");
    assert_lex_error("a @", "1:3: unexpected character '@'");
    assert_lex_error("a \\ b", "1:3: unexpected character '\\'");
    assert_lex_error("\xc3\xa9", "1:1: unexpected character '\xc3\xa9' (U+00E9)");
    assert_lex_error("x\x01", "1:2: unexpected character U+0001");
    assert_lex_error("\xff", "1:1: unexpected byte 0xFF");
}
END_TEST

/* The token list stops at the first error, after the good tokens. */
START_TEST(test_error_ends_the_list)
{
    Lexed l = lex("a b # c d");
    ck_assert_uint_eq(l.tokens->len, 3);
    assert_token(&l, 0, TK_IDENT, 1, 1);
    assert_token(&l, 1, TK_IDENT, 1, 3);
    assert_token(&l, 2, TK_ERROR, 1, 5);
    lexed_free(&l);
}
END_TEST

/* Through the parser: the full diagnostic, source line with its tab kept
   and the caret under the column (a tab counts as one column). */
START_TEST(test_error_message_format)
{
    GError *err = NULL;
    Ast *ast = lang_parse("t.litmus", "Java t\nthread T {\n\tint a = 1 # 2;\n}\n", &err);
    ck_assert_ptr_null(ast);
    ck_assert(g_error_matches(err, PR_LANG_ERROR, PR_LANG_ERROR_SYNTAX));
    ck_assert_str_eq(err->message,
                     "t.litmus:3:12: error: unexpected character '#'\n"
                     "\tint a = 1 # 2;\n"
                     "\t          ^"); /* the caret line copies the tab */
    g_error_free(err);
}
END_TEST

/* A lexical error after the parser's first error is never reached. */
START_TEST(test_first_error_wins)
{
    GError *err = NULL;
    Ast *ast = lang_parse("t.litmus", "Java t\nthread T { x = 1 }\n#\n", &err);
    ck_assert_ptr_null(ast);
    ck_assert_str_eq(err->message,
                     "t.litmus:2:18: error: expected ';' after statement, found '}'\n"
                     "thread T { x = 1 }\n"
                     "                 ^");
    g_error_free(err);
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tokens = tcase_create("tokens");
    tcase_add_test(tokens, test_simple_declaration);
    tcase_add_test(tokens, test_operators_longest_match);
    tcase_add_test(tokens, test_operators_without_blanks);
    tcase_add_test(tokens, test_positions_tabs_and_lines);
    tcase_add_test(tokens, test_crlf);
    tcase_add_test(tokens, test_comments_are_skipped);
    tcase_add_test(tokens, test_eof_position);
    tcase_add_test(tokens, test_keywords_and_names);
    tcase_add_test(tokens, test_header_name);
    tcase_add_test(tokens, test_header_without_name);
    tcase_add_test(tokens, test_string_escapes);
    suite_add_tcase(s, tokens);

    TCase *literals = tcase_create("literals");
    tcase_add_test(literals, test_integer_values);
    tcase_add_test(literals, test_integer_too_large);
    tcase_add_test(literals, test_integer_malformed);
    suite_add_tcase(s, literals);

    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_header_bad_character);
    tcase_add_test(errors, test_unterminated_comment);
    tcase_add_test(errors, test_unterminated_string);
    tcase_add_test(errors, test_unknown_escape);
    tcase_add_test(errors, test_unexpected_characters);
    tcase_add_test(errors, test_error_ends_the_list);
    tcase_add_test(errors, test_error_message_format);
    tcase_add_test(errors, test_first_error_wins);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(lexer_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
