#!/usr/bin/env python3
"""The search table of tests/data/search/ through Xapian 1.4, for scripts/bench-search.

Needs Debian's python3-xapian (scripts/bootstrap --bench); run it with the Python that has it
(/usr/bin/python3 on Debian).

  search_xapian.py --table DIR --work DIR --out JSON [--database-url URL --budget SECONDS]

Indexes the 52 shows of shows.tsv, each a document: title, author, description and its two
episode titles, with Xapian's TermGenerator (FLAG_CJK_NGRAM; the show's language's stemmer where
Xapian has one; spelling data from the titles, FLAG_SPELLING), then runs every query of
queries.tsv with QueryParser (FLAG_CJK_NGRAM | FLAG_PARTIAL | FLAG_SPELLING_CORRECTION, every
word required as podcrawl requires them) and scores it as scripts/bench-search scores podcrawl:
a hit when the expected show is among the first ten, a control passed when nothing is found.

With --database-url it also indexes, into a second database, the 52 shows plus every other show
of that podcrawl database (the generated directory) with its episodes' titles and notes, read
with psql COPY, and runs the table again there; given up (and said so) when indexing takes longer
than --budget seconds (default 300).

A query is read in every language: the query parsed once without stemming and once with each
stemmer of the indexed languages, OR'ed (podcrawl also reads a query in every configuration). When
it finds fewer than 3 shows and Xapian suggests a spelling correction, the corrected query's
shows follow (podcrawl corrects typos the same way, below 3 shows). Xapian suggests no correction
for a FLAG_PARTIAL term (the query's last word): the suggestion is then read from the query
parsed without FLAG_PARTIAL.

Writes JSON: {"corpora": {"52": {...}, "full": {...} or absent}, ...} with per-kind counts.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time

try:
    import xapian
except ImportError:
    sys.exit("search_xapian.py: the Python module xapian is missing (apt-get install python3-xapian)")

K_FIRST = 10
K_CORRECT_BELOW = 3
# BCP 47 primary subtag -> Xapian 1.4 stemmer.
K_STEMMERS = {
    "ar": "arabic", "da": "danish", "de": "german", "en": "english", "es": "spanish",
    "eu": "basque", "ca": "catalan", "fi": "finnish", "fr": "french", "ga": "irish",
    "hu": "hungarian", "hy": "armenian", "id": "indonesian", "it": "italian",
    "lt": "lithuanian", "ne": "nepali", "nl": "dutch", "no": "norwegian", "nb": "norwegian",
    "pt": "portuguese", "ro": "romanian", "ru": "russian", "sv": "swedish", "ta": "tamil",
    "tr": "turkish",
}
TAG = re.compile(r"<[^>]*>")

csv.field_size_limit(1 << 30)


def read_table(path, fields):
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        next(f)
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            if line:
                row = line.split("\t")
                if len(row) != fields:
                    sys.exit(f"search_xapian.py: {path}: {len(row)} fields, not {fields}")
                rows.append(row)
    return rows


def stemmer_name(language):
    return K_STEMMERS.get((language or "").split("-")[0].split("_")[0].lower())


class Index:
    def __init__(self, path):
        shutil.rmtree(path, ignore_errors=True)
        self.db = xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE)
        self.generator = xapian.TermGenerator()
        self.generator.set_database(self.db)  # for FLAG_SPELLING
        self.stemmers = {}
        self.languages = set()
        self.documents = 0

    def add(self, key, language, title, author, description, episodes):
        name = stemmer_name(language)
        if name:
            self.languages.add(name)
            if name not in self.stemmers:
                self.stemmers[name] = xapian.Stem(name)
            self.generator.set_stemmer(self.stemmers[name])
            self.generator.set_stemming_strategy(xapian.TermGenerator.STEM_SOME)
        else:
            self.generator.set_stemmer(xapian.Stem("none"))
            self.generator.set_stemming_strategy(xapian.TermGenerator.STEM_NONE)
        document = xapian.Document()
        self.generator.set_document(document)
        # Spelling data from the title only; the title weighs most, then the author.
        self.generator.set_flags(xapian.TermGenerator.FLAG_CJK_NGRAM
                                 | xapian.TermGenerator.FLAG_SPELLING)
        self.generator.index_text(title, 3)
        self.generator.set_flags(xapian.TermGenerator.FLAG_CJK_NGRAM)
        for text, weight in [(author, 2), (description, 1)] + [(e, 1) for e in episodes]:
            if text:
                self.generator.increase_termpos()
                self.generator.index_text(text, weight)
        document.set_data(key)
        document.add_boolean_term("Q" + key)
        self.db.replace_document("Q" + key, document)
        self.documents += 1

    def commit(self):
        self.db.commit()


def text_of(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def parse(database, languages, text):
    """The query read without stemming and with each indexed language's stemmer, OR'ed; and the
    spelling-corrected query string (empty when Xapian suggests none)."""
    flags = (xapian.QueryParser.FLAG_CJK_NGRAM | xapian.QueryParser.FLAG_PARTIAL
             | xapian.QueryParser.FLAG_SPELLING_CORRECTION)
    queries = []
    corrected = ""
    for name in [None] + sorted(languages):
        parser = xapian.QueryParser()
        parser.set_database(database)
        parser.set_default_op(xapian.Query.OP_AND)
        if name:
            parser.set_stemmer(xapian.Stem(name))
            parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
        try:
            query = parser.parse_query(text, flags)
        except xapian.QueryParserError:
            continue
        if name is None:
            corrected = text_of(parser.get_corrected_query_string())
            if not corrected:
                # Xapian suggests nothing for a FLAG_PARTIAL term (the last word, when the
                # query does not end in a space): the suggestion read without the flag.
                try:
                    parser.parse_query(text, flags & ~xapian.QueryParser.FLAG_PARTIAL)
                    corrected = text_of(parser.get_corrected_query_string())
                except xapian.QueryParserError:
                    pass
        if not query.empty():
            queries.append(query)
    if not queries:
        return xapian.Query(), corrected
    return xapian.Query(xapian.Query.OP_OR, queries), corrected


def run(database, languages, text):
    """The keys of the first K_FIRST documents found."""
    query, corrected = parse(database, languages, text)
    keys = []
    if not query.empty():
        enquire = xapian.Enquire(database)
        enquire.set_query(query)
        keys = [m.document.get_data().decode("utf-8") for m in enquire.get_mset(0, K_FIRST)]
    if len(keys) < K_CORRECT_BELOW and corrected and corrected != text:
        query, _ = parse(database, languages, corrected)
        if not query.empty():
            enquire = xapian.Enquire(database)
            enquire.set_query(query)
            for m in enquire.get_mset(0, K_FIRST):
                key = m.document.get_data().decode("utf-8")
                if key not in keys:
                    keys.append(key)
    return keys[:K_FIRST]


def score(database, languages, queries):
    kinds = {}
    misses = []
    started = time.monotonic()
    for query, expect, kind, note in queries:
        keys = run(database, languages, query)
        passed = not keys if expect == "-" else ("tsv:" + expect) in keys
        hits, total = kinds.get(kind, (0, 0))
        kinds[kind] = (hits + passed, total + 1)
        if not passed:
            misses.append({"query": query, "expect": expect, "kind": kind, "note": note,
                           "found": keys[:3]})
    return {"kinds": kinds, "misses": misses, "query_seconds": time.monotonic() - started}


def add_table_shows(index, shows):
    for show_id, language, title, author, description, first, second in shows:
        index.add("tsv:" + show_id, language, title, author, description, [first, second])


# The podcrawl database's shows other than the table's (matched by feed URL: the table's feeds
# are on loopback), each with its episodes' titles and notes, tags stripped.
K_COPY = r"""COPY (
  SELECT s.id, s.effective_language, s.title, s.author, s.description,
   coalesce((SELECT string_agg(e.title || ' ' || e.description, ' ' ORDER BY e.id)
             FROM episodes e WHERE e.show_id = s.id AND e.removed_at IS NULL), '')
  FROM shows s JOIN feeds f ON f.show_id = s.id
  WHERE f.url NOT LIKE 'http://127.%' AND s.active AND s.title <> ''
  ORDER BY s.id) TO STDOUT WITH (FORMAT csv)"""


def add_directory(index, url, budget, started):
    """Adds the database's shows; False when over budget (then stops)."""
    process = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", K_COPY],
                               stdout=subprocess.PIPE, text=True, encoding="utf-8")
    last_report = time.monotonic()
    try:
        for row in csv.reader(process.stdout):
            show_id, language, title, author, description, episodes = row
            index.add("db:" + show_id, language, title, author, TAG.sub(" ", description),
                      [TAG.sub(" ", episodes)])
            now = time.monotonic()
            if now - started > budget:
                return False
            if now - last_report >= 10:
                last_report = now
                print(f"  xapian: {index.documents} shows indexed, {now - started:.0f} s",
                      file=sys.stderr, flush=True)
    finally:
        process.stdout.close()
        if process.poll() is None:
            process.terminate()
        process.wait()
    if process.returncode not in (0, -15):
        sys.exit(f"search_xapian.py: psql COPY failed with status {process.returncode}")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", required=True)
    parser.add_argument("--work", required=True, help="folder for the Xapian databases")
    parser.add_argument("--out", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--budget", type=float, default=300)
    args = parser.parse_args()

    shows = read_table(os.path.join(args.table, "shows.tsv"), 7)
    queries = read_table(os.path.join(args.table, "queries.tsv"), 4)
    result = {"xapian": xapian.version_string(), "corpora": {}}

    started = time.monotonic()
    small = Index(os.path.join(args.work, "xapian-52"))
    add_table_shows(small, shows)
    small.commit()
    indexed = time.monotonic() - started
    result["corpora"]["52"] = dict(score(small.db, small.languages, queries),
                                   documents=small.documents, index_seconds=indexed,
                                   stemmers=sorted(small.languages))

    if args.database_url:
        started = time.monotonic()
        full = Index(os.path.join(args.work, "xapian-full"))
        add_table_shows(full, shows)
        complete = add_directory(full, args.database_url, args.budget, started)
        if complete:
            full.commit()
            indexed = time.monotonic() - started
            result["corpora"]["full"] = dict(score(full.db, full.languages, queries),
                                             documents=full.documents, index_seconds=indexed,
                                             stemmers=sorted(full.languages))
        else:
            result["full_given_up"] = {"documents": full.documents, "budget": args.budget}
        full.db.close()
        shutil.rmtree(os.path.join(args.work, "xapian-full"), ignore_errors=True)

    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    for name, corpus in result["corpora"].items():
        hits = sum(h for h, _ in corpus["kinds"].values())
        total = sum(t for _, t in corpus["kinds"].values())
        print(f"{name}: {corpus['documents']} documents indexed in {corpus['index_seconds']:.1f} s;"
              f" recall {hits}/{total}")
    if "full_given_up" in result:
        print(f"full: given up after {result['full_given_up']['documents']} documents"
              f" ({args.budget:.0f} s budget)")


if __name__ == "__main__":
    main()
