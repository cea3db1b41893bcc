#!/usr/bin/env python3
"""Tributary's benchmarks, each against its peers on the same data in the same run.

    python3 bench/bench.py fetch [--count 1000] [--runs 5]
    python3 bench/bench.py parse [--count 300] [--mb 55] [--runs 3]

Everything runs on 127.0.0.1: the benchmark starts its own server and stops it afterwards.
Speed is reported as ratios against the peers measured in the same run, since the machines
are shared and noisy; each figure is the median of several runs.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "tributary-bench")


def run_measured(command, output=None, **kwargs):
    """Runs a command; returns (wall seconds, peak RSS in KB, stdout, CPU seconds). With `output`
    (a path), standard output goes to that file instead of this process's memory."""
    started = time.perf_counter()
    sink = open(output, "wb") if output else subprocess.PIPE
    process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, **kwargs)
    stdout, stderr = b"", b""
    # wait4 gives this child's own resource usage, so peaks of earlier runs don't leak in.
    out_chunks = []
    while process.stdout is not None:
        chunk = process.stdout.read(65536)
        if not chunk:
            break
        out_chunks.append(chunk)
    if output:
        sink.close()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    stderr = process.stderr.read()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit("benchmark command failed (%d): %s\n%s" % (process.returncode, " ".join(command), stderr.decode(errors="replace")))
    return elapsed, usage.ru_maxrss, b"".join(out_chunks).decode(errors="replace"), usage.ru_utime + usage.ru_stime


class Server:
    """tributary-bench serve DIR, on an ephemeral port of 127.0.0.1."""

    def __init__(self, folder):
        self.process = subprocess.Popen([BENCH, "serve", folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        line = self.process.stdout.readline().decode()
        if not line.startswith("port "):
            sys.exit("the benchmark server did not start: %r" % line)
        self.port = int(line.split()[1])

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def ensure_corpus(folder, count, target_mb, seed=42):
    marker = os.path.join(folder, ".complete-%d-%g-%d" % (count, target_mb, seed))
    if os.path.exists(marker):
        return
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "corpus.py"), folder, "--count", str(count),
                    "--target-mb", str(target_mb), "--seed", str(seed)], check=True)
    open(marker, "w").close()


def table(rows, headers):
    widths = [max(len(str(row[i])) for row in rows + [headers]) for i in range(len(headers))]
    line = lambda row: "  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row))
    print(line(headers))
    print("  ".join("-" * width for width in widths))
    for row in rows:
        print(line(row))


def bench_fetch(args):
    work = os.path.join(tempfile.gettempdir(), "tributary-bench")
    corpus = os.path.join(work, "fetch-corpus-%d" % args.count)
    ensure_corpus(corpus, args.count, 50.0 * args.count / 1000)  # ~50 KB a document on average
    names = sorted(name for name in os.listdir(corpus) if not name.startswith("."))
    total_bytes = sum(os.path.getsize(os.path.join(corpus, name)) for name in names)
    server = Server(corpus)
    try:
        urls = ["http://127.0.0.1:%d/%s" % (server.port, name) for name in names]
        url_file = os.path.join(work, "urls.txt")
        with open(url_file, "w") as handle:
            handle.write("\n".join(urls) + "\n")
        curl_config = os.path.join(work, "curl.cfg")
        with open(curl_config, "w") as handle:
            for url in urls:
                handle.write('url = "%s"\noutput = "/dev/null"\n' % url)
        tributary_cmd = [BENCH, "fetch", url_file, "--jobs", str(args.jobs), "--per-host", str(args.jobs)]
        curl_cmd = ["curl", "--silent", "--show-error", "--fail", "--parallel", "--parallel-max", str(args.jobs), "-K", curl_config]
        # One warm-up each, then alternate so that drift hits both alike.
        run_measured(tributary_cmd)
        run_measured(curl_cmd)
        results = {"tributary": [], "curl": []}
        for _ in range(args.runs):
            seconds, rss, out, cpu = run_measured(tributary_cmd)
            stats = eval(out.strip(), {}, {})  # our own JSON line
            if stats["failures"]:
                sys.exit("tributary-bench: %d fetches failed" % stats["failures"])
            results["tributary"].append((seconds, rss, cpu))
            if args.verbose:
                print("tributary: wall %.3f s, inside the process %.3f s" % (seconds, stats["seconds"]))
            seconds, rss, _, cpu = run_measured(curl_cmd)
            results["curl"].append((seconds, rss, cpu))
    finally:
        server.stop()

    print("Fetch: %d documents, %.1f MB, from 127.0.0.1 with %d transfers at once (per host too); median of %d runs"
          % (len(names), total_bytes / 1e6, args.jobs, args.runs))
    rows = []
    curl_time = statistics.median(r[0] for r in results["curl"])
    for name in ("tributary", "curl"):
        wall = statistics.median(r[0] for r in results[name])
        peak = max(r[1] for r in results[name])
        cpu = statistics.median(r[2] for r in results[name])
        rows.append([name, "%.3f s" % wall, "%.3f s" % cpu, "%.0f" % (len(names) / wall), "%.1f" % (total_bytes / 1e6 / wall),
                     "%.1f MB" % (peak / 1024), "%.2f×" % (wall / curl_time)])
    table(rows, ["client", "wall time", "CPU time", "requests/s", "MB/s", "peak memory", "vs curl"])
    ratio = statistics.median(r[0] for r in results["tributary"]) / curl_time
    print("goal: within 1.3× of curl's time -> %s (%.2f×)" % ("met" if ratio <= 1.3 else "NOT met", ratio))


