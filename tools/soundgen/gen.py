# gen.py - random small procs and random schedules of them ------------------#
# Owns: the program generator of soundgen (hunt for scheduling steps that
# exgc accepts and that change a proc's results). One batch is one .exg
# module: fixed helper procs (and schedules of them, for call_eqv), then
# random procs, each with a few schedules that chain random primitive steps
# with random arguments. The procs use loops whose extents may be negative
# (`seq(0, n - 8)`, `seq(m, n)`), guards, windows, calls that may pass one
# buffer twice, reductions, data scalars, integer buffers and allocations.
# Every access stays in bounds by construction (buffers are n + m + 16
# long), so the typecheck accepts the procs and only steps get refused.
import random
import re

# Helpers every batch has. `swap2s` reorders two writes that alias when the
# call passes one buffer twice; `bump` writes its scalar parameter; `dbl` has
# a local allocation (fission between two of its calls is fine).
PRELUDE = """\
proc swap2(a: [f32][2], b: [f32][2]):
    a[0] = 1.0
    b[0] = 2.0
    a[1] = b[1] + 1.0

schedule swap2s from swap2:
    p = reorder_stmts(p, "a[0] = _")

proc bump(s: f32, a: [f32][1]):
    s = a[0] + 1.0
    a[0] = s * 2.0

schedule bumps from bump:
    p = rename(p, "bumps")

proc dbl(k: size, a: [f32][k]):
    t: f32[k]
    for q in seq(0, k):
        t[q] = a[q] * 2.0
    for q2 in seq(0, k):
        a[q2] = t[q2] + 1.0

schedule dbls from dbl:
    p = divide_loop(p, "q", 2, ["qo", "qi"], tail="cut")

# A control parameter of a callee: `k` bounds what it writes (the wide
# procs call it with constants and sizes).
proc part(k: size, a: [f32][4]):
    for q in seq(0, 4):
        if q < k:
            a[q] = a[q] * 2.0

schedule parts from part:
    p = divide_loop(p, "q", 2, ["qo", "qi"], tail="cut")

instr add2(d: [f32][2], s: [f32][2]):
    emit: "add2({d}, {s});"
    for q in seq(0, 2):
        d[q] += s[q]

"""

# Helpers of --gpu batches: an instr over device memory that completes on a
# barrier (replace, then set_trailing_barrier_expr), and a callee that calls
# procs and an instr in turn (nested callees: inline and call_eqv reach them
# with its control argument).
PRELUDE_GPU = """\
proc nest(k: size, a: [f32][4]):
    part(k, a)
    dbl(4, a)
    add2(a[0:2], a[2:4])

schedule nests from nest:
    p = inline(p, "part(_)")

instr gadd2(d: [f32][2] @ CudaGmemLinear, s: [f32][2] @ CudaGmemLinear):
    barrier: CudaMbarrier
    emit: "gadd2({d}, {s}, {bar});"
    for q in seq(0, 2):
        d[q] += s[q]

"""

def as_type(text, is_int):
    """`text` written for f32, made an i32 proc (most procs: integer sums wrap
    the same in any order, so reordered sums compare exactly) or kept f32 with
    halving instead of doubling (values stay small, sums of quarters exact)."""
    if not is_int:
        return text.replace(" * 2.0", " * 0.5").replace(" * 3.0", " * 0.25")
    text = re.sub(r"\bf32\b", "i32", text)
    for lit, rep in [("0.25", "1"), ("0.5", "1"), ("2.0", "2"), ("1.0", "1"), ("3.0", "3"),
                     ("0.0", "0")]:
        text = text.replace(lit, rep)
    return re.sub(r"\b(swap2|bump|dbl|part|nest|g?add2)(s?)\b", r"\1_i\2", text)


# Loop bounds over the sizes n, m (both >= 1). Extents may be negative.
BOUNDS = [("0", "n"), ("0", "n - 8"), ("4", "n"), ("1", "n - 1"), ("m", "n"), ("0", "m"),
          ("0", "4"), ("0", "8"), ("2", "n + 2"), ("0", "n - 1")]
ASSERTS = ["", "", "", "assert n >= 5", "assert n >= 9", "assert n % 4 == 0", "assert m <= n",
           "assert n >= m + 3"]
FLOAT_BUFS = ["x", "y", "z"]
TIMELINES = ["cuda_in_order", "cuda_temporal"]


