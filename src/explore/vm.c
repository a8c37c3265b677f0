/* The stack machine: runs one thread from a visible action up to its next
 * one, calling the memory model at every shared action.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "machine.h"

#include <string.h>

/* ---- thread words --------------------------------------------------- */

static void ensure_words(Machine *mc, int tid, int64_t need)
{
    if (need <= mc->th_cap[tid])
        return;
    int cap = mc->th_cap[tid];
    while (cap < need)
        cap *= 2;
    mc->th[tid] = g_renew(int64_t, mc->th[tid], cap);
    memset(mc->th[tid] + mc->th_cap[tid], 0, sizeof(int64_t) * (size_t)(cap - mc->th_cap[tid]));
    mc->th_cap[tid] = cap;
}

static inline void push(int64_t *th, int64_t v) { th[th[TH_SP]++] = v; }
static inline int64_t pop(int64_t *th) { return th[--th[TH_SP]]; }
static inline int64_t peek(const int64_t *th, int depth) { return th[th[TH_SP] - 1 - depth]; }

static inline int64_t *local_ptr(int64_t *th, int slot) { return &th[th[TH_FP] + FRAME_HEADER + slot]; }

/* Sets up frame 0 of a thread running method m. */
static void enter_body(Machine *mc, int tid, int method)
{
    const CMethod *cm = &mc->prog->methods[method];
    ensure_words(mc, tid, TH_HEADER + FRAME_HEADER + cm->n_locals + cm->max_stack + 1);
    int64_t *th = mc->th[tid];
    memset(th, 0, sizeof(int64_t) * (size_t)(TH_HEADER + FRAME_HEADER + cm->n_locals));
    th[TH_METHOD] = method;
    th[TH_FP] = TH_HEADER;
    th[TH_SP] = TH_HEADER + FRAME_HEADER + cm->n_locals;
}

/* ---- monitors ------------------------------------------------------- */

static void ensure_monitors(Machine *mc)
{
    if (mc->world->n_objs <= mc->mon_cap)
        return;
    int64_t cap = array_capacity(mc->mon_cap, mc->world->n_objs, 16);
    array_grow(&mc->mon_owner, mc->mon_cap, cap);
    array_grow(&mc->mon_count, mc->mon_cap, cap);
    array_grow(&mc->frozen, mc->mon_cap, cap);
    mc->mon_cap = cap;
}

/* ---- machine -------------------------------------------------------- */

/* A global that no instruction outside the initialiser code writes (final
   ones among them) keeps its initial value once the initial thread has
   run. Methods the initialisers call are scanned too: threads may call
   them as well. */
static void mark_settled_globals(Machine *mc)
{
    const Program *p = mc->prog;
    mc->settled = g_new(bool, p->n_globals + 1);
    for (int g = 0; g < p->n_globals; g++)
        mc->settled[g] = true;
    for (int m = 0; m < p->n_methods; m++) {
        if (m == p->init_method)
            continue;
        for (int i = 0; i < p->methods[m].n_code; i++)
            if (p->methods[m].code[i].op == OP_PUTG)
                mc->settled[p->methods[m].code[i].a] = false;
    }
}

void machine_init(Machine *mc, World *w, const ModelOps *ops, Model *model, Trail *trail,
                  EventLog *events, Result *r, int unroll)
{
    *mc = (Machine){
        .world = w,
        .prog = w->prog,
        .ops = ops,
        .model = model,
        .trail = trail,
        .events = events,
        .result = r,
        .unroll = unroll,
        .n_tids = w->n_tids,
    };
    mark_settled_globals(mc);
    mc->th = g_new0(int64_t *, mc->n_tids);
    mc->th_cap = g_new0(int, mc->n_tids);
    for (int t = 0; t < mc->n_tids; t++) {
        mc->th_cap[t] = 256;
        mc->th[t] = g_new0(int64_t, mc->th_cap[t]);
    }
    mc->h_owner = trail_register(trail, &mc->mon_owner);
    mc->h_count = trail_register(trail, &mc->mon_count);
    mc->h_frozen = trail_register(trail, &mc->frozen);
    ensure_monitors(mc);
    mc->held = g_array_new(FALSE, FALSE, sizeof(PathViolation));
}

