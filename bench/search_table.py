#!/usr/bin/env python3
"""The search table of tests/data/search/ for scripts/bench-search (standard library only).

  feeds  --table DIR --out DIR --base URL --opml FILE
         each show of shows.tsv as an RSS feed file <id>.xml in DIR (title, language,
         itunes:author, description, two items with the episode titles, guid, pubDate and an
         enclosure), and an OPML file listing them at BASE/<id>.xml
  paths  --table DIR --out FILE
         the site's search path of each query that is not a control, URL-encoded, one a line
  recall --table DIR --podcrawl BIN --database-url URL --out JSON [--label TEXT]
         every query through `podcrawl search --json --limit 10`: a hit when the expected show
         (by its title in shows.tsv) is among the results, a control passed when nothing is found;
         writes per-kind counts as JSON and prints the misses' count per kind
  probe  --table DIR --podcrawl BIN --database-url URL --stop FILE --out JSON
         one `podcrawl search` a second, rotating through the table's queries, until FILE exists:
         how many answered (exit status 0 and a JSON array), how long each took, how many found
         their show (and the queries that did not)
  recall-table JSON...  (LABEL=FILE pairs) one markdown table of the recall of each, by kind
"""
import argparse
import email.utils
import json
import os
import subprocess
import sys
import time
import unicodedata
import urllib.parse
from xml.sax.saxutils import escape, quoteattr

K_FIRST = 10
# The fixed "now" the feeds' items are dated from: 2025-06-10T12:00:00Z, as bench_directory.
K_NOW = 1_749_556_800


def read_table(path, fields):
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        next(f)
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            if not line:
                continue
            row = line.split("\t")
            if len(row) != fields:
                sys.exit(f"search_table.py: {path}: {len(row)} fields, not {fields}: {line!r}")
            rows.append(row)
    return rows


def shows_of(table):
    return read_table(os.path.join(table, "shows.tsv"), 7)


def queries_of(table):
    return read_table(os.path.join(table, "queries.tsv"), 4)


def same_title(a, b):
    return unicodedata.normalize("NFC", " ".join(a.split())) == unicodedata.normalize(
        "NFC", " ".join(b.split()))


def feed_of(show):
    show_id, language, title, author, description, first, second = show
    items = []
    for i, episode in enumerate((first, second)):
        published = email.utils.formatdate(K_NOW - 86400 * (i + 1), usegmt=True)
        items.append(
            f"<item><title>{escape(episode)}</title>"
            f"<guid isPermaLink=\"false\">{escape(show_id)}-{i}</guid>"
            f"<pubDate>{published}</pubDate>"
            f"<enclosure url={quoteattr(f'https://media.example/{show_id}-{i}.mp3')}"
            f" type=\"audio/mpeg\" length=\"1000\"/></item>")
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
            f"<channel><title>{escape(title)}</title>"
            f"<link>https://shows.example/{escape(show_id)}</link>"
            f"<language>{escape(language)}</language>"
            f"<itunes:author>{escape(author)}</itunes:author>"
            f"<description>{escape(description)}</description>" + "".join(items) +
            "</channel></rss>\n")


def cmd_feeds(args):
    os.makedirs(args.out, exist_ok=True)
    outlines = []
    for show in shows_of(args.table):
        with open(os.path.join(args.out, show[0] + ".xml"), "w", encoding="utf-8") as f:
            f.write(feed_of(show))
        url = f"{args.base.rstrip('/')}/{show[0]}.xml"
        outlines.append(f"<outline type=\"rss\" text={quoteattr(show[2])} xmlUrl={quoteattr(url)}/>")
    with open(args.opml, "w", encoding="utf-8") as f:
        f.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head>"
                "<title>search table</title></head><body>" + "".join(outlines) +
                "</body></opml>\n")
    print(len(outlines))


def cmd_paths(args):
    count = 0
    with open(args.out, "w", encoding="utf-8") as f:
        for query, expect, _, _ in queries_of(args.table):
            if expect != "-":
                f.write("/en/search/?q=" + urllib.parse.quote(query, safe="") + "\n")
                count += 1
    print(count)


