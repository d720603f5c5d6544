#!/usr/bin/env python3
"""sdpa.py - PyTorch's scaled_dot_product_attention at the harness's attention shapes.

    python3 bench/gpu/sdpa.py BENCH_JSON [--json=OUT] [--samples=N] [--warmup=N]

Reads the attention rows the harness wrote (bench.json: BH, Sq, Sk, head dim, causal, type)
and times torch.nn.functional.scaled_dot_product_attention at each of those shapes, once
per backend that PyTorch offers there (FlashAttention, cuDNN, memory-efficient), so that one
GPU run gives the figures to set beside the exgc kernels. Timing follows the harness: an L2
flush (4x the L2 size) before each sample, CUDA events around exactly one call, the median
of the samples; FLOPs are the harness's (4 D per attended query-key pair, bottom-right
causal). Every backend's output is checked against attention in float64 at sampled query
rows with the harness's Frobenius limit (2^-8 relative): a backend that fails is reported
FAIL and makes the exit status 1.

Exit codes: 0 done and every check passed; 1 a check failed; 3 no PyTorch or no GPU here
(nothing was timed; run.sh reports it as NOT RUN); 2 bad usage or an unreadable file.
"""
import argparse
import json
import math
import statistics
import sys

PEAK_TFLOPS = 989.0  # the H100's dense BF16/FP16 peak, as the harness's "vs ref"
REL_LIMIT = 2.0 ** -8
SAMPLED_ROWS = 64


def attended_keys(i, sq, sk, causal):
    if not causal:
        return sk
    return max(0, min(sk, i + sk - sq + 1))


def attention_flops(bh, sq, sk, d, causal):
    if not causal:
        return 4.0 * d * bh * sq * sk
    return 4.0 * d * bh * sum(attended_keys(i, sq, sk, True) for i in range(sq))


def harness_shapes(path):
    """The distinct (elem, BH, Sq, Sk, D, causal, set) of the exgc attention rows."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    seen = []
    for r in rows:
        if r.get("op") != "attn" or not r.get("exgc"):
            continue
        key = (r["elem"], r["BH"], r["M"], r["N"], r["K"], r["causal"], r["set"])
        if key not in seen:
            seen.append(key)
    return seen


def backends(torch):
    """(name, context manager factory) for each SDPA backend this PyTorch can force."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:  # PyTorch before 2.3: let it choose
        import contextlib
        return [("SDPA (default)", contextlib.nullcontext)]
    out = []
    for name, b in (("SDPA flash", "FLASH_ATTENTION"), ("SDPA cuDNN", "CUDNN_ATTENTION"),
                    ("SDPA mem-efficient", "EFFICIENT_ATTENTION")):
        if hasattr(SDPBackend, b):
            out.append((name, lambda b=getattr(SDPBackend, b): sdpa_kernel(b)))
    return out


def causal_mask(torch, sq, sk):
    """Bottom-right aligned, as the harness and FlashAttention (is_causal is top-left)."""
    if sq == sk:
        return None, True
    try:
        from torch.nn.attention.bias import causal_lower_right
        return causal_lower_right(sq, sk), False
    except ImportError:
        i = torch.arange(sq, device="cuda")[:, None]
        j = torch.arange(sk, device="cuda")[None, :]
        return j <= i + (sk - sq), False


def reference_rows(torch, q, k, v, rows, causal):
    """Attention in float64 for the query rows `rows` of every (batch, head) pair."""
    d = q.shape[-1]
    sq, sk = q.shape[-2], k.shape[-2]
    qs = q[:, :, rows, :].double()
    s = qs @ k.double().transpose(-1, -2) / math.sqrt(d)
    if causal:
        keys = torch.tensor([attended_keys(int(i), sq, sk, True) for i in rows], device="cuda")
        s = s.masked_fill(torch.arange(sk, device="cuda")[None, :] >= keys[:, None], -math.inf)
    return torch.softmax(s, dim=-1) @ v.double()