void machine_free(Machine *mc)
{
    for (int t = 0; t < mc->n_tids; t++)
        g_free(mc->th[t]);
    g_free(mc->th);
    g_free(mc->th_cap);
    g_free(mc->mon_owner);
    g_free(mc->mon_count);
    g_free(mc->frozen);
    g_free(mc->settled);
    g_array_free(mc->held, TRUE);
}

/* ---- events and violations ------------------------------------------ */

Event *machine_event(Machine *mc, EventKind kind, int tid, int line)
{
    EventLog *log = mc->events;
    if (log->len == log->cap) {
        log->cap = log->cap ? log->cap * 2 : 256;
        log->v = g_renew(Event, log->v, log->cap);
    }
    Event *ev = &log->v[log->len++];
    *ev = (Event){.kind = (uint8_t)kind, .tid = tid, .line = line, .loc = LOC_NONE, .rf = RF_INIT};
    return ev;
}

static void note_violation(Machine *mc, ViolationKind kind, int tid, int line, int detail)
{
    PathViolation v = {kind, tid, line, detail, mc->events->len};
    g_array_append_val(mc->held, v);
}

/* ---- thread end ----------------------------------------------------- */

static StepResult run_local(Machine *mc, int tid);

static StepResult start_threads(Machine *mc)
{
    /* The initial thread has run: names like "flag[]" (--volatile,
       --relax) now resolve. It runs alone, the same on every path. */
    if (world_resolve_requests(mc->world))
        return STEP_DISCARD;
    for (int t = 1; t < mc->n_tids; t++) {
        enter_body(mc, t, mc->prog->threads[t - 1].method);
        mc->th[t][TH_STATUS] = TS_READY;
        if (!mc->ops->sync(mc->model, t, SYNC_START, t, NULL))
            return STEP_DISCARD;
    }
    for (int t = 1; t < mc->n_tids; t++) {
        StepResult r = run_local(mc, t);
        if (r != STEP_OK)
            return r;
    }
    return STEP_OK;
}

/* The thread's last action. An uncaught exception unwinds every
   synchronized block, so the monitors it holds are released first. */
static StepResult end_thread(Machine *mc, int tid, int line, bool died)
{
    if (died) {
        for (int64_t obj = 1; obj < mc->world->n_objs && obj < mc->mon_cap; obj++) {
            if (mc->mon_owner[obj] != tid + 1)
                continue;
            trail_set(mc->trail, mc->h_owner, (size_t)obj, 0);
            trail_set(mc->trail, mc->h_count, (size_t)obj, 0);
            Event *ev = machine_event(mc, EV_UNLOCK, tid, line);
            ev->arg = obj;
            if (!mc->ops->sync(mc->model, tid, SYNC_UNLOCK, obj, ev))
                return STEP_DISCARD;
        }
    }
    Event *ev = machine_event(mc, EV_END, tid, line);
    if (!mc->ops->sync(mc->model, tid, SYNC_END, 0, ev))
        return STEP_DISCARD;
    mc->th[tid][TH_STATUS] = died ? TS_DEAD : TS_ENDED;
    if (tid == 0)
        return start_threads(mc);
    return STEP_OK;
}

static StepResult throw_exception(Machine *mc, int tid, int line, ExceptionKind exc)
{
    Event *ev = machine_event(mc, EV_EXCEPTION, tid, line);
    ev->msg = (int32_t)exc;
    note_violation(mc, VIOL_EXCEPTION, tid, line, (int)exc);
    return end_thread(mc, tid, line, true);
}

/* ---- integer arithmetic with Java semantics -------------------------- */

static inline int64_t wrap32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }

/* Returns false on a zero divisor. */
static bool divide(int op, int64_t a, int64_t b, int64_t *out)
{
    if (b == 0)
        return false;
    bool is_int = op == OP_IDIV || op == OP_IREM;
    int64_t min = is_int ? INT32_MIN : INT64_MIN;
    bool is_div = op == OP_IDIV || op == OP_LDIV;
    if (a == min && b == -1)
        *out = is_div ? min : 0; /* the one overflowing case wraps, as in Java */
    else
        *out = is_div ? a / b : a % b;
    return true;
}

