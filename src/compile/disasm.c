/* PathRelax compiler: opcode names and a readable listing of compiled code.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/compile.h"

static const char *const opcode_names[OP__COUNT] = {
    [OP_NOP] = "NOP", [OP_CONST] = "CONST", [OP_LOAD] = "LOAD", [OP_STORE] = "STORE",
    [OP_POP] = "POP", [OP_DUP] = "DUP", [OP_DUP2] = "DUP2",
    [OP_IADD] = "IADD", [OP_ISUB] = "ISUB", [OP_IMUL] = "IMUL", [OP_IDIV] = "IDIV",
    [OP_IREM] = "IREM", [OP_ISHL] = "ISHL", [OP_ISHR] = "ISHR", [OP_IUSHR] = "IUSHR",
    [OP_INEG] = "INEG",
    [OP_LADD] = "LADD", [OP_LSUB] = "LSUB", [OP_LMUL] = "LMUL", [OP_LDIV] = "LDIV",
    [OP_LREM] = "LREM", [OP_LSHL] = "LSHL", [OP_LSHR] = "LSHR", [OP_LUSHR] = "LUSHR",
    [OP_LNEG] = "LNEG",
    [OP_AND] = "AND", [OP_OR] = "OR", [OP_XOR] = "XOR", [OP_BITNOT] = "BITNOT",
    [OP_NOT] = "NOT", [OP_L2I] = "L2I",
    [OP_EQ] = "EQ", [OP_NE] = "NE", [OP_LT] = "LT", [OP_LE] = "LE", [OP_GT] = "GT",
    [OP_GE] = "GE",
    [OP_JMP] = "JMP", [OP_JZ] = "JZ", [OP_JNZ] = "JNZ",
    [OP_GETG] = "GETG", [OP_PUTG] = "PUTG", [OP_GETF] = "GETF", [OP_PUTF] = "PUTF",
    [OP_ALOAD] = "ALOAD", [OP_ASTORE] = "ASTORE", [OP_CAS] = "CAS",
    [OP_GETADD] = "GETADD", [OP_LOCK] = "LOCK",
    [OP_UNLOCK] = "UNLOCK", [OP_JOIN] = "JOIN",
    [OP_NEW] = "NEW", [OP_NEWARRAY] = "NEWARRAY", [OP_ARRAYLEN] = "ARRAYLEN",
    [OP_FREEZE] = "FREEZE", [OP_CALL] = "CALL", [OP_RET] = "RET", [OP_RETV] = "RETV",
    [OP_ASSERT] = "ASSERT", [OP_ASSUME] = "ASSUME", [OP_LOOP_ENTER] = "LOOP_ENTER",
    [OP_LOOP_ITER] = "LOOP_ITER", [OP_END] = "END",
};

const char *opcode_name(int op)
{
    if (op < 0 || op >= OP__COUNT || !opcode_names[op])
        return "?";
    return opcode_names[op];
}

/* GETF and PUTF carry the field's class in k (see compile.c). */
static void append_field(GString *out, const Program *prog, const Insn *in)
{
    const CClass *cls = &prog->classes[in->k];
    g_string_append_printf(out, " %s.%s", cls->name, cls->fields[in->a].name);
}

static void append_type(GString *out, const Program *prog, int type_index)
{
    char *name = type_to_string(prog->types[type_index]);
    g_string_append_printf(out, " %s", name);
    g_free(name);
}

/* The operand, by name where the program has one. */
static void append_operand(GString *out, const Program *prog, const Insn *in)
{
    switch (in->op) {
    case OP_CONST:
        g_string_append_printf(out, " %" G_GINT64_FORMAT, in->k);
        break;
    case OP_LOAD: case OP_STORE: case OP_JMP: case OP_JZ: case OP_JNZ:
    case OP_ASSERT: case OP_LOOP_ENTER: case OP_LOOP_ITER:
        g_string_append_printf(out, " %d", in->a);
        break;
    case OP_GETG: case OP_PUTG:
        g_string_append_printf(out, " %s", prog->globals[in->a].name);
        break;
    case OP_GETF: case OP_PUTF:
        append_field(out, prog, in);
        break;
    case OP_CAS: case OP_GETADD:    /* on an array element: no operand */
        if (in->a != ATOMIC_ELEMENT)
            append_field(out, prog, in);
        break;
    case OP_JOIN:    /* thread id a is Program.threads[a - 1] */
        g_string_append_printf(out, " %s", prog->threads[in->a - 1].name);
        break;
    case OP_NEW:
        g_string_append_printf(out, " %s", prog->classes[in->a].name);
        break;
    case OP_NEWARRAY:
        append_type(out, prog, in->a);
        break;
    case OP_CALL:
        g_string_append_printf(out, " %s", prog->methods[in->a].name);
        break;
    default:
        break;
    }
}

char *program_disassemble(const Program *prog, int method)
{
    const CMethod *m = &prog->methods[method];
    GString *out = g_string_new(NULL);
    for (int pc = 0; pc < m->n_code; pc++) {
        const Insn *in = &m->code[pc];
        g_string_append_printf(out, "%4d  L%-3d %s", pc, in->line, opcode_name(in->op));
        append_operand(out, prog, in);
        g_string_append_c(out, '\n');
    }
    return g_string_free(out, FALSE);
}
