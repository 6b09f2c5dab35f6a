#!/usr/bin/env python3
"""The passes of scripts/bench-push: feeds changed one at a time, each announced by the hub
(push) or by a hub/pubnotify ping, and the time until the new episode is on the live show page.

drive.py HUB_URL SERVE_URL LIST_JSON DUE_TSV COUNT: LIST_JSON is `podcrawl list --json`, DUE_TSV
"url<TAB>next fetch (Unix seconds)" per feed as the crawl scheduled it. Prints one line per pass:
"<pass> n=… p50_ms=… p99_ms=… max_ms=… polling_p50_s=… polling_p99_s=…", where polling is how
long the feed would have waited for its next scheduled fetch.
"""

import json
import sys
import time
import urllib.parse
import urllib.request

K_TIMEOUT_SECONDS = 30
K_POLL_SECONDS = 0.01


def call(url, method="GET"):
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, answer.read().decode()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    hub, serve, list_json, due_tsv, count = sys.argv[1:6]
    count = int(count)
    feeds = json.load(open(list_json))
    slug_of = {feed["url"]: feed["show_slug"] for feed in feeds if feed.get("show_slug")}
    due_at = {}
    for line in open(due_tsv):
        url, _, at = line.rstrip("\n").partition("\t")
        due_at[url] = float(at) if at else 0.0
    urls = sorted(slug_of, key=lambda url: int(url.rsplit("/", 1)[1].split(".")[0]))
    for name, offset in (("push", 0), ("pubnotify", 1)):
        # Every feed of the pass on another host in turn, none changed twice.
        chosen = urls[offset::2][:count]
        latencies, polling = [], []
        for url in chosen:
            n = int(url.rsplit("/", 1)[1].split(".")[0])
            status, title = call(f"{hub}/change?feed={n}", "POST")
            started = time.monotonic()
            polling.append(max(0.0, due_at.get(url, 0.0) - time.time()))
            if name == "push":
                status, answered = call(f"{hub}/publish?feed={n}", "POST")
                if not answered.startswith("2"):
                    sys.exit(f"drive.py: the callback answered {answered} for {url}")
            else:
                status, _ = call(f"{serve}/api/1.0/hub/pubnotify?url=" + urllib.parse.quote(url, safe=""))
            page = f"{serve}/en/podcasts/{slug_of[url]}/"
            while True:
                _, html = call(page)
                if title in html:
                    break
                if time.monotonic() - started > K_TIMEOUT_SECONDS:
                    sys.exit(f"drive.py: {title} was not on {page} after {K_TIMEOUT_SECONDS} s")
                time.sleep(K_POLL_SECONDS)
            latencies.append((time.monotonic() - started) * 1000)
        print(f"{name} n={len(latencies)} p50_ms={percentile(latencies, 0.5):.0f}"
              f" p99_ms={percentile(latencies, 0.99):.0f} max_ms={max(latencies):.0f}"
              f" polling_p50_s={percentile(polling, 0.5):.0f}"
              f" polling_p99_s={percentile(polling, 0.99):.0f}", flush=True)


if __name__ == "__main__":
    main()
