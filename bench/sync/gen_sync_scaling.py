#!/usr/bin/env python3
"""Writes the sync programs that measure how the sync checker scales.

  gen_sync_scaling.py tasks M      GEMV-shaped: y[M] = A[M, K] x, one task of 32
                                   threads per 4 rows (M/4 tasks), each staging
                                   its rows in shared memory behind an mbarrier;
                                   task replay runs one and copies the rest
                                   (x is left out: a tensor every task reads
                                   is not untouched, which replay requires)
  gen_sync_scaling.py barriers N   one task walking an N-element mbarrier array
                                   and an N-element commit-group array: a
                                   producer fills slot k and arrives on raw[k],
                                   the consumer awaits it, reads, commits to
                                   cg[k] and retires cg[k-1]

The program goes to stdout; check it with `exg-sync --stats` (bench/README.md).
"""
import sys

K = 64


def tasks(m):
    n = m // 4
    return f"""# GEMV, M = {m}: {n} tasks of 32 threads (bench/sync/gen_sync_scaling.py)
data A[{m}, {K}]
data y[{m}]
device [1, 32] {{
  tasks t in 0..{n} {{
    data a_smem[4, {K}]
    barrier full[1] mbarrier
    threads p in 0..1 dim=1 width=32 {{
      read A[4 * t:4 * t + 4, :] q=tmaS ext={{tmaS,async}} @ gemv.exg:1:1
      write a_smem[:, :] q=tmaS ext={{tmaS,async}} ooo >> full[0] @ gemv.exg:1:1
      arrive cuda_temporal >> full[0] @ gemv.exg:1:1
    }}
    await full[0] -> cuda_generic_and_async_proxy 0 @ gemv.exg:2:1
    threads r in 0..4 dim=1 width=8 {{
      read a_smem[r, :] q=cuda1 @ gemv.exg:3:1
      write y[4 * t + r] q=cuda1 @ gemv.exg:4:1
    }}
    fence cuda_in_order -> cuda_in_order @ gemv.exg:5:1
    free full
    free a_smem check={{cuda1}} @ gemv.exg:6:1
  }}
}}
join
fence cuda_stream_sync -> cuda_stream_sync
"""


def barriers(n):
    return f"""# {n}-element mbarrier and commit-group arrays (bench/sync/gen_sync_scaling.py)
device [1, 64] {{
  data buf[{n}, 8]
  data acc[8]
  barrier raw[{n}] mbarrier
  barrier cg[{n}] commit_group
  threads c in 0..1 dim=1 width=32 offset=32 {{
    write acc[:] q=cuda1 conv @ bars.exg:1:1
  }}
  seq k in 0..{n} {{
    threads p in 0..1 dim=1 width=32 {{
      write buf[k, :] q=tmaS ext={{tmaS,async}} ooo >> raw[k] @ bars.exg:2:1
      arrive cuda_temporal >> raw[k] @ bars.exg:2:1
    }}
    threads c in 0..1 dim=1 width=32 offset=32 {{
      await raw[k] -> cuda_generic_and_async_proxy 0 @ bars.exg:3:1
      fence wgmma_fence_1 -> wgmma_fence_2 @ bars.exg:4:1
      update acc[:] q=wgD ext={{wgD,wg0}} conv @ bars.exg:5:1
      read buf[k, :] q=wgS ext={{wgS,async}} ooo @ bars.exg:5:1
      arrive wgmma_async >> cg[k] @ bars.exg:6:1
      if k >= 1 {{
        await cg[k - 1] -> cuda_in_order 0 @ bars.exg:7:1
      }}
    }}
  }}
  threads c in 0..1 dim=1 width=32 offset=32 {{
    await cg[{n} - 1] -> cuda_in_order 0 @ bars.exg:8:1
    read acc[:] q=cuda1 conv @ bars.exg:9:1
  }}
  fence cuda_in_order -> cuda_in_order @ bars.exg:10:1
  free raw
  free cg
  free buf check={{cuda1}} @ bars.exg:11:1
  free acc
}}
join
fence cuda_stream_sync -> cuda_stream_sync
"""


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tasks", "barriers"):
        sys.exit("usage: gen_sync_scaling.py tasks M | barriers N")
    size = int(sys.argv[2])
    sys.stdout.write(tasks(size) if sys.argv[1] == "tasks" else barriers(size))


if __name__ == "__main__":
    main()