def search(podcrawl, url, query):
    """(seconds, exit status, titles or None)."""
    started = time.monotonic()
    done = subprocess.run([podcrawl, "--database-url", url, "-q", "search", "--json", "--limit",
                           str(K_FIRST), "--", query], capture_output=True, text=True)
    seconds = time.monotonic() - started
    titles = None
    if done.returncode == 0:
        try:
            titles = [r.get("show_title", "") for r in json.loads(done.stdout)]
        except ValueError:
            titles = None
    return seconds, done.returncode, titles, done.stderr.strip().splitlines()[-1:]


def cmd_recall(args):
    titles = {show[0]: show[2] for show in shows_of(args.table)}
    kinds = {}
    misses = []
    failures = 0
    started = time.monotonic()
    for query, expect, kind, note in queries_of(args.table):
        seconds, status, found, err = search(args.podcrawl, args.database_url, query)
        if found is None:
            failures += 1
            print(f"  podcrawl search failed (status {status}) for {query!r}: {' '.join(err)}",
                  file=sys.stderr)
            found = []
            passed = False
        elif expect == "-":
            passed = not found
        else:
            passed = any(same_title(t, titles[expect]) for t in found[:K_FIRST])
        hits, total = kinds.get(kind, (0, 0))
        kinds[kind] = (hits + passed, total + 1)
        if not passed:
            misses.append({"query": query, "expect": expect, "kind": kind, "note": note,
                           "found": found[:3]})
    result = {"label": args.label, "kinds": kinds, "misses": misses, "failures": failures,
              "seconds": time.monotonic() - started}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    hits = sum(h for h, _ in kinds.values())
    total = sum(t for _, t in kinds.values())
    print(f"{hits}/{total} ({100 * hits / max(total, 1):.1f}%) in {result['seconds']:.0f} s"
          + (f", {failures} searches FAILED" if failures else ""))


def cmd_probe(args):
    titles = {show[0]: show[2] for show in shows_of(args.table)}
    queries = [(q, e) for q, e, _, _ in queries_of(args.table) if e != "-"]
    asked = answered = found_show = 0
    times = []
    errors = []
    missed = []
    i = 0
    while not os.path.exists(args.stop):
        query, expect = queries[(i * 7) % len(queries)]
        i += 1
        seconds, status, found, err = search(args.podcrawl, args.database_url, query)
        asked += 1
        times.append(seconds)
        if found is not None:
            answered += 1
            if any(same_title(t, titles[expect]) for t in found):
                found_show += 1
            elif query not in missed:
                missed.append(query)
        else:
            errors.append(f"status {status}: {' '.join(err)}")
        time.sleep(max(0.0, 1.0 - seconds))
    times.sort()
    result = {"asked": asked, "answered": answered, "found_show": found_show,
              "max_seconds": times[-1] if times else None,
              "median_seconds": times[len(times) // 2] if times else None,
              "errors": errors[:5], "missed": missed}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)


def cmd_recall_table(args):
    columns = []
    for pair in args.results:
        label, _, path = pair.partition("=")
        with open(path, encoding="utf-8") as f:
            columns.append((label, json.load(f)["kinds"]))
    kinds = sorted({k for _, c in columns for k in c}, key=lambda k: (k == "control", k))
    print("| kind | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    def cell(counts, kind):
        if kind not in counts:
            return "–"
        hits, total = counts[kind]
        return f"{hits}/{total}"
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(cell(c, kind) for _, c in columns) + " |")
    totals = []
    for _, counts in columns:
        hits = sum(h for h, _ in counts.values())
        total = sum(t for _, t in counts.values())
        totals.append(f"**{hits}/{total} ({100 * hits / max(total, 1):.1f}%)**")
    print("| **total** | " + " | ".join(totals) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("feeds")
    p.add_argument("--table", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--base", required=True)
    p.add_argument("--opml", required=True)
    p.set_defaults(run=cmd_feeds)
    p = sub.add_parser("paths")
    p.add_argument("--table", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(run=cmd_paths)
    for name, run in (("recall", cmd_recall), ("probe", cmd_probe)):
        p = sub.add_parser(name)
        p.add_argument("--table", required=True)
        p.add_argument("--podcrawl", required=True)
        p.add_argument("--database-url", required=True)
        p.add_argument("--out", required=True)
        if name == "recall":
            p.add_argument("--label", default="podcrawl")
        else:
            p.add_argument("--stop", required=True)
        p.set_defaults(run=run)
    p = sub.add_parser("recall-table")
    p.add_argument("results", nargs="+", help="LABEL=FILE")
    p.set_defaults(run=cmd_recall_table)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
