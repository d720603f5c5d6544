# gen_import_graph.py DIR N [--cycle]: modules m0..m{N-1}, each importing the
# next; the even ones also import `leaf`; main imports m0. With --cycle the
# last one imports m0 as well.
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
cycle = "--cycle" in sys.argv
for i in range(n):
    imports = []
    if i + 1 < n:
        imports.append("import m%d" % (i + 1))
        if i % 2 == 0:
            imports.append("import leaf")
    elif cycle:
        imports.append("import m0")
    text = "".join(l + "\n" for l in imports)
    text += "\nproc p%d(x: f32[4]):\n    x[0] = %d.0\n" % (i, i % 7)
    open(os.path.join(out, "m%d.exg" % i), "w").write(text)
open(os.path.join(out, "leaf.exg"), "w").write("proc leaf(x: f32[4]):\n    x[1] = 0.0\n")
open(os.path.join(out, "main.exg"), "w").write(
    "import m0\n\nproc main(x: f32[4]):\n    p0(x)\n    x[2] = 1.0\n")
