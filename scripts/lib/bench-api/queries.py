# queries.py COUNT SEED SHOWS EPISODES: COUNT distinct search words of the kinds a listener types,
# drawn (by SEED) from the directory's own text, one a line, each as a search/byterm path.
# SHOWS holds "title<TAB>author" lines, EPISODES episode titles. The mix: a word of a show's
# title (35%), two neighbouring words of it (25%), a word of an episode's title (20%), a word of
# a show's author (10%), the first 3 or more letters of a long word, as typed so far (10%).
# Titles in Chinese and Japanese have no spaces: a run of their letters gives 2-4 of them.
import random, sys, unicodedata, urllib.parse

count, seed = int(sys.argv[1]), int(sys.argv[2])
shows = [line.rstrip("\n").split("\t") for line in open(sys.argv[3], encoding="utf-8") if "\t" in line]
episodes = [line.rstrip("\n") for line in open(sys.argv[4], encoding="utf-8") if line.strip()]
rng = random.Random(seed)


def unspaced(word):  # Han, kana: a script written without spaces between words
    return any(unicodedata.name(c, "").startswith(("CJK UNIFIED", "HIRAGANA", "KATAKANA")) for c in word)


def words(text):
    found = []
    for token in text.split():
        token = "".join(c for c in token if unicodedata.category(c)[0] in "LMN")
        if not token or token.isdigit():
            continue
        if unspaced(token) and len(token) > 4:
            length = rng.randint(2, 4)
            start = rng.randint(0, len(token) - length)
            token = token[start:start + length]
        if len(token) >= (2 if unspaced(token) else 3):
            found.append(token)
    return found


def one_of(text):
    found = words(text)
    return rng.choice(found) if found else None


def two_of(text):
    found = words(text)
    if len(found) < 2:
        return None
    start = rng.randrange(len(found) - 1)
    return found[start] + " " + found[start + 1]


def prefix_of(text):
    found = [w for w in words(text) if len(w) >= 5 and not unspaced(w)]
    if not found:
        return None
    word = rng.choice(found)
    return word[:rng.randint(3, len(word) - 1)]


kinds = [
    (0.35, lambda: one_of(rng.choice(shows)[0])),
    (0.25, lambda: two_of(rng.choice(shows)[0])),
    (0.20, lambda: one_of(rng.choice(episodes))),
    (0.10, lambda: one_of(rng.choice(shows)[1])),
    (0.10, lambda: prefix_of(rng.choice(shows)[0])),
]
queries, seen, attempts = [], set(), 0
while len(queries) < count and attempts < 50 * count:
    attempts += 1
    pick, total = rng.random(), 0.0
    for share, make in kinds:
        total += share
        if pick < total:
            break
    query = make()
    if query and query.casefold() not in seen:
        seen.add(query.casefold())
        queries.append(query)
if len(queries) < count:
    sys.exit(f"queries.py: only {len(queries)} distinct queries in the directory's text, not {count}")
for query in queries:
    print("/api/1.0/search/byterm?q=" + urllib.parse.quote(query, safe=""))