class ProcGen:
    """One random proc: its text, and what steps may name in it."""

    def __init__(self, rng, name, only=None, mixed=None, unwritten=False, wide=False, gpu=False,
                 dead=False):
        self.rng = rng
        self.name = name
        self.only = only     # a primitive every step uses, where it can
        self.iters = []      # every loop iterator, program order
        self.nests = []      # (outer, inner) perfectly nested pairs
        self.stmts = []      # patterns of single statements inside loops
        self.top = []        # patterns of top-level statements
        self.scalars = []    # local data scalars assigned once
        self.int_scalars = []
        self.windows = []
        self.calls = []      # callee names called
        self.sums = []       # (acc pattern, first loop iter, inner iter)
        self.allocs = []     # (local buffer, extent)
        self.pairs = []      # adjacent top-level loops
        self.stencils = []   # loops reading one buffer and writing another
        self.k = 0
        self.lines = []
        self.is_int = rng.random() < 0.7
        # Mixed: x, y, z are f32, i32 and i8 in one proc, and temporaries
        # have any of those types, so every step that moves an expression
        # meets the rule that data is computed in its destination's type.
        self.mixed = mixed if mixed is not None else rng.random() < 0.25
        # Reads of memory no statement wrote yet (an unspecified value, which
        # a step may change; the difftest compares only what does not depend
        # on it): local buffers read one past what they fill, scalars read
        # before their assignment.
        self.unwritten = unwritten or wide
        # Wide: also the shapes and primitives added in issue 27 (2-D local
        # buffers for the dim primitives, 2 x 2 sums for butterfly_sum, an
        # instr for replace, index expressions for rewrite_expr); off, the
        # random stream of earlier seeds is unchanged.
        self.wide = wide
        self.dims2 = []      # (2-D local buffer, first extent)
        self.butterflies = [] # (acc pattern of a 2 x 2 sum)
        self.instr_loops = [] # inner loops that add2 can replace
        self.instr_tops = []  # (top-level loop, its inner loop add2 can replace)
        self.index_exprs = [] # (iterator, offset) of indices written `i + k`
        if self.mixed:
            self.is_int = False
        # GPU: the batch also has the GPU steps (rename, passes, loop modes
        # everywhere); a proc of device memory (x, y, z, iz and a read-only
        # `a` in CudaGmemLinear, no calls of the DRAM helpers) also gets
        # wrapped into kernels, barriers, fences and tensor-map windows.
        self.gpu_steps = gpu
        self.gpu = gpu and rng.random() < 0.5
        # Dead: allocations nothing reads (some written once), which
        # delete_buffer may delete; off, earlier seeds give their modules.
        self.dead = dead
        self.dead_allocs = []

    def scalar_type(self):
        """A temporary's type: f32, or in a mixed proc any of its types."""
        return self.rng.choice(["f32", "i32", "i8"]) if self.mixed else "f32"

    def fresh(self, base):
        self.k += 1
        return "%s%d" % (base, self.k)

    def index(self, it):
        # In bounds: iterators lie in [0, max(n, m) + 2) (lower bounds are 0,
        # 1, 2, 4 or m) and buffers are n + m + 16 long.
        off = self.rng.choice([0, 0, 1, 2, 3])
        if off and self.wide:
            self.index_exprs.append((it, off))
        return it if off == 0 else "%s + %d" % (it, off)

    def value(self, its):
        r = self.rng.random()
        b = self.rng.choice(FLOAT_BUFS + (["a"] if self.gpu else []))
        if its and r < 0.6:
            return "%s[%s] * 2.0" % (b, self.index(self.rng.choice(its)))
        if its and r < 0.8:
            return "%s[%s] + %s[%s]" % (b, self.index(self.rng.choice(its)),
                                        self.rng.choice(FLOAT_BUFS), self.index(self.rng.choice(its)))
        if self.scalars and r < 0.9:
            return "%s + 1.0" % self.rng.choice(self.scalars)
        return "%s[%d] + 0.5" % (b, self.rng.randrange(4))

    def body_stmt(self, its, depth):
        r = self.rng.random()
        b = self.rng.choice(FLOAT_BUFS)
        tgt = "%s[%s]" % (b, self.index(self.rng.choice(its)))
        if r < 0.45:
            s = "%s = %s" % (tgt, self.value(its))
        elif r < 0.75:
            s = "%s += %s" % (tgt, self.value(its))
        elif r < 0.85 and self.windows:
            w = self.rng.choice(self.windows)
            s = "%s[%s] = %s" % (w, self.index(self.rng.choice(its)), self.value(its))
        else:
            s = "s0 += %s" % self.value(its)
        head = s.split("=")[0].rstrip(" +")
        head = head[:head.index("[")] + "[_]" if "[" in head else head
        self.stmts.append(head + (" += _" if "+=" in s else " = _"))
        return ["    " * depth + s]

    def loop(self, depth, outer_its, nest_left):
        it = self.fresh("i")
        lo, hi = self.rng.choice(BOUNDS)
        self.iters.append(it)
        its = outer_its + [it]
        out = ["    " * depth + "for %s in seq(%s, %s):" % (it, lo, hi)]
        if nest_left > 0 and self.rng.random() < 0.6:
            inner = self.loop(depth + 1, its, nest_left - 1)
            self.nests.append((it, inner[1]))
            out += inner[0]
            if self.rng.random() < 0.3:
                out += self.body_stmt(its, depth + 1)
            return out, it
        body = []
        if self.rng.random() < 0.2:
            # Wide: also guards on a stride, which the scheduling solver cannot
            # read (it drops them: sound for "may conflict", never for "must
            # write"). Strides of these 1-D buffers are 1.
            guard = "%s < n - 2" % it
            if self.wide:
                guard = self.rng.choice([guard, "%s < stride(x, 0) + n - 3" % it,
                                         "%s * stride(y, 0) < n - 2" % it])
            body.append("    " * (depth + 1) + "if %s:" % guard)
            body += self.body_stmt(its, depth + 2)
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            body += self.body_stmt(its, depth + 1)
        return out + body, it

    def stencil(self):
        """A loop that reads one buffer around i and writes another: what
        divide_with_recompute can tile. Sometimes it also zeroes what it reads
        (the reference's check accepts that; recomputed iterations then read
        zeros) or writes one element from every iteration (the last writer
        must stay the last)."""
        rng = self.rng
        i = self.fresh("i")
        lo, hi = rng.choice([("0", "8"), ("0", "4"), ("1", "7"), ("2", "11")] + BOUNDS)
        dst, src = rng.sample(FLOAT_BUFS, 2)
        out = ["    for %s in seq(%s, %s):" % (i, lo, hi)]
        if rng.random() < 0.3:
            t = self.fresh("t")
            out += ["        %s: f32" % t, "        %s = %s[%s] * 2.0" % (t, src, self.index(i))]
            rhs = "%s + %s[%s]" % (t, src, self.index(i))
        else:
            rhs = "%s[%s] + %s[%s]" % (src, self.index(i), src, self.index(i))
        out.append("        %s[%s] = %s" % (dst, i, rhs))
        r = rng.random()
        if r < 0.25:
            out.append("        %s[%s] = 0.0" % (src, i))
        elif r < 0.45:
            out.append("        %s[0] = %s[%s] * 0.5" % (dst, src, self.index(i)))
        self.iters.append(i)
        self.stencils.append((i, lo, hi))
        self.top.append("for %s in _: _" % i)
        return out

    def wide_shape(self):
        """One of the shapes only wide procs have."""
        rng = self.rng
        kind = rng.choice(["dims2", "butterfly", "instr"] + (["instr"] * 2 if self.gpu else []))
        i, j, i2, j2 = (self.fresh("i") for _ in range(4))
        if kind == "dims2":
            b, ext = self.fresh("d"), rng.choice(["8", "n", "n + 2"])
            self.iters += [i, j, i2, j2]
            self.nests += [(i, j), (i2, j2)]
            self.dims2.append((b, ext))
            self.allocs.append((b, ext, i))
            return ["    %s: f32[%s, 4]" % (b, ext),
                    "    for %s in seq(0, %s):" % (i, ext),
                    "        for %s in seq(0, 4):" % j,
                    "            %s[%s, %s] = %s[%s + %s] * 2.0" % (b, i, j, rng.choice(FLOAT_BUFS), i, j),
                    "    for %s in seq(0, %s):" % (i2, ext),
                    "        for %s in seq(0, 4):" % j2,
                    "            %s[%s] += %s[%s, %s]" % (rng.choice(FLOAT_BUFS), i2, b, i2, j2)]
        if kind == "butterfly":
            b, acc = self.fresh("bb"), rng.choice(FLOAT_BUFS)
            at = rng.randrange(4, 8)
            self.iters += [i, j, i2, j2]
            self.nests += [(i, j), (i2, j2)]
            self.butterflies.append("%s[_] = _; for %s in _: _" % (acc, i2))
            return ["    %s: f32[2, 2]" % b,
                    "    for %s in seq(0, 2):" % i,
                    "        for %s in seq(0, 2):" % j,
                    "            %s[%s, %s] = %s[%s + 2 * %s] * 2.0" % (b, i, j, rng.choice(FLOAT_BUFS), i, j),
                    "    %s[%d] = %s" % (acc, at, rng.choice(["0.0", "0.0", "1.0"])),
                    "    for %s in seq(0, 2):" % i2,
                    "        for %s in seq(0, 2):" % j2,
                    "            %s[%d] += %s[%s, %s]" % (acc, at, b, i2, j2)]
        lo, hi = rng.choice(BOUNDS)
        self.iters += [i, j]
        self.nests.append((i, j))
        self.instr_loops.append(j)
        self.instr_tops.append((i, j))
        self.top.append("for %s in _: _" % i)
        dst = rng.choice(FLOAT_BUFS)
        src = dst if rng.random() < 0.2 else rng.choice([b for b in FLOAT_BUFS if b != dst])
        return ["    for %s in seq(%s, %s):" % (i, lo, hi),
                "        for %s in seq(0, 2):" % j,
                "            %s[%s + %s] += %s[%s + %s]" % (dst, self.index(i), j, src, i, j)]

    def generate(self):
        rng = self.rng
        types = ("f32", "i32", "i8") if self.mixed else ("f32", "f32", "f32")
        args = "n: size, m: size, x: %s[n + m + 16], y: %s[n + m + 16], z: %s[n + m + 16], " \
               "s0: f32, iz: i32[n + m + 16]" % types
        if self.gpu:
            args = args.replace("16]", "16] @ CudaGmemLinear") + \
                ", a: f32[n + m + 16] @ CudaGmemLinear"
        lines = ["proc %s(%s):" % (self.name, args)]
        a = rng.choice(ASSERTS)
        if a:
            lines.append("    " + a)
        if rng.random() < 0.3:
            w = self.fresh("w")
            lines.append("    %s = %s[2:n + m + 12]" % (w, rng.choice(FLOAT_BUFS)))
            self.windows.append(w)
        if rng.random() < 0.3:
            t = self.fresh("t")
            lines += ["    %s: %s" % (t, self.scalar_type()), "    %s = %s" % (t, self.value([]))]
            self.scalars.append(t)
        for _ in range(rng.choice([1, 2, 2, 3])):
            if self.wide and rng.random() < 0.3:
                lines += self.wide_shape()
                continue
            r = rng.random()
            if self.only == "divide_with_recompute" and r < 0.6:
                lines += self.stencil()
            elif r < 0.33:
                text, it = self.loop(1, [], 2)
                lines += text
                self.top.append("for %s in _: _" % it)
            elif r < 0.4:
                lines += self.stencil()
            elif r < 0.5:
                acc = rng.choice(FLOAT_BUFS)
                k, q = self.fresh("k"), self.fresh("r")
                self.iters += [k, q]
                lo, hi = rng.choice([("0", "n"), ("0", "n - 8"), ("m", "n"), ("0", "4")])
                lines += ["    %s[0] = 0.0" % acc,
                          "    for %s in seq(%s, %s):" % (k, lo, hi),
                          "        for %s in seq(0, 4):" % q]
                src = rng.choice(FLOAT_BUFS[:2])
                if self.windows and rng.random() < 0.3:
                    src = self.windows[0]
                lines.append("            %s[0] += %s[%s + %s] * %s[%s]" % (
                    acc, src, k, q, rng.choice(FLOAT_BUFS), q))
                self.sums.append(("%s[_] = _; for %s in _: _" % (acc, k), k, q))
                self.nests.append((k, q))
            elif r < 0.62 and not self.mixed and not self.gpu:
                callee = rng.choice(["swap2", "swap2", "bump", "dbl"] + (["part"] * 2 if self.wide else []) +
                                    (["nest"] * 2 if self.gpu_steps else []))
                # Often one buffer twice, often at one offset: aliasing.
                b1 = rng.choice(FLOAT_BUFS)
                b2 = b1 if rng.random() < 0.5 else rng.choice(FLOAT_BUFS)
                o1 = rng.randrange(4)
                o2 = o1 if rng.random() < 0.5 else rng.randrange(4)
                if callee == "swap2":
                    call = "swap2(%s[%d:%d], %s[%d:%d])" % (b1, o1, o1 + 2, b2, o2, o2 + 2)
                elif callee == "bump":
                    sc = rng.choice(["s0"] + self.scalars)
                    call = "bump(%s, %s[%d:%d])" % (sc, b1, o1, o1 + 1)
                elif callee in ("part", "nest"):
                    call = "%s(%s, %s[%d:%d])" % (callee, rng.choice(["1", "3", "4", "n", "m"]), b1, o1,
                                                  o1 + 4)
                else:
                    call = "dbl(4, %s[%d:%d])" % (b1, o1, o1 + 4)
                lines.append("    " + call)
                if callee == "bump" and rng.random() < 0.6:
                    lines.append("    y[1] = %s" % sc) # reads what bump wrote
                if rng.random() < 0.5:
                    lines.append("    " + call)
                self.calls.append(callee)
                self.top.append(callee + "(_)")
            elif r < 0.74:
                # A local buffer filled then read (reuse_buffer, sink_alloc,
                # lift_alloc, expand_dim, stage_mem find work here).
                b, i, j = self.fresh("b"), self.fresh("i"), self.fresh("i")
                ext = rng.choice(["8", "8", "n", "n + 2"])
                d = "    "
                if rng.random() < 0.4: # inside a loop: lift_alloc can work
                    o = self.fresh("i")
                    self.iters.append(o)
                    lines.append("    for %s in seq(0, 2):" % o)
                    d = "        "
                past = self.unwritten and rng.random() < 0.4 # reads b[ext], never written
                lines += [d + "%s: f32[%s]" % (b, ext + " + 2" if past else ext),
                          d + "for %s in seq(0, %s):" % (i, ext),
                          d + "    %s[%s] = %s[%s] * 2.0" % (b, i, rng.choice(FLOAT_BUFS), i)]
                if rng.random() < 0.3: # one loop: sink_alloc can work
                    lines.append(d + "    %s[%s] += %s[%s]" % (rng.choice(FLOAT_BUFS), i, b,
                                                             i + " + 1" if past else i))
                    self.iters.append(i)
                else:
                    lines += [d + "for %s in seq(0, %s):" % (j, ext),
                              d + "    %s[%s] += %s[%s]" % (rng.choice(FLOAT_BUFS), j, b,
                                                          j + " + 1" if past else j)]
                    self.iters += [i, j]
                    self.pairs.append((i, j))
                self.allocs.append((b, ext, i))
            elif r < 0.86:
                # Two loops over one range (fuse, join after cut_loop).
                lo, hi = rng.choice(BOUNDS)
                i, j = self.fresh("i"), self.fresh("i")
                b1, b2 = rng.choice(FLOAT_BUFS), rng.choice(FLOAT_BUFS)
                lines += ["    for %s in seq(%s, %s):" % (i, lo, hi),
                          "        %s[%s] = %s[%s] + 1.0" % (b1, self.index(i), b2, i),
                          "    for %s in seq(%s, %s):" % (j, lo, hi),
                          "        %s[%s] = %s[%s] * 0.5" % (b2, self.index(j), b1, self.index(j))]
                self.iters += [i, j]
                self.top += ["for %s in _: _" % i, "for %s in _: _" % j]
                self.pairs.append((i, j))
            elif r < 0.94:
                t = self.fresh("t")
                use = "    %s[1] = %s * 3.0" % (rng.choice(FLOAT_BUFS), t)
                lines += ["    %s: %s" % (t, self.scalar_type())]
                if self.unwritten and rng.random() < 0.3:
                    lines.append("    %s[3] = %s + 1.0" % (rng.choice(FLOAT_BUFS), t)) # before any write
                lines += ["    %s = %s" % (t, self.value([])), use]
                self.scalars.append(t)
            else:
                t = self.fresh("u")
                v = rng.choice(["iz[0]", "300", "100", "iz[1] + 1"])
                lines += ["    %s: i32" % t, "    %s = %s" % (t, v), "    iz[2] = %s" % t]
                self.int_scalars.append(t)
        if self.dead:
            lines = self.add_dead_allocs(lines)
        self.lines = lines
        return as_type("\n".join(lines) + "\n", self.is_int)

    def add_dead_allocs(self, lines):
        """Puts one or two allocations nothing reads between top-level
        statements (after the asserts); one in three is written once, which
        delete_buffer must refuse."""
        rng = self.rng
        first = 2 if lines[1].lstrip().startswith("assert") else 1
        tops = [k for k in range(first, len(lines) + 1)
                if k == len(lines) or not lines[k].startswith("     ")]
        for _ in range(rng.choice([1, 1, 2])):
            d = self.fresh("d")
            text = ["    %s: %s[%s]" % (d, self.scalar_type(), rng.choice(["4", "n", "n + m"]))]
            if rng.random() < 0.33:
                text.append("    %s[0] = %s" % (d, self.value([])))
            at = rng.choice(tops)
            lines = lines[:at] + text + lines[at:]
            tops = [k + len(text) if k > at else k for k in tops]
            self.dead_allocs.append(d)
        return lines

    # ---- schedules --------------------------------------------------------
    def step(self, names_made):
        rng = self.rng
        if self.dead_allocs and rng.random() < 0.08:
            return 'delete_buffer(p, "%s")' % rng.choice(self.dead_allocs)
        its = self.iters + names_made
        it = lambda: rng.choice(its)
        choices = []
        if its:
            choices += ["divide_loop"] * 4 + ["cut_loop", "shift_loop", "remove_loop", "unroll_loop",
                                              "lift_scope", "fission_loop", "add_loop"]
        if its:
            choices += ["divide_with_recompute"] * (4 if self.stencils else 1)
        if self.nests:
            choices += ["reorder_loops"] * 2 + ["mult_loops"]
        if self.stmts or self.top:
            choices += ["reorder_stmts"] * 3 + ["fission"] * 2
        if len(self.top) >= 2 and its:
            choices += ["fuse", "join_loops"]
        if self.pairs:
            choices += ["fuse_pair", "cut_join", "specialize", "add_if"]
        if self.allocs:
            choices += ["reuse_buffer", "sink_alloc", "lift_alloc", "expand_dim", "stage_mem",
                        "delete_buffer", "inline_assign_elem"]
        if self.stmts:
            choices += ["bind_expr", "commute_expr"]
        if self.sums:
            choices += ["rfactor"] * 2
        if self.scalars:
            # Narrowing an f32 that holds an i32 product to f16 may overflow
            # it (past 65504), beyond the difftest's bound for a step that
            # rounds otherwise: only where the values stay small.
            choices += ["inline_assign"] + ([] if self.mixed else ["set_precision_f"])
        if self.scalars and (self.stmts or self.top):
            choices += ["stage_scalar"]
        choices += ["simplify"]
        if self.int_scalars:
            choices += ["set_precision_i"] * 2
        if self.dims2:
            choices += ["divide_dim", "mult_dim", "rearrange_dim", "resize_dim"]
        if self.butterflies:
            choices += ["butterfly_sum"] * 2
        if self.instr_loops:
            choices += ["replace"] * 2
        if self.index_exprs:
            choices += ["rewrite_expr"]
        if self.calls:
            choices += ["call_eqv"] * 3 + ["inline"] * 2
        if self.windows:
            choices += ["inline_window"]
        if self.wide and self.allocs:
            choices += ["set_memory"]
        if self.wide and self.pairs:
            choices += ["guard_unguard"]
        if self.gpu_steps:
            choices += ["rename"] + (["pass", "loop_mode"] if its else [])
        if self.gpu:
            choices += ["bind_window"] * 2 + (["device"] * 3 + ["fence"] if its else [])
        if self.only in choices:
            choices = [self.only]
        kind = rng.choice(choices)
        if kind == "divide_loop":
            o = rng.choice([self.fresh("o"), self.fresh("o"), rng.choice(its)])
            i2 = self.fresh("e")
            names_made += [o, i2]
            tail = rng.choice(["guard", "cut", "cut_and_guard"])
            extra = ", perfect=True" if rng.random() < 0.15 else ""
            return 'divide_loop(p, "%s", %d, ["%s", "%s"], tail="%s"%s)' % (
                it(), rng.choice([2, 3, 4]), o, i2, tail, extra)
        if kind == "divide_with_recompute":
            o, i2 = self.fresh("o"), self.fresh("e")
            names_made += [o, i2]
            stride = rng.choice([1, 2, 3])
            outer = rng.choice(['1', '2', '"n / 4"', '"n / 2"', '"n - 2"', '"m / 2"'])
            loop = it()
            if self.stencils and rng.random() < 0.8:
                loop, lo, hi = rng.choice(self.stencils)
                if lo.isdigit() and hi.isdigit():
                    # Tiles that fit, mostly; now and then one too many.
                    fit = max(1, (int(hi) - int(lo)) // stride)
                    outer = str(rng.randint(1, fit + (1 if rng.random() < 0.2 else 0)))
            return 'divide_with_recompute(p, "%s", %s, %d, ["%s", "%s"])' % (
                loop, outer, stride, o, i2)
        if kind == "cut_loop":
            return 'cut_loop(p, "%s", %s)' % (it(), rng.choice(['2', '"n"', '"n - 1"', '"m"', '1']))
        if kind == "shift_loop":
            return 'shift_loop(p, "%s", %d)' % (it(), rng.choice([0, 1, 3]))
        if kind == "remove_loop":
            return 'remove_loop(p, "%s")' % it()
        if kind == "unroll_loop":
            return 'unroll_loop(p, "%s")' % it()
        if kind == "lift_scope":
            return 'lift_scope(p, "%s")' % it()
        if kind == "fission_loop":
            return 'fission(p, p.find("%s").body()[0])' % it()
        if kind == "add_loop":
            return 'add_loop(p, "%s", "%s", %s)' % (
                rng.choice(self.top or ["for _ in _: _"]), rng.choice([self.fresh("a"), it()]),
                rng.choice(["2", '"n"', '"m"']))
        if kind == "reorder_loops":
            o, i = rng.choice(self.nests)
            return 'reorder_loops(p, "%s %s")' % (o, i)
        if kind == "mult_loops":
            o, i = rng.choice(self.nests)
            return 'mult_loops(p, "%s %s", "%s")' % (o, i, self.fresh("mm"))
        if kind == "reorder_stmts":
            return 'reorder_stmts(p, "%s")' % rng.choice(self.stmts + self.top)
        if kind == "fission":
            return 'fission(p, "%s")' % rng.choice(self.stmts + self.top)
        if kind == "fuse":
            a = rng.randrange(len(self.top) - 1)
            return 'fuse(p, "%s", "%s")' % (self.top[a].replace(" in _: _", "").replace("for ", ""),
                                            self.top[a + 1].replace(" in _: _", "").replace("for ", ""))
        if kind == "join_loops":
            i = it()
            return 'join_loops(p, "%s", "%s #2")' % (i, i)
        if kind == "fuse_pair":
            i, j = rng.choice(self.pairs)
            return 'fuse(p, "%s", "%s")' % (i, j)
        if kind == "cut_join":
            i, j = rng.choice(self.pairs)
            return ['cut_loop(p, "%s", %s)' % (i, rng.choice(['2', '"n"', '"n - 1"', '"m"', '"n-1"',
                                                              '"n/2"', '"(n + m) / 2"'])),
                    'join_loops(p, "%s", "%s #2")' % (i, i)]
        if kind == "specialize":
            i, j = rng.choice(self.pairs)
            return 'specialize(p, "for %s in _: _", ["%s"])' % (
                rng.choice([i, j]), rng.choice(["n % 4 == 0", "n < 8", "m <= n", "n >= 9"]))
        if kind == "add_if":
            i, j = rng.choice(self.pairs)
            return 'add_if(p, "for %s in _: _", "%s")' % (
                rng.choice([i, j]), rng.choice(["n >= 1", "m >= 1", "n >= 2", "n + m >= 2"]))
        if kind in ("reuse_buffer", "sink_alloc", "lift_alloc", "expand_dim", "stage_mem",
                    "delete_buffer"):
            b, ext, first = rng.choice(self.allocs)
            if kind == "reuse_buffer":
                later = [a for a in self.allocs if a[1] == ext and a[0] != b] or self.allocs
                return 'reuse_buffer(p, "%s", "%s")' % (b, rng.choice(later)[0])
            if kind == "sink_alloc":
                return 'sink_alloc(p, "%s")' % b
            if kind == "lift_alloc":
                return 'lift_alloc(p, "%s")' % b
            if kind == "delete_buffer":
                return 'delete_buffer(p, "%s")' % b
            if kind == "expand_dim":
                return 'expand_dim(p, "%s", %s, %s)' % (b, rng.choice(['2', '"n"']), rng.choice(['0', '1']))
            return 'stage_mem(p, "for %s in _: _", "%s[0:%s]", "%s")' % (
                first, b, rng.choice([ext, ext, "4"]), self.fresh("st"))
        if kind == "bind_expr":
            return 'bind_expr(p, "%s[_] * 2.0", "%s"%s)' % (
                rng.choice(FLOAT_BUFS), self.fresh("be"), rng.choice(["", ", cse=True"]))
        if kind == "inline_assign_elem":
            return 'inline_assign(p, "%s[_] = _")' % rng.choice(self.allocs)[0]
        if kind == "stage_scalar":
            return 'stage_mem(p, "%s", "%s", "%s"%s)' % (
                rng.choice(self.stmts + self.top), rng.choice(self.scalars), self.fresh("ss"),
                rng.choice(["", ", accum=True"]))
        if kind == "simplify":
            return "simplify(p)"
        if kind == "commute_expr":
            return 'commute_expr(p, "%s[_] * 2.0")' % rng.choice(FLOAT_BUFS)
        if kind == "rfactor":
            pat, k, q = rng.choice(self.sums)
            return 'rfactor(p, "%s", ["%s"], "%s")' % (pat, rng.choice([q, k]), self.fresh("part"))
        if kind == "inline_assign":
            return 'inline_assign(p, "%s = _")' % rng.choice(self.scalars)
        if kind == "set_precision_f":
            return 'set_precision(p, "%s", "%s")' % (rng.choice(self.scalars), rng.choice(["f64", "f16"]))
        if kind == "set_precision_i":
            return 'set_precision(p, "%s", "%s")' % (rng.choice(self.int_scalars),
                                                    rng.choice(["i8", "u8", "u16", "i32"]))
        if kind in ("divide_dim", "mult_dim", "rearrange_dim", "resize_dim"):
            b, ext = rng.choice(self.dims2)
            # Mostly steps that hold (dimension 1 has extent 4), sometimes not.
            if kind == "divide_dim":
                dim = rng.choice([0, 1, 1])
                return 'divide_dim(p, "%s", %d, %d)' % (b, dim, rng.choice([2, 4, 2, 3]))
            if kind == "mult_dim":
                return 'mult_dim(p, "%s", %s)' % (b, rng.choice(["0, 1", "0, 1", "1, 0"]))
            if kind == "rearrange_dim":
                return 'rearrange_dim(p, "%s", [1, 0])' % b
            dim = rng.choice([0, 1])
            size, off = rng.choice([(ext if dim == 0 else "4", "0")] * 2 + [("3", "1"), (ext, "1")])
            return 'resize_dim(p, "%s", %d, "%s", "%s")' % (b, dim, size, off)
        if kind == "butterfly_sum":
            return 'butterfly_sum(p, "%s", "%s")' % (rng.choice(self.butterflies), self.fresh("bf"))
        if kind == "replace":
            return 'replace(p, "for %s in _: _", %s)' % (rng.choice(self.instr_loops),
                                                         "gadd2" if self.gpu else "add2")
        if kind == "rewrite_expr":
            i, off = rng.choice(self.index_exprs)
            new = rng.choice(["%d + %s" % (off, i), "%s + %d - 1" % (i, off + 1),
                              "(%s + %d) / 2 * 2 + (%s + %d) %% 2" % (i, off, i, off),
                              "%s + %d" % (i, off + 1)]) # the last one differs: refused
            return 'rewrite_expr(p, "%s + %d", "%s")' % (i, off, new)
        if kind == "call_eqv":
            c = rng.choice(self.calls)
            return 'call_eqv(p, "%s(_)", %ss)' % (c, c)
        if kind == "inline":
            return 'inline(p, "%s(_)")' % rng.choice(self.calls)
        if kind == "inline_window":
            return 'inline_window(p, "%s = _")' % rng.choice(self.windows)
        if kind == "set_memory":
            # Places the elements only; a barrier mechanism is refused.
            return 'set_memory(p, "%s", %s)' % (
                rng.choice(self.allocs)[0], rng.choice(["DRAM", "CudaRmem", "DRAM", "CudaMbarrier"]))
        if kind == "guard_unguard":
            # A guard add_if proved harmless, then taken out unchecked: the
            # pair must keep the meaning (a mismatch is a bug in either).
            i, j = rng.choice(self.pairs)
            cond = rng.choice(["n >= 1", "m >= 1", "n >= 2", "n + m >= 2", "m <= n"])
            return ['add_if(p, "for %s in _: _", "%s")' % (rng.choice([i, j]), cond),
                    'unsafe_remove_if(p, "if %s: _")' % cond]
        if kind == "rename":
            return 'rename(p, "%s")' % self.fresh(self.name + "_r")
        if kind == "pass":
            ins = 'insert_pass(p, p.find("%s").%s())' % (it(), rng.choice(["before", "after"]))
            return [ins, "delete_pass(p)"] if rng.random() < 0.7 else ins
        if kind == "loop_mode":
            return 'set_loop_mode(p, "%s", %s)' % (it(), rng.choice(["seq", "seq(unroll=2)",
                                                                    "seq(unroll=4)"]))
        if kind == "device":
            return self.device_steps(it)
        if kind == "bind_window":
            # `a` is only read; `x` is written (refused: a tensor map is read-only);
            # a box of another rank is refused too.
            return 'bind_window(p, "%s", "%s", Sm90_tensorMap(%s))' % (
                rng.choice(["a", "a", "a", "x"]), self.fresh("map"),
                rng.choice(["0, 32", "0, 16", "0, 64", "128, 32", "0, 8, 4"]))
        if kind == "fence":
            # In device code only (a step that made a kernel comes first).
            return 'insert_fence(p, p.find("%s").%s(), %s, %s)' % (
                it(), rng.choice(["before", "after"]), rng.choice(TIMELINES), rng.choice(TIMELINES))
        raise AssertionError(kind)

    def device_steps(self, it):
        """A top-level loop made a kernel's task loop, then what GPU
        schedules put in one: thread loops, barriers with Arrive and Await, a
        replaced loop completing on a barrier, fences, warp roles. None of it
        changes the sequential meaning; the chain is cut at a refused step."""
        rng = self.rng
        loops = [t.split()[1] for t in self.top if t.startswith("for ")] or [it()]
        i = rng.choice(loops)
        # Half the time the kernel holds a loop an instr can replace, which
        # then completes on the barrier.
        instr = rng.choice(self.instr_tops) if self.instr_tops and rng.random() < 0.5 else None
        if instr:
            i = instr[0]
        steps = ['wrap_with_context(p, "for %s in _: _", CudaDeviceFunction(blockDim=%d))' % (
            i, rng.choice([32, 64, 128, 256]))]
        if rng.random() < 0.8:
            steps.append('set_loop_mode(p, "%s", cuda_tasks)' % i)
        inner = [b for a, b in self.nests if a == i]
        if inner and rng.random() < 0.5:
            steps.append('set_loop_mode(p, "%s", %s)' % (inner[0], rng.choice(
                ["cuda_threads(unit=cuda_thread)", "cuda_threads(unit=cuda_warp)", "seq(unroll=2)"])))
        body = 'p.find("%s").body()[0]' % i
        r = rng.random()
        if r < 0.5 or instr:
            bar = self.fresh("bar")
            ring = rng.random() < (0.2 if instr else 0.5)
            decl = ("%s: barrier[n @ ring(2)] @ CudaMbarrier" if ring else
                    "%s: barrier @ CudaMbarrier") % bar
            ref = "%s[%s]" % (bar, i) if ring else bar
            steps += ['insert_barrier_alloc(p, p.find("%s").before(), "%s")' % (i, decl),
                      'insert_arrive(p, %s.after(), %s, "%s")' % (body, rng.choice(TIMELINES), ref),
                      'insert_await(p, %s.before(), "%s", %s, %d)' % (
                          body, ref, rng.choice(TIMELINES), rng.choice([0, 0, 1]))]
            if instr:
                steps += ['replace(p, "for %s in _: _", gadd2)' % instr[1],
                          'set_trailing_barrier_expr(p, p.find("gadd2(_)"), "%s")' % ref]
        elif r < 0.75:
            steps.append('insert_fence(p, %s.%s(), %s, %s)' % (
                body, rng.choice(["before", "after"]), rng.choice(TIMELINES), rng.choice(TIMELINES)))
        else:
            steps.append('wrap_with_context(p, %s, CudaWarps(0, 1))' % body)
        return steps

    def schedules(self, count, max_steps):
        out = []
        for s in range(count):
            made = []
            steps = []
            for _ in range(self.rng.randint(1, max_steps)):
                st = self.step(made)
                steps += st if isinstance(st, list) else [st]
            out.append(("%s_s%d" % (self.name, s), [as_type(st, self.is_int) for st in steps]))
        return out


def batch(seed, procs, schedules, max_steps, only=None, mixed=None, unwritten=False, wide=False,
          gpu=False, dead=False):
    """One module: (text, {schedule name: [step lines]}). With `only`, the
    steps use that primitive wherever a proc gives it something to work on;
    with `unwritten`, procs read memory before anything wrote it; with
    `wide`, also every shape and primitive added in issue 27; with `gpu`,
    also procs of device memory and the GPU steps; with `dead`, also
    allocations nothing reads (delete_buffer's work)."""
    rng = random.Random(seed)
    parts = [PRELUDE + as_type(PRELUDE, True)]
    if gpu:
        parts[0] += PRELUDE_GPU + as_type(PRELUDE_GPU, True)
    scheds = {}
    for k in range(procs):
        g = ProcGen(rng, "h%d" % k, only, mixed, unwritten, wide, gpu, dead)
        parts.append(g.generate())
        for name, steps in g.schedules(schedules, max_steps):
            scheds[name] = (g.name, steps)
    return parts, scheds


def render(parts, scheds):
    """The module text; also the line of each step: {(schedule, i): line}."""
    text = "\n".join(parts) + "\n"
    lines = text.count("\n") + 1
    out = [text]
    where = {}
    for name, (proc, steps) in scheds.items():
        if not steps:
            continue
        out.append("schedule %s from %s:\n" % (name, proc))
        lines += 1
        for i, st in enumerate(steps):
            out.append("    p = %s\n" % st)
            where[lines] = (name, i)
            lines += 1
        out.append("\n")
        lines += 1
    return "".join(out), where
