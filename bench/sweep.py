#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs `dxtext bench` over synthetic models of every size in the
performance table (docs/performance.md) and prints the tables as markdown.

    bench/sweep.py [--dxtext build/bin/dxtext] [--cache DIR] [--seconds S]
                   [--vocab 10000,100000,1000000] [--dim 100,300]
                   [--quant f32,int8] [--json OUT.jsonl] [--from SAVED.jsonl]

Models are made once with `dxtext synth` into --cache (default
build/bench-models) and reused. Every figure comes from one `dxtext bench`
run per model, which measures the machine's limits and the baselines in the
same run.
"""

import argparse
import json
import os
import subprocess
import sys


def fmt(x, digits=3):
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dxtext", default=os.path.join(root, "build", "bin", "dxtext"))
    p.add_argument("--cache", default=os.path.join(root, "build", "bench-models"))
    p.add_argument("--seconds", default="1")
    p.add_argument("--vocab", default="10000,100000,1000000")
    p.add_argument("--dim", default="100,300")
    p.add_argument("--quant", default="f32,int8")
    p.add_argument("--batch", default="64")
    p.add_argument("--threads", default="2")
    p.add_argument("--json", help="also write each bench result as a JSON line here")
    p.add_argument("--from", dest="source", help="print the tables of results saved with --json, running nothing")
    args = p.parse_args()

    results = []
    if args.source:
        with open(args.source) as f:
            results = [json.loads(line) for line in f if line.strip()]
    else:
        os.makedirs(args.cache, exist_ok=True)
    for v in [] if args.source else [int(x) for x in args.vocab.split(",")]:
        for d in [int(x) for x in args.dim.split(",")]:
            for q in args.quant.split(","):
                model = os.path.join(args.cache, f"synth-{v}x{d}-{q}.dxe")
                if not os.path.exists(model):
                    subprocess.run([args.dxtext, "synth", "--vocab", str(v), "--dim", str(d), "--quant", q,
                                    model], check=True)
                print(f"bench {v} x {d} {q} ...", file=sys.stderr, flush=True)
                out = subprocess.run([args.dxtext, "bench", "--model", model, "--seconds", args.seconds,
                                      "--batch", args.batch, "--threads", args.threads],
                                     check=True, capture_output=True, text=True).stdout
                r = json.loads(out)
                results.append(r)
                if args.json:
                    with open(args.json, "a") as f:
                        f.write(json.dumps(r) + "\n")

    print("| V | D | quant | kernel | single words/s | p50 ms | p99 ms | batch words/s | batch × single | "
          "scan GB/s | scan ÷ stream time | batch GMAC/s | ÷ peak | 2 threads × | open µs | RSS +open KiB | "
          "of it in 4 KiB pages |")
    print("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        m, s, b, sc, ra = r["model"], r["single"], r["batch"], r.get("scan", {}), r["ratios"]
        print(f"| {int(m['vocabulary_size']):,} | {int(m['dimension'])} | {m['quantization']} | {r['kernel']} | "
              f"{fmt(s['words_per_s'])} | {fmt(s['latency_ms_p50'])} | {fmt(s['latency_ms_p99'])} | "
              f"{fmt(b['words_per_s'])} | {fmt(ra['batch_speedup_per_word'])} | {fmt(sc.get('single_gb_per_s'))} | "
              f"{fmt(ra['scan_single_over_stream_time'])} | {fmt(sc.get('batch_gmac_per_s'))} | "
              f"{fmt(ra['scan_batch_over_peak_macs'])} | {fmt(ra['threads_speedup'])} | "
              f"{fmt(r['open_us']['median'])} | {ra['rss_growth_from_open_kib']:.0f} | "
              f"{fmt(ra.get('rss_growth_from_open_in_4kib_pages_kib'))} |")
    print()
    print("| V | D | quant | memory GB/s (1 thread) | peak GMAC/s (f32) | naive C++ words/s | numpy words/s | "
          "numpy batched words/s | single ÷ naive | single ÷ numpy | batch ÷ numpy | batch ÷ numpy batched |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        m, mc, bl, ra = r["model"], r["machine"], r["baselines"], r["ratios"]
        numpy = bl.get("numpy") or {}
        print(f"| {int(m['vocabulary_size']):,} | {int(m['dimension'])} | {m['quantization']} | "
              f"{fmt(mc['memory_read_gb_per_s'])} | {fmt(mc['peak_gmac_per_s'])} | "
              f"{fmt(bl.get('naive_cpp_words_per_s'))} | {fmt(numpy.get('words_per_s'))} | "
              f"{fmt(numpy.get('batch_words_per_s'))} | {fmt(ra['single_over_naive_cpp'])} | "
              f"{fmt(ra['single_over_numpy'])} | {fmt(ra['batch_over_numpy'])} | {fmt(ra['batch_over_numpy_batch'])} |")


if __name__ == "__main__":
    main()