def time_calls(torch, fn, flush, warmup, samples):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(warmup):
        fn()
    ms = []
    for i in range(samples):
        flush.fill_(i & 0xFF)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        ms.append(start.elapsed_time(stop))
    return ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench_json")
    ap.add_argument("--json", default="")
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    try:
        shapes = harness_shapes(args.bench_json)
    except (OSError, ValueError, KeyError) as e:
        print(f"sdpa.py: cannot read the harness's attention rows from {args.bench_json}: {e}")
        return 2
    try:
        import torch
    except ImportError:
        print("sdpa.py: NOT RUN (no PyTorch here)")
        return 3
    if not torch.cuda.is_available():
        print("sdpa.py: NOT RUN (PyTorch finds no GPU)")
        return 3
    F = torch.nn.functional
    dtypes = {"bf16": torch.bfloat16, "f16": torch.float16}
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(max(4 * getattr(props, "L2_cache_size", 50 << 20), 64 << 20),
                        dtype=torch.uint8, device="cuda")
    print(f"sdpa.py: PyTorch {torch.__version__} on {props.name}; {len(shapes)} shape(s), "
          f"{args.samples} samples each, L2 flushed before each")
    print(f"{'type':5} {'shape':27} {'contender':20} {'check':5} {'rel.err':>9} "
          f"{'median ms':>10} {'rate':>9} {'vs peak':>8}")
    results, failed = [], 0
    gen = torch.Generator(device="cuda").manual_seed(7)
    for elem, bh, sq, sk, d, causal, set_name in shapes:
        dt = dtypes.get(elem)
        if dt is None:
            continue
        q = torch.randn(1, bh, sq, d, device="cuda", dtype=dt, generator=gen)
        k = torch.randn(1, bh, sk, d, device="cuda", dtype=dt, generator=gen)
        v = torch.randn(1, bh, sk, d, device="cuda", dtype=dt, generator=gen)
        mask, is_causal = causal_mask(torch, sq, sk) if causal else (None, False)
        step = max(1, sq // SAMPLED_ROWS)
        rows = torch.arange(0, sq, step, device="cuda")
        ref = reference_rows(torch, q, k, v, rows, causal)
        flops = attention_flops(bh, sq, sk, d, causal)
        shape = f"{bh}x{sq}x{sk}x{d}{' causal' if causal else ''}"
        for name, ctx in backends(torch):
            def call():
                return F.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                      is_causal=is_causal)
            row = {"op": "attn", "elem": elem, "set": set_name, "BH": bh, "M": sq, "N": sk,
                   "K": d, "causal": causal, "contender": name, "exgc": False}
            try:
                with ctx():
                    out = call()
                    torch.cuda.synchronize()
                    got = out[:, :, rows, :].double()
                    rel = float(torch.linalg.norm(got - ref) / torch.linalg.norm(ref))
                    ms = time_calls(torch, call, flush, args.warmup, args.samples)
            except RuntimeError as e:  # this backend does not take this shape or GPU
                reason = str(e).strip().splitlines()[0][:100] if str(e).strip() else "refused"
                print(f"{elem:5} {shape:27} {name:20} {'-':5} {'':>9} {'not run: ' + reason}")
                row["not_run"] = reason
                results.append(row)
                continue
            ok = rel <= REL_LIMIT
            failed += not ok
            med = statistics.median(ms)
            rate = flops / (med * 1e9)
            row.update({"check": {"passed": ok, "rel_err": rel, "rel_limit": REL_LIMIT,
                                  "rows_checked": int(rows.numel()) * bh},
                        "time_ms": {"samples": len(ms), "median": med, "min": min(ms),
                                    "max": max(ms)},
                        "rate": rate, "rate_unit": "TFLOP/s", "vs_ref": rate / PEAK_TFLOPS})
            results.append(row)
            print(f"{elem:5} {shape:27} {name:20} {'pass' if ok else 'FAIL':5} {rel:9.2e} "
                  f"{med:10.4f} {rate:8.1f}TF {100 * rate / PEAK_TFLOPS:7.1f}%")
        del q, k, v, ref
        torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": {"torch": torch.__version__, "device": props.name,
                                "samples": args.samples, "peak_tflops": PEAK_TFLOPS},
                       "rows": results}, f, indent=1)
    print(f"sdpa.py: {failed} check(s) failed" if failed else "sdpa.py: every check passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
