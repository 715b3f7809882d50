#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Records per second of dxtext.dask.privatize_jsonl with 1 and 2 worker
processes, next to `dxtext privatize --jsonl` (1 and 2 threads) and a plain
Python loop on the same synthetic corpus (docs/performance.md, "Dask").

    /usr/bin/python3 bench/dask_throughput.py --cli build/bin/dxtext          # 1,000,000 records
    /usr/bin/python3 bench/dask_throughput.py --records 100000 --repeats 3

The corpus: JSON lines {"id", "user", "time", "text", "score"}, the text
2 to 9 words (mean 5.5) drawn from the model's 5,000 first words with
Zipf-like weights, capitalised, with a full stop; reproducible (--seed).
Each configuration is timed end to end (read, privatise, write), the
cluster already started and the model already open on its workers; the
configurations take turns in every repeat, so that they see the same load,
and the load average (1 minute) is printed with each figure. Each Dask run
checks that its partitions were privatised by the cluster's workers (their
share of the CPU time), so a run that fell back to local threads fails
instead of being reported as a cluster figure. With --workdir, a corpus
already there with --records lines and the same --seed is reused.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bindings" / "python" / "src"))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (sys.path[0], os.environ.get("PYTHONPATH")) if p)

import dxtext  # noqa: E402


def default_model() -> str:
    found = sorted(glob.glob(str(REPO / "models" / "dxtext-en-euclid-*.dxe")))
    if not found:
        sys.exit("no models/dxtext-en-euclid-*.dxe: pass --model")
    return found[-1]


def write_corpus(path: Path, model_path: str, records: int, seed: int) -> None:
    marker = path.with_suffix(".seed")
    if path.exists() and marker.exists() and marker.read_text() == f"{model_path} {records} {seed}\n":
        return  # the same corpus, written before (--workdir)
    rng = random.Random(seed)
    with dxtext.Model.open(model_path) as model:
        vocabulary = [model.word(i) for i in range(min(5000, len(model)))]
    weights = [1.0 / (rank + 10) for rank in range(len(vocabulary))]
    with open(path, "w", encoding="utf-8") as f:
        for i in range(records):
            words = rng.choices(vocabulary, weights, k=rng.randint(2, 9))
            text = " ".join(words).capitalize() + "."
            record = {"id": i, "user": f"u{rng.randrange(10**6):06d}", "time": 1.7e9 + i, "text": text,
                      "score": round(rng.random(), 3)}
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    marker.write_text(f"{model_path} {records} {seed}\n")


