# reorder_two_loops.py N: a proc of two loops of N statements each that read
# and write the same two buffers, and a schedule that swaps the loops:
# reorder_stmts then asks the solver about every pair of accesses (4 N^2 questions).
import sys

n = int(sys.argv[1])
rows = 4 * n + 8
out = ["proc big(n: size, x: f32[%d, n], y: f32[%d, n]):" % (rows, rows), "    assert n >= 8",
       "    for i in seq(0, n / 2):"]
for k in range(n):
    out.append("        x[2 * %d + i %% 2, 2 * i] = y[2 * %d + 1, 2 * i + 1] * x[2 * %d, i]"
               " + y[%d + 3, n - 1 - 2 * i]" % (k, k, k, k))
out.append("    for j in seq(0, n / 2):")
for k in range(n):
    out.append("        y[2 * %d + %d + j %% 2, 2 * j] = x[2 * %d + %d, 2 * j + 1]"
               " + y[2 * %d + %d, j] + x[%d + %d, j]" % (k, 2 * n + 2, k, 2 * n + 3, k, 2 * n + 2, k,
                                                        2 * n + 10))
out += ["", "schedule s from big:", '    p = reorder_stmts(big, "for i in _: _")']
print("\n".join(out))
