# table.py RESULTS ...: scripts/bench-api's rows as one markdown table against the targets
# (arguments in the order the script passes them). Exit status 1 when a run failed (errors under
# load, serve dead or not exiting cleanly, a pass unfinished), else 3 when a target is missed.
import os, sys

sys.dont_write_bytecode = True  # nothing written into the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench-serve"))
from results import ms, number, problems, read_rows  # noqa: E402

(results, shows, episodes, feeds, queries, threads, connections, duration, load_before,
 load_after, cores, hwm_mb, serve_exit) = sys.argv[1:]
rows = read_rows(results)


def get(scenario, server, key):
    return number(rows, scenario, server, key)


def whole(value):
    return "–" if value is None else f"{value:.0f}"


def mark(ok):
    return "met" if ok else "**missed**"


def pass_rate(scenario, paths):  # a pass's paths over the time it took, not its spare 301s
    seconds = get(scenario, "serve", "seconds")
    return int(paths) / seconds if seconds else None


cold_rps, search_rps = pass_rate("cold", feeds), pass_rate("search", queries)
hot_ratio = (get("hot", "serve", "rps") or 0) / (get("hot", "nginx", "rps") or float("inf"))
search_ratio = (search_rps or 0) / (get("search", "nginx", "rps") or float("inf"))
cold_p99, search_p99 = get("cold", "serve", "p99_ms"), get("search", "serve", "p99_ms")
targets = [
    ("(a) hot: podcasts/byfeedid of one feed", "hot", get("hot", "serve", "rps"), f"{hot_ratio:.2f}",
     "serve >= 0.5 x nginx: " + mark(hot_ratio >= 0.5)),
    (f"(b) cold: podcasts/byfeedid of each of {feeds} feeds once", "cold", cold_rps, "",
     "p99 <= 20 ms: " + mark(cold_p99 is not None and cold_p99 <= 20)),
    (f"(c) search/byterm of {queries} distinct queries, each once", "search", search_rps,
     f"{search_ratio:.3f}", "p99 <= 50 ms: " + mark(search_p99 is not None and search_p99 <= 50)),
]
print(f"\n### scripts/bench-api: {shows} shows x {episodes} episodes; wrk -t{threads} -c{connections},"
      f" {duration} s a scenario (serve's cold and search: one pass); {cores} cores, load {load_before} before,"
      f" {load_after} after\n")


def cpu_ms(key):  # serve's and PostgreSQL's CPU milliseconds a request
    serve, postgres, requests = (get(key, "serve", k) for k in ("cpu_serve", "cpu_postgres", "requests"))
    if serve is None or postgres is None or not requests:
        return None
    return 1000 * serve / requests, 1000 * postgres / requests


def cpu_text(key):
    used = cpu_ms(key)
    return "–" if used is None else f"{used[0]:.2f} + {used[1]:.2f} ms"


print("| scenario | serve req/s | nginx req/s | serve / nginx | serve p50 | serve p99 | nginx p99 |"
      " CPU a request (serve + PostgreSQL) | target |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
failures = []
for label, key, serve_rps, ratio, target in targets:
    found = [f"{server}: {problem}" for server in ("serve", "nginx") if (key, server) in rows
             for problem in problems(rows, key, server)]
    failures += found
    print(f"| {label} | {whole(serve_rps)} | {whole(get(key, 'nginx', 'rps'))} | {ratio or '–'} |"
          f" {ms(get(key, 'serve', 'p50_ms'))} | {ms(get(key, 'serve', 'p99_ms'))} |"
          f" {ms(get(key, 'nginx', 'p99_ms'))} | {cpu_text(key)} |"
          f" {target}{''.join('; **' + p + '**' for p in found)} |")
print()
# What the CPU a request allows on this machine's cores whatever else runs on them: a rate, and
# by Little's law the mean latency the connections then wait at the least.
for key in ("cold", "search"):
    used = cpu_ms(key)
    if used:
        total = sum(used)
        print(f"- {key}: {total:.2f} ms of CPU a request allows at most {1000 * int(cores) / total:.0f}"
              f" requests/s on {cores} idle cores; {connections} connections then wait"
              f" {int(connections) * total / int(cores):.1f} ms a request on average (wrk's own CPU not"
              f" counted)")
for key in ("hot", "cold", "search"):
    metrics = rows.get((key, "serve"), {}).get("metrics")
    if metrics:
        print(f"- serve's /metrics during {key}: {metrics}")
print(f"- serve: peak resident memory {hwm_mb} MB; exit status after SIGTERM {serve_exit}")
if serve_exit != "0":
    failures.append(f"serve's exit status {serve_exit}")
if failures:
    print(f"\nscripts/bench-api: the run failed: {'; '.join(failures)}", file=sys.stderr)
    sys.exit(1)
sys.exit(3 if any("missed" in target for *_, target in targets) else 0)