def venv_python(work):
    """A virtual environment with the Python peers, made (once) by the benchmark itself."""
    venv = os.path.join(work, "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(os.path.join(venv, ".peers-installed")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "feedparser", "fastfeedparser", "feedparser-rs"], check=True)
        open(os.path.join(venv, ".peers-installed"), "w").close()
    return python


def bench_parse(args):
    work = os.path.join(tempfile.gettempdir(), "tributary-bench")
    corpus = os.path.join(work, "parse-corpus")
    ensure_corpus(corpus, args.count, args.mb, seed=7)
    names = sorted(name for name in os.listdir(corpus) if not name.startswith("."))
    paths = [os.path.join(corpus, name) for name in names]
    total = sum(os.path.getsize(path) for path in paths)
    list_file = os.path.join(work, "parse-list.txt")
    with open(list_file, "w") as handle:
        handle.write("\n".join(paths) + "\n")
    python = venv_python(work)
    tributary = os.path.join(ROOT, ".build", "release", "tributary")
    peers = [
        ("tributary parse", [tributary, "parse", "-q", "--list", list_file]),
        ("xmllint --stream (floor)", ["xmllint", "--stream", "--noout"] + paths),
        ("fastfeedparser", [python, os.path.join(ROOT, "bench", "parse_peer.py"), "fastfeedparser", list_file]),
        ("feedparser-rs", [python, os.path.join(ROOT, "bench", "parse_peer.py"), "feedparser_rs", list_file]),
    ]
    if args.baseline:
        peers.insert(1, ("tributary parse (baseline)", [os.path.abspath(args.baseline), "parse", "-q", "--list", list_file]))
    if not args.skip_feedparser:
        peers.append(("feedparser", [python, os.path.join(ROOT, "bench", "parse_peer.py"), "feedparser", list_file]))
    results = {}
    jsonl = os.path.join(work, "parse-output.jsonl")
    for name, command in peers:
        runs = 1 if name == "feedparser" else args.runs
        output = jsonl if name.startswith("tributary parse") else (os.devnull if name.startswith("xmllint") else None)
        measured = [run_measured(command, output=output) for _ in range(runs)]
        wall = statistics.median(m[0] for m in measured)
        if name.startswith("tributary parse"):
            import json
            with open(jsonl) as handle:
                items = sum(len(json.loads(line)["items"]) for line in handle)
        else:
            items = int(measured[0][2].strip() or 0) if "parser" in name else 0
        results[name] = (wall, max(m[1] for m in measured), items, statistics.median(m[3] for m in measured))
    print("Parse: %d files, %.1f MB of mixed RSS 2.0 / Atom 1.0 / RSS 1.0, one process each; median of %d runs"
          % (len(paths), total / 1e6, args.runs))
    floor = results["xmllint --stream (floor)"][0]
    python_best = min(results[name][0] for name in results if name in ("fastfeedparser", "feedparser-rs", "feedparser"))
    rows = []
    for name, (wall, rss, items, cpu) in results.items():
        rows.append([name, "%.2f s" % wall, "%.2f s" % cpu, "%.1f" % (total / 1e6 / wall), "%.0f" % (items / wall) if items else "-",
                     "%.1f MB" % (rss / 1024), "%.2f×" % (wall / floor)])
    table(rows, ["parser", "wall time", "CPU time", "MB/s", "items/s", "peak memory", "vs xmllint"])
    ours = results["tributary parse"][0]
    print("goals: ≥ 2× the fastest Python parser -> %.2f× (%s); within 2× of xmllint -> %.2f× (%s); peak memory < 64 MB -> %.1f MB (%s)"
          % (python_best / ours, "met" if python_best / ours >= 2 else "NOT met", ours / floor, "met" if ours / floor <= 2 else "NOT met",
             results["tributary parse"][1] / 1024, "met" if results["tributary parse"][1] < 64 * 1024 else "NOT met"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="which", required=True)
    fetch = sub.add_parser("fetch", help="fetch 1,000 documents from a loopback server, against curl --parallel")
    fetch.add_argument("--count", type=int, default=1000)
    fetch.add_argument("--runs", type=int, default=5)
    fetch.add_argument("--jobs", type=int, default=32)
    fetch.add_argument("--verbose", action="store_true")
    parse = sub.add_parser("parse", help="parse a generated corpus against xmllint and Python's feed parsers")
    parse.add_argument("--count", type=int, default=300)
    parse.add_argument("--mb", type=float, default=55.0)
    parse.add_argument("--runs", type=int, default=3)
    parse.add_argument("--skip-feedparser", action="store_true", help="feedparser takes over a minute")
    parse.add_argument("--baseline", metavar="BINARY", help="an earlier tributary build, measured in the same run for before/after")
    args = parser.parse_args()
    # The parse benchmark needs only the tributary binary; fetch also needs tributary-bench.
    needed = [("tributary", os.path.join(ROOT, ".build", "release", "tributary"))]
    if args.which == "fetch":
        needed.append(("tributary-bench", BENCH))
    for product, path in needed:
        if not os.path.exists(path):
            sys.exit("build first: swift build -c release --static-swift-stdlib --product %s (make bench does)" % product)
    {"fetch": bench_fetch, "parse": bench_parse}[args.which](args)


if __name__ == "__main__":
    main()