static int64_t arith(int op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case OP_IADD: return wrap32(ua + ub);
    case OP_ISUB: return wrap32(ua - ub);
    case OP_IMUL: return wrap32((uint64_t)((uint32_t)ua * (uint32_t)ub));
    case OP_ISHL: return wrap32((uint64_t)((uint32_t)ua << (b & 31)));
    case OP_ISHR: return (int64_t)((int32_t)a >> (b & 31));
    case OP_IUSHR: return wrap32((uint64_t)((uint32_t)ua >> (b & 31)));
    case OP_LADD: return (int64_t)(ua + ub);
    case OP_LSUB: return (int64_t)(ua - ub);
    case OP_LMUL: return (int64_t)(ua * ub);
    case OP_LSHL: return (int64_t)(ua << (b & 63));
    case OP_LSHR: return a >> (b & 63);
    case OP_LUSHR: return (int64_t)(ua >> (b & 63));
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_XOR: return a ^ b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default: g_assert_not_reached();
    }
}

/* ---- calls ---------------------------------------------------------- */

static StepResult call(Machine *mc, int tid, int callee, int line)
{
    const CMethod *cm = &mc->prog->methods[callee];
    int64_t *th = mc->th[tid];
    if (th[TH_DEPTH] >= EXPLORE_MAX_CALL_DEPTH)
        return STEP_CUT_DEPTH;
    if (cm->is_instance && peek(th, cm->n_params - 1) == 0)
        return throw_exception(mc, tid, line, EXC_NULL_POINTER);

    ensure_words(mc, tid, th[TH_SP] + FRAME_HEADER + cm->n_locals + cm->max_stack + 1);
    th = mc->th[tid];
    int64_t args_at = th[TH_SP] - cm->n_params;
    int64_t fp = args_at; /* the new frame replaces the arguments */
    /* The arguments move up to make room for the frame header. */
    memmove(&th[fp + FRAME_HEADER], &th[args_at], sizeof(int64_t) * (size_t)cm->n_params);
    th[fp + 0] = th[TH_METHOD];
    th[fp + 1] = th[TH_PC] + 1;
    th[fp + 2] = th[TH_FP];
    memset(&th[fp + FRAME_HEADER + cm->n_params], 0,
           sizeof(int64_t) * (size_t)(cm->n_locals - cm->n_params));
    th[TH_METHOD] = callee;
    th[TH_PC] = 0;
    th[TH_FP] = fp;
    th[TH_SP] = fp + FRAME_HEADER + cm->n_locals;
    th[TH_DEPTH]++;
    return STEP_OK;
}

static void ret(int64_t *th, bool has_value)
{
    int64_t value = has_value ? pop(th) : 0;
    int64_t fp = th[TH_FP];
    th[TH_METHOD] = th[fp + 0];
    th[TH_PC] = th[fp + 1];
    th[TH_FP] = th[fp + 2];
    th[TH_SP] = fp;
    th[TH_DEPTH]--;
    if (has_value)
        push(th, value);
}

/* ---- local execution -------------------------------------------------- */

static StepResult new_array(Machine *mc, int tid, const Insn *in)
{
    int64_t *th = mc->th[tid];
    int64_t n = pop(th);
    if (n < 0)
        return throw_exception(mc, tid, in->line, EXC_NEGATIVE_ARRAY_SIZE);
    if (n > MACHINE_MAX_ARRAY)
        return STEP_CUT_SIZE;
    int64_t obj = world_intern_object(mc->world, tid, (int)th[TH_ALLOCS]++, -1, in->a, n);
    ensure_monitors(mc);
    push(th, obj);
    return STEP_OK;
}

static void read_operands(Machine *mc, int tid, const Insn *in, Loc loc, const ReadChoice *choice);
static Loc action_loc(const Machine *mc, const int64_t *th, const Insn *in, ExceptionKind *exc);

