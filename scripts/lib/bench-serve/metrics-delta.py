# metrics-delta.py BEFORE AFTER: what serve's /metrics counters (requests by route and status,
# cache hits and misses) gained between two snapshots, on one line.
import re, sys
def read(path):
    values = {}
    for line in open(path):
        name, _, value = line.rpartition(" ")
        values[name] = float(value)
    return values
before, after = read(sys.argv[1]), read(sys.argv[2])
parts = []
for name in sorted(after):
    delta = after[name] - before.get(name, 0)
    match = re.match(r'podcrawl_http_requests_total\{route="([^"]+)",status="(\d+)"\}', name)
    if match and delta and match.group(1) != "metrics":
        parts.append(f"{match.group(1)} {match.group(2)}: {delta:.0f}")
for name, label in (("podcrawl_cache_hits_total", "cache hits"), ("podcrawl_cache_misses_total", "misses")):
    if name in after:
        parts.append(f"{label} {after[name] - before.get(name, 0):.0f}")
if "podcrawl_cache_bytes" in after:
    parts.append(f"cache {after['podcrawl_cache_bytes'] / 1048576:.1f} MB"
                 f" / {after.get('podcrawl_cache_entries', 0):.0f} pages")
print("; ".join(parts))
