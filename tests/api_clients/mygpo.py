#!/usr/bin/python3
"""Search a podcrawl server's gpodder.net directory with mygpoclient (Debian's python3-mygpoclient).

Usage: mygpo.py ROOT_URL TERM

PublicClient(root_url=ROOT_URL).search_podcasts(TERM) builds simple.Podcast objects, refusing an
answer that lacks any field of simple.Podcast.REQUIRED_FIELDS. Prints the podcasts found as a
JSON array of those fields; exits 1 (with the client's error) when the search fails.
"""
import json
import sys

from mygpoclient import public, simple


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root_url, term = sys.argv[1], sys.argv[2]
    client = public.PublicClient(root_url=root_url)
    podcasts = client.search_podcasts(term)
    found = [{field: getattr(podcast, field) for field in simple.Podcast.REQUIRED_FIELDS}
             for podcast in podcasts]
    json.dump(found, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