/* A read no other thread can affect needs no interleaving point: a global
   only the initialisers write (final ones among them), once they have run,
   or a final field of an object whose constructor has finished (only
   constructors may write one). Such a read is done at once, as
   thread-local work, when the model indeed offers exactly one value. */
static bool stable_read(Machine *mc, int tid, const Insn *in)
{
    const int64_t *th = mc->th[tid];
    if (in->op == OP_GETG) {
        if (tid == 0 || !mc->settled[in->a])
            return false;
    } else if (in->op == OP_GETF) {
        int64_t obj = peek(th, 0);
        if (obj == 0 || !mc->frozen[obj] || !mc->world->locs[world_field_loc(mc->world, obj, in->a)].is_final)
            return false;
    } else {
        return false;
    }
    ExceptionKind exc;
    Loc loc = action_loc(mc, th, in, &exc);
    ReadChoice choice[2];
    if (mc->ops->read_choices(mc->model, tid, loc, choice, 2) != 1)
        return false;
    read_operands(mc, tid, in, loc, &choice[0]);
    mc->th[tid][TH_PC]++;
    return true;
}

/* Runs thread tid's local instructions until it reaches a visible action,
   ends, or the path stops. */
static StepResult run_local(Machine *mc, int tid)
{
    const Program *prog = mc->prog;
    for (;;) {
        int64_t *th = mc->th[tid];
        const CMethod *m = &prog->methods[th[TH_METHOD]];
        const Insn *in = &m->code[th[TH_PC]];
        if (op_is_visible(in->op)) {
            if (!stable_read(mc, tid, in))
                return STEP_OK; /* parked at its next visible action */
            continue;
        }
        int64_t a, b, v;
        switch (in->op) {
        case OP_NOP: break;
        case OP_CONST: push(th, in->k); break;
        case OP_LOAD: push(th, *local_ptr(th, in->a)); break;
        case OP_STORE: *local_ptr(th, in->a) = pop(th); break;
        case OP_POP: th[TH_SP]--; break;
        case OP_DUP: v = peek(th, 0); push(th, v); break;
        case OP_DUP2:
            a = peek(th, 1);
            b = peek(th, 0);
            push(th, a);
            push(th, b);
            break;
        case OP_IDIV: case OP_IREM: case OP_LDIV: case OP_LREM:
            b = pop(th);
            a = pop(th);
            if (!divide(in->op, a, b, &v))
                return throw_exception(mc, tid, in->line, EXC_ARITHMETIC);
            push(th, v);
            break;
        case OP_IADD: case OP_ISUB: case OP_IMUL: case OP_ISHL: case OP_ISHR: case OP_IUSHR:
        case OP_LADD: case OP_LSUB: case OP_LMUL: case OP_LSHL: case OP_LSHR: case OP_LUSHR:
        case OP_AND: case OP_OR: case OP_XOR:
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
            b = pop(th);
            a = pop(th);
            push(th, arith(in->op, a, b));
            break;
        case OP_INEG: push(th, wrap32(0u - (uint64_t)pop(th))); break;
        case OP_LNEG: push(th, (int64_t)(0u - (uint64_t)pop(th))); break;
        case OP_BITNOT: push(th, ~pop(th)); break;
        case OP_NOT: push(th, !pop(th)); break;
        case OP_L2I: push(th, wrap32((uint64_t)pop(th))); break;
        case OP_JMP: th[TH_PC] = in->a; continue;
        case OP_JZ:
            if (pop(th) == 0) {
                th[TH_PC] = in->a;
                continue;
            }
            break;
        case OP_JNZ:
            if (pop(th) != 0) {
                th[TH_PC] = in->a;
                continue;
            }
            break;
        case OP_NEW:
            v = world_intern_object(mc->world, tid, (int)th[TH_ALLOCS]++, in->a, -1, 0);
            ensure_monitors(mc);
            push(th, v);
            break;
        case OP_NEWARRAY: {
            StepResult r = new_array(mc, tid, in);
            if (r != STEP_OK || mc->th[tid][TH_STATUS] != TS_READY)
                return r;
            break;
        }
        case OP_ARRAYLEN:
            a = pop(th);
            if (a == 0)
                return throw_exception(mc, tid, in->line, EXC_NULL_POINTER);
            push(th, mc->world->objs[a].length);
            break;
        case OP_FREEZE:
            trail_set(mc->trail, mc->h_frozen, (size_t)*local_ptr(th, 0), 1);
            if (!mc->ops->sync(mc->model, tid, SYNC_FREEZE, *local_ptr(th, 0), NULL))
                return STEP_DISCARD;
            break;
        case OP_CALL: {
            StepResult r = call(mc, tid, in->a, in->line);
            if (r != STEP_OK || mc->th[tid][TH_STATUS] != TS_READY)
                return r;
            continue; /* the callee starts at pc 0 */
        }
        case OP_RET: ret(th, false); continue;
        case OP_RETV: ret(th, true); continue;
        case OP_ASSERT:
            if (pop(th) == 0) {
                Event *ev = machine_event(mc, EV_ASSERT, tid, in->line);
                ev->msg = in->a;
                note_violation(mc, VIOL_ASSERT, tid, in->line, in->a);
                return end_thread(mc, tid, in->line, true); /* AssertionError */
            }
            break;
        case OP_ASSUME:
            if (pop(th) == 0)
                return STEP_DISCARD;
            break;
        case OP_LOOP_ENTER: *local_ptr(th, in->a) = 0; break;
        case OP_LOOP_ITER:
            if (++*local_ptr(th, in->a) > mc->unroll)
                return STEP_CUT_UNROLL;
            break;
        case OP_END: return end_thread(mc, tid, in->line, false);
        default: g_assert_not_reached();
        }
        th[TH_PC]++;
    }
}