def python_loop(corpus: Path, out: Path, model_path: str, epsilon: float) -> int:
    """One process, no Dask: what the binding alone costs per record."""
    from dxtext.dask.jsonl_line import find_string_member, replace_member

    n = 0
    with dxtext.Model.open(model_path) as model, open(corpus, encoding="utf-8") as f, open(
        out, "w", encoding="utf-8"
    ) as g:
        for line in f:
            body = line.rstrip("\n")
            begin, end, text = find_string_member(body, "text")
            g.write(replace_member(body, begin, end, model.privatize(text, epsilon=epsilon)) + "\n")
            n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--model", default=None, help="default: the newest models/dxtext-en-euclid-*.dxe")
    parser.add_argument("--epsilon", type=float, default=20)
    parser.add_argument("--blocksize", default="auto",
                        help="the partition size of privatize_jsonl (auto: 1/128 of the corpus, at least 64 KiB: "
                             "equal shares for 2 workers, and a short tail when the last partitions finish)")
    parser.add_argument("--cli", default=str(REPO / "build" / "bin" / "dxtext"), help="the dxtext program ('' to skip)")
    parser.add_argument("--cli-threads", default="1,2", help="the --threads of the dxtext runs (comma-separated)")
    parser.add_argument("--no-python-loop", action="store_true", help="skip the plain Python loop")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default=None, help="where the corpus and outputs go (default: a temporary directory)")
    parser.add_argument("--out", default=None, help="also write the results as JSON here")
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    import dxtext.dask as dxd

    model_path = args.model or default_model()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="dxtext-dask-bench."))
    work.mkdir(parents=True, exist_ok=True)
    corpus = work / "corpus.jsonl"
    started = time.perf_counter()
    write_corpus(corpus, model_path, args.records, args.seed)
    print(f"corpus: {args.records} records, {corpus.stat().st_size / 1e6:.1f} MB, "
          f"{time.perf_counter() - started:.1f} s to write; model {os.path.basename(model_path)}", flush=True)
    source = dxd.ModelSource.local(model_path)
    if args.blocksize == "auto":
        blocksize: Any = max(64 * 1024, -(-corpus.stat().st_size // 128))
    else:
        blocksize = args.blocksize

    # Each Dask run gets a cluster of its own, started (and the model opened
    # on its workers) before the clock starts and closed after it stops, so
    # that no idle cluster takes CPU from the one measured. The workers'
    # statistical profiler (a stack sample every 10 ms, distributed's
    # default) is off: it costs CPU and measures nothing this benchmark
    # needs.
    dask_config = {"distributed.worker.profile.enabled": False}
    cpu_split: Dict[str, List[Tuple[float, float]]] = {}

    def dask_run(workers: int) -> Callable[[Path], Tuple[int, float, float]]:
        def run(out: Path) -> Tuple[int, float, float]:
            import dask

            with dask.config.set(dask_config):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
                client = Client(cluster, set_as_default=False)
                try:
                    client.wait_for_workers(workers, timeout=120)
                    client.run(lambda: source.open().path)  # the model is open before the clock starts
                    workers_before = sum(client.run(time.process_time).values())
                    own_before = time.process_time()  # the client and LocalCluster's scheduler are this process
                    clock = time.perf_counter()
                    with client.as_current():
                        summary = dxd.privatize_jsonl(str(corpus), out, model=source, epsilon=args.epsilon,
                                                      blocksize=blocksize, resume=False)
                    seconds = time.perf_counter() - clock
                    worker_cpu = sum(client.run(time.process_time).values()) - workers_before
                    own_cpu = time.process_time() - own_before
                finally:
                    client.close()
                    cluster.close()
            if worker_cpu < 0.5 * (worker_cpu + own_cpu):
                sys.exit(f"dask-{workers}: the workers used {worker_cpu:.1f} s of {worker_cpu + own_cpu:.1f} s CPU: "
                         "the partitions were not privatised on the cluster")
            cpu_split.setdefault(f"dask-{workers}", []).append((worker_cpu, own_cpu))
            return int(summary["records"]), worker_cpu + own_cpu, seconds

        return run

    def cli_run(threads: int) -> Callable[[Path], Tuple[int, float, float]]:
        def run(out: Path) -> Tuple[int, float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            clock = time.perf_counter()
            with open(corpus, "rb") as f, open(out, "wb") as g:
                subprocess.run([args.cli, "privatize", "--jsonl", "--threads", str(threads), "--model", model_path,
                                "--epsilon", str(args.epsilon)], stdin=f, stdout=g, check=True)
            seconds = time.perf_counter() - clock
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return args.records, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, seconds

        return run

    def python_run(out: Path) -> Tuple[int, float, float]:
        before = time.process_time()
        clock = time.perf_counter()
        n = python_loop(corpus, out, model_path, args.epsilon)
        return n, time.process_time() - before, time.perf_counter() - clock

    configs: Dict[str, Callable[[Path], Tuple[int, float, float]]] = {}
    if args.cli and os.access(args.cli, os.X_OK):
        for threads in sorted({int(t) for t in args.cli_threads.split(",") if t.strip()}):
            configs["cli" if threads == 1 else f"cli-{threads}t"] = cli_run(threads)
    if not args.no_python_loop:
        configs["python"] = python_run
    configs["dask-1"] = dask_run(1)
    configs["dask-2"] = dask_run(2)

    results: Dict[str, List[Dict[str, Any]]] = {name: [] for name in configs}
    for repeat in range(args.repeats):
        for name, run in configs.items():
            out = work / f"out-{name}"
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(str(out) + ".state", ignore_errors=True)
            load_before = os.getloadavg()[0]
            n, cpu, seconds = run(out)
            load_after = os.getloadavg()[0]
            assert n == args.records, (name, n)
            entry = {"seconds": seconds, "records_per_s": n / seconds, "cpu_us_per_record": cpu / n * 1e6,
                     "cores_used": cpu / seconds, "load_before": load_before, "load_after": load_after}
            results[name].append(entry)
            print(f"repeat {repeat + 1} {name:7s} {n / seconds:9.0f} records/s  {seconds:7.1f} s  "
                  f"{cpu / n * 1e6:7.0f} us CPU/record  {cpu / seconds:4.2f} cores  load {load_before:.1f} -> {load_after:.1f}",
                  flush=True)

    best = {name: max(r["records_per_s"] for r in runs) for name, runs in results.items()}
    summary: Dict[str, Any] = {
        "records": args.records,
        "repeats": args.repeats,
        "model": os.path.basename(model_path),
        "epsilon": args.epsilon,
        "blocksize": blocksize,
        "cpus": os.cpu_count(),
        "best_records_per_s": best,
        "speedup_2_over_1_workers": best["dask-2"] / best["dask-1"],
        "speedup_dask_over_cli": {name: best[name] / best["cli"] for name in ("dask-1", "dask-2") if "cli" in best},
        "runs": results,
    }
    cpu = {name: min(r["cpu_us_per_record"] for r in runs) for name, runs in results.items()}
    summary["least_cpu_us_per_record"] = cpu
    # Where a Dask run's CPU went: its workers, and this process (the client
    # and LocalCluster's scheduler), in us per record, the least of the repeats.
    summary["dask_cpu_us_per_record_workers_client"] = {
        name: [min(w for w, _ in split) / args.records * 1e6, min(c for _, c in split) / args.records * 1e6]
        for name, split in cpu_split.items()
    }
    if "cli" in best:
        # What Python and Dask add to each record over the C++ CLI: in wall
        # time on one core, and in CPU time (all processes of the run), which
        # other work on the machine disturbs less.
        for name in ("python", "dask-1", "dask-2"):
            if name in best:
                summary[f"overhead_us_per_record_{name}_vs_cli"] = {
                    "wall_one_core": (1 / best[name] - 1 / best["cli"]) * 1e6 if name != "dask-2" else None,
                    "cpu": cpu[name] - cpu["cli"],
                }
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}, indent=1))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
