# table.py RESULTS ...: scripts/bench-serve's rows as one markdown table against the targets
# (arguments in the order the script passes them).
import sys
sys.dont_write_bytecode = True  # nothing written into the checkout
from results import number, problems, read_rows, ms
(results, shows, episodes, show_pages, show_bytes, hwm_kb, rss_kb, serve_exit, threads,
 connections, duration, same_bytes, load_before, load_after, cores) = sys.argv[1:]
rows = read_rows(results)

def get(scenario, server, key):
    return number(rows, scenario, server, key)

def flagged(scenario, server):
    found = problems(rows, scenario, server)
    return f"**{server}: {', '.join(found)}**" if found else ""

def fmt(value, pattern="{:.0f}"):
    return "–" if value is None else pattern.format(value)

def ratio(a, b):
    return a / b if a is not None and b else None

scenarios = [
    ("hot", "(a) hot show page"),
    ("every1", f"(b) every show page, pass 1: each of {show_pages} once, serve's cache cold"),
    ("every2", "(b) every show page, pass 2: cycling, cache warm"),
    ("304", "(c) 304 revalidation of the hot page"),
]
print(f"\n### podcrawl serve vs nginx: {shows} shows x {episodes} episodes, locales ar,en; "
      f"wrk -t{threads} -c{connections} -d{duration}s; {cores} cores, load {load_before} before,"
      f" {load_after} after\n")
print("| scenario | serve req/s | nginx req/s | ratio | serve p99 | nginx p99 | notes |")
print("|---|---:|---:|---:|---:|---:|---|")
def pass_rate(server):  # pass 1: show pages over the time the pass took (not the spare 301s)
    seconds = get("every1", server, "seconds")
    return int(show_pages) / seconds if seconds else None

for server in ("serve", "nginx"):
    if (row := rows.get(("every1", server))) and "rps" in row and pass_rate(server):
        row["rps"] = str(pass_rate(server))

for key, label in scenarios:
    serve_rps, nginx_rps = get(key, "serve", "rps"), get(key, "nginx", "rps")
    notes = [n for n in (flagged(key, "serve"), flagged(key, "nginx")) if n]
    requests = get(key, "serve", "requests")
    if key == "every1":
        for server in ("serve", "nginx"):
            answered, seconds = get(key, server, "requests"), get(key, server, "seconds")
            if answered is not None and seconds:
                notes.append(f"{server}: {show_pages} pages in {seconds:.2f} s"
                             f" (+{answered - int(show_pages):.0f} spare 301s)")
    if key == "every2":
        requests = get(key, "serve", "requests")
        if requests is not None:
            notes.append(f"serve: {requests / int(show_pages):.0f} passes")
    if key == "hot":
        notes.append(f"same bytes from both: {same_bytes}")
    if key == "304":
        notes.append(f"serve 304 / nginx 200 of (a): {fmt(ratio(serve_rps, get('hot', 'nginx', 'rps')), '{:.2f}')}")
    metrics = rows.get((key, "serve"), {}).get("metrics")
    if metrics:
        notes.append(f"serve: {metrics}")
    shown_ratio = fmt(ratio(serve_rps, nginx_rps), "{:.3f}")
    if key == "every1":  # nginx's one pass lasts milliseconds: its steady rate is the yardstick
        shown_ratio = fmt(ratio(serve_rps, get("every2", "nginx", "rps")), "{:.3f}") + " †"
    print(f"| {label} | {fmt(serve_rps)} | {fmt(nginx_rps)} | {shown_ratio} |"
          f" {ms(get(key, 'serve', 'p99_ms'))} | {ms(get(key, 'nginx', 'p99_ms'))} | {'; '.join(notes)} |")

print("\n† serve's pass 1 against nginx's pass 2: nginx's own single pass is over too soon to"
      " time well. Pass 1 req/s: show pages / the time the pass took.")
hwm_mb = int(hwm_kb) / 1024 if int(hwm_kb) >= 0 else None
print(f"\nserve peak resident memory (VmHWM): {fmt(hwm_mb)} MB"
      f" (VmRSS at the end {fmt(int(rss_kb) / 1024 if int(rss_kb) >= 0 else None)} MB);"
      f" show pages {int(show_bytes) / 1048576:.0f} MB on disk (identity);"
      f" serve's exit status after SIGTERM: {serve_exit}\n")

def mark(value, target, at_least=True):
    if value is None:
        return "missed (not measured)"
    return "met" if (value >= target if at_least else value <= target) else "missed"

p99s = [(get(k, "serve", "p99_ms"), k) for k, _ in scenarios]
worst = max((p for p in p99s if p[0] is not None), default=(None, "-"))
warm = max((p for p in p99s if p[0] is not None and p[1] != "every1"), default=(None, "-"))
clean = all(not flagged(k, "serve") for k, _ in scenarios)
print("| target | measured | |")
print("|---|---:|---|")
targets = [
    ("hot page >= 0.10 x nginx", ratio(get("hot", "serve", "rps"), get("hot", "nginx", "rps")), 0.10, True, "{:.3f}"),
    ("every show page, serve pass 1 (cold) >= 0.05 x nginx pass 2",
     ratio(get("every1", "serve", "rps"), get("every2", "nginx", "rps")), 0.05, True, "{:.3f}"),
    ("serve 304 >= 0.25 x nginx 200",
     ratio(get("304", "serve", "rps"), get("hot", "nginx", "rps")), 0.25, True, "{:.3f}"),
    (f"serve p99 <= 100 ms, every scenario (worst: {worst[1]})", worst[0], 100.0, False, "{:.1f} ms"),
    (f"serve p99 <= 100 ms, cache warm: all but pass 1 (worst: {warm[1]})", warm[0], 100.0, False,
     "{:.1f} ms"),
    ("serve peak RSS <= 200 MB", hwm_mb, 200.0, False, "{:.0f} MB"),
]
for name, value, target, at_least, pattern in targets:
    print(f"| {name} | {fmt(value, pattern)} | {mark(value, target, at_least)} |")
if not clean:
    print("\n**Some serve scenarios had errors: see the notes.**")
if serve_exit != "0":
    print(f"\n**podcrawl serve did not exit 0 after SIGTERM: {serve_exit}**")