StepResult machine_start(Machine *mc)
{
    for (int t = 0; t < mc->n_tids; t++)
        mc->th[t][TH_STATUS] = TS_NOT_STARTED;
    g_array_set_size(mc->held, 0);
    enter_body(mc, 0, mc->prog->init_method);
    mc->th[0][TH_STATUS] = TS_READY;
    return run_local(mc, 0);
}

/* ---- visible actions -------------------------------------------------- */

/* How many operands lie above the object (or the array and index) an
   action acts on: a write's value, a CAS's expected and new values, a
   GETADD's delta. */
static int operands_above_target(const Insn *in)
{
    switch (in->op) {
    case OP_PUTF: case OP_ASTORE: case OP_GETADD: return 1;
    case OP_CAS: return 2;
    default: return 0;
    }
}

/* The plain access whose location an action has: an atomic step acts on a
   field (AtomicInteger) or an element (AtomicIntegerArray). */
static int access_shape(const Insn *in)
{
    if (in->op != OP_CAS && in->op != OP_GETADD)
        return in->op;
    return in->a == ATOMIC_ELEMENT ? OP_ALOAD : OP_GETF;
}

/* The location a parked read or write acts on, or LOC_NONE when the action
   throws instead (*exc says which). */
static Loc action_loc(const Machine *mc, const int64_t *th, const Insn *in, ExceptionKind *exc)
{
    int base = operands_above_target(in);
    switch (access_shape(in)) {
    case OP_GETG:
    case OP_PUTG:
        return in->a;
    case OP_GETF:
    case OP_PUTF: {
        int64_t obj = peek(th, base);
        if (obj == 0) {
            *exc = EXC_NULL_POINTER;
            return LOC_NONE;
        }
        return world_field_loc(mc->world, obj, in->a);
    }
    case OP_ALOAD:
    case OP_ASTORE: {
        int64_t index = peek(th, base);
        int64_t arr = peek(th, base + 1);
        if (arr == 0) {
            *exc = EXC_NULL_POINTER;
            return LOC_NONE;
        }
        if (index < 0 || index >= mc->world->objs[arr].length) {
            *exc = EXC_ARRAY_INDEX;
            return LOC_NONE;
        }
        return world_field_loc(mc->world, arr, (int)index);
    }
    default:
        g_assert_not_reached();
    }
}

static inline const Insn *current_insn(const Machine *mc, const int64_t *th)
{
    return &mc->prog->methods[th[TH_METHOD]].code[th[TH_PC]];
}

int machine_thread_options(Machine *mc, int tid, ReadChoice **choices, int *choices_cap)
{
    const int64_t *th = mc->th[tid];
    if (th[TH_STATUS] != TS_READY)
        return 0;
    const Insn *in = current_insn(mc, th);
    switch (in->op) {
    case OP_GETG:
    case OP_GETF:
    case OP_ALOAD:
    case OP_CAS:
    case OP_GETADD: {
        ExceptionKind exc;
        Loc loc = action_loc(mc, th, in, &exc);
        if (loc == LOC_NONE)
            return 1;
        int n = mc->ops->read_choices(mc->model, tid, loc, *choices, *choices_cap);
        if (n > *choices_cap) {
            *choices_cap = n * 2;
            *choices = g_renew(ReadChoice, *choices, *choices_cap);
            n = mc->ops->read_choices(mc->model, tid, loc, *choices, *choices_cap);
        }
        return n > 0 ? n : MACHINE_NO_VALUE;
    }
    case OP_LOCK: {
        int64_t obj = peek(th, 0);
        if (obj == 0)
            return 1;
        int64_t owner = mc->mon_owner[obj];
        return owner == 0 || owner == tid + 1;
    }
    case OP_JOIN: {
        int status = machine_status(mc, in->a);
        return status == TS_ENDED || status == TS_DEAD;
    }
    default:
        return 1;
    }
}

/* A read of loc with one of the model's choices, logged on the trace;
   returns the value read. */
static int64_t read_location(Machine *mc, int tid, const Insn *in, Loc loc, const ReadChoice *choice)
{
    Event *ev = machine_event(mc, EV_READ, tid, in->line);
    ev->loc = loc;
    ev->is_volatile = mc->world->locs[loc].is_volatile;
    mc->ops->read(mc->model, tid, loc, choice, ev);
    return ev->value;
}

/* A write of value to loc, logged on the trace; false when the model
   finds the path ill-formed. */
static bool write_location(Machine *mc, int tid, const Insn *in, Loc loc, int64_t value)
{
    Event *ev = machine_event(mc, EV_WRITE, tid, in->line);
    ev->loc = loc;
    ev->value = value;
    ev->is_volatile = mc->world->locs[loc].is_volatile;
    return mc->ops->write(mc->model, tid, loc, value, ev);
}

/* A read whose location is known (the operands are valid): pops the
   object and index operands and pushes the value read. */
static void read_operands(Machine *mc, int tid, const Insn *in, Loc loc, const ReadChoice *choice)
{
    mc->th[tid][TH_SP] -= in->op == OP_GETG ? 0 : in->op == OP_GETF ? 1 : 2;
    int64_t value = read_location(mc, tid, in, loc, choice);
    push(mc->th[tid], value);
}

static StepResult do_read(Machine *mc, int tid, const Insn *in, const ReadChoice *choice)
{
    ExceptionKind exc;
    Loc loc = action_loc(mc, mc->th[tid], in, &exc);
    if (loc == LOC_NONE)
        return throw_exception(mc, tid, in->line, exc);
    read_operands(mc, tid, in, loc, choice);
    return STEP_OK;
}

static StepResult do_write(Machine *mc, int tid, const Insn *in)
{
    int64_t *th = mc->th[tid];
    ExceptionKind exc;
    Loc loc = action_loc(mc, th, in, &exc);
    if (loc == LOC_NONE)
        return throw_exception(mc, tid, in->line, exc);
    int64_t value = pop(th);
    th[TH_SP] -= in->op == OP_PUTG ? 0 : in->op == OP_PUTF ? 1 : 2;
    if (tid == 0 && in->op == OP_PUTG)
        world_note_init_write(mc->world, in->a, value);
    return write_location(mc, tid, in, loc, value) ? STEP_OK : STEP_DISCARD;
}

/* compareAndSet (OP_CAS) or getAndAdd (OP_GETADD) in one visible step: a
   fence (tso and pso drain the thread's buffers), the read, and the write
   when the CAS succeeds or always for GETADD, with no other action in
   between. The location is volatile, so the read has one choice, which
   the fence leaves unchanged: volatile writes are never buffered. */
static StepResult do_atomic(Machine *mc, int tid, const Insn *in, const ReadChoice *choice)
{
    int64_t *th = mc->th[tid];
    ExceptionKind exc;
    Loc loc = action_loc(mc, th, in, &exc);
    if (loc == LOC_NONE)
        return throw_exception(mc, tid, in->line, exc);
    bool is_cas = in->op == OP_CAS;
    int64_t operand = pop(th); /* the new value, or the delta */
    int64_t expect = is_cas ? pop(th) : 0;
    th[TH_SP] -= in->a == ATOMIC_ELEMENT ? 2 : 1;
    if (!mc->ops->sync(mc->model, tid, SYNC_FENCE, 0, NULL))
        return STEP_DISCARD;
    int64_t old = read_location(mc, tid, in, loc, choice);
    bool writes = !is_cas || old == expect;
    int64_t value = is_cas ? operand : wrap32((uint64_t)old + (uint64_t)operand);
    if (writes && !write_location(mc, tid, in, loc, value))
        return STEP_DISCARD;
    push(th, is_cas ? writes : old);
    return STEP_OK;
}

static StepResult do_lock(Machine *mc, int tid, const Insn *in)
{
    int64_t obj = pop(mc->th[tid]);
    if (obj == 0)
        return throw_exception(mc, tid, in->line, EXC_NULL_POINTER);
    int64_t count = mc->mon_count[obj];
    trail_set(mc->trail, mc->h_owner, (size_t)obj, tid + 1);
    trail_set(mc->trail, mc->h_count, (size_t)obj, count + 1);
    if (count > 0)
        return STEP_OK; /* re-entry: no new synchronisation */
    Event *ev = machine_event(mc, EV_LOCK, tid, in->line);
    ev->arg = obj;
    return mc->ops->sync(mc->model, tid, SYNC_LOCK, obj, ev) ? STEP_OK : STEP_DISCARD;
}

static StepResult do_unlock(Machine *mc, int tid, const Insn *in)
{
    int64_t obj = pop(mc->th[tid]);
    if (obj == 0)
        return throw_exception(mc, tid, in->line, EXC_NULL_POINTER);
    int64_t count = mc->mon_count[obj] - 1;
    trail_set(mc->trail, mc->h_count, (size_t)obj, count);
    if (count > 0)
        return STEP_OK;
    trail_set(mc->trail, mc->h_owner, (size_t)obj, 0);
    Event *ev = machine_event(mc, EV_UNLOCK, tid, in->line);
    ev->arg = obj;
    return mc->ops->sync(mc->model, tid, SYNC_UNLOCK, obj, ev) ? STEP_OK : STEP_DISCARD;
}

StepResult machine_step(Machine *mc, int tid, const ReadChoice *choice)
{
    const Insn *in = current_insn(mc, mc->th[tid]);
    StepResult r;
    switch (in->op) {
    case OP_GETG: case OP_GETF: case OP_ALOAD: r = do_read(mc, tid, in, choice); break;
    case OP_PUTG: case OP_PUTF: case OP_ASTORE: r = do_write(mc, tid, in); break;
    case OP_CAS: case OP_GETADD: r = do_atomic(mc, tid, in, choice); break;
    case OP_LOCK: r = do_lock(mc, tid, in); break;
    case OP_UNLOCK: r = do_unlock(mc, tid, in); break;
    case OP_JOIN: {
        Event *ev = machine_event(mc, EV_JOIN, tid, in->line);
        ev->arg = in->a;
        r = mc->ops->sync(mc->model, tid, SYNC_JOIN, in->a, ev) ? STEP_OK : STEP_DISCARD;
        break;
    }
    default: g_assert_not_reached();
    }
    if (r != STEP_OK || mc->th[tid][TH_STATUS] != TS_READY)
        return r;
    mc->th[tid][TH_PC]++;
    return run_local(mc, tid);
}

/* ---- state key and snapshots ----------------------------------------- */

/* One frame: its method and pc, its locals (loop counters apart) and its
   operand stack, which ends at stack_end. */
static void key_frame(const Machine *mc, const int64_t *th, int64_t method, int64_t pc, int64_t fp,
                      int64_t stack_end, KeyBuf *key, GArray *counters)
{
    const CMethod *m = &mc->prog->methods[method];
    key_put(key, method);
    key_put(key, pc);
    const int64_t *locals = &th[fp + FRAME_HEADER];
    for (int i = 0; i < m->n_locals; i++) {
        if (m->is_counter[i]) {
            int32_t c = (int32_t)locals[i];
            g_array_append_val(counters, c);
        } else {
            key_put(key, locals[i]);
        }
    }
    int64_t stack_start = fp + FRAME_HEADER + m->n_locals;
    key_put(key, stack_end - stack_start);
    for (int64_t i = stack_start; i < stack_end; i++)
        key_put(key, th[i]);
}

/* An ended thread can only still be seen through its registers (the final
   state) and its allocation count (object names). */
static void key_ended_thread(const Machine *mc, int tid, KeyBuf *key)
{
    const CThread *ct = &mc->prog->threads[tid - 1];
    for (int i = 0; i < ct->n_regs; i++)
        key_put(key, machine_register(mc, tid, ct->reg_slots[i]));
}

void machine_key(Machine *mc, KeyBuf *key, GArray *counters)
{
    for (int t = 0; t < mc->n_tids; t++) {
        const int64_t *th = mc->th[t];
        key_put(key, th[TH_STATUS]);
        if (th[TH_STATUS] == TS_NOT_STARTED)
            continue;
        if (th[TH_STATUS] != TS_READY) {
            key_put(key, th[TH_ALLOCS]);
            if (t > 0)
                key_ended_thread(mc, t, key);
            continue;
        }
        key_put(key, th[TH_ALLOCS]);
        key_put(key, th[TH_DEPTH]);
        int64_t method = th[TH_METHOD], pc = th[TH_PC], fp = th[TH_FP], end = th[TH_SP];
        for (int64_t d = th[TH_DEPTH]; d >= 0; d--) {
            key_frame(mc, th, method, pc, fp, end, key, counters);
            end = fp;
            method = th[fp + 0];
            pc = th[fp + 1];
            fp = th[fp + 2];
        }
    }
    for (int64_t obj = 1; obj < mc->world->n_objs && obj < mc->mon_cap; obj++) {
        if (mc->mon_owner[obj]) {
            key_put(key, obj);
            key_put(key, mc->mon_owner[obj]);
            key_put(key, mc->mon_count[obj]);
        }
    }
    key_put(key, -1);
    if (mc->ops->holds_violations) {
        for (guint i = 0; i < mc->held->len; i++) {
            const PathViolation *v = &g_array_index(mc->held, PathViolation, i);
            key_put(key, v->kind);
            key_put(key, v->tid);
            key_put(key, v->line);
            key_put(key, v->detail);
        }
        key_put(key, -1);
    }
}

void machine_snapshot(const Machine *mc, GArray *arena)
{
    for (int t = 0; t < mc->n_tids; t++) {
        const int64_t *th = mc->th[t];
        int64_t used = th[TH_STATUS] == TS_NOT_STARTED ? TH_HEADER : th[TH_SP];
        g_array_append_vals(arena, th, (guint)used);
    }
}

void machine_restore(Machine *mc, const GArray *arena, size_t offset, int only)
{
    const int64_t *src = &g_array_index(arena, int64_t, offset);
    for (int t = 0; t < mc->n_tids; t++) {
        int64_t used = src[TH_STATUS] == TS_NOT_STARTED ? TH_HEADER : src[TH_SP];
        if (only < 0 || only == t) {
            ensure_words(mc, t, used);
            memcpy(mc->th[t], src, sizeof(int64_t) * (size_t)used);
        }
        src += used;
    }
}
