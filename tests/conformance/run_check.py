#!/usr/bin/env python3
"""Acceptance checks of `podcrawl parse` against the shared conformance corpus.

usage: run_check.py --corpus DIR --folder NAME [--min-percent P] -- COMMAND [ARGS...]
       run_check.py --corpus DIR --realfeeds -- COMMAND [ARGS...]

--folder runs DIR/check.py on one folder and passes when at least P percent (default 98) of
its cases pass, printing every failing case either way (check.py itself fails on any failure).
Cases listed in spec_divergences.tsv, whose expectation contradicts SPEC.md, are reported with
the reason and left out of the percentage when they fail.

--realfeeds runs COMMAND FILE on every file of DIR/realfeeds (SOURCES.tsv aside) and passes
when each exits 0 with a JSON object whose episode count is plausible: at least one episode
where the file has <item> or <entry> elements, and no fewer than the number of those elements
less the duplicates a feed may legitimately repeat (k_duplicate_allowance). A file whose root
element is not a feed (rss, rdf:RDF, feed) must instead be refused with exit status 2.

Exit status: 0 pass, 1 fail, 77 skip (DIR is absent: the corpus lives beside the checkout at
../shared/conformance and is not part of a plain clone).
"""
import argparse
import json
import os
import re
import subprocess
import sys

k_skip = 77
k_timeout_seconds = 30
# Share of a file's <item>/<entry> elements that may be duplicates removed within the document.
k_duplicate_allowance = 0.05
k_summary = re.compile(r'^(\d+) passed, (\d+) failed$')
k_entry = re.compile(rb'<(?:[A-Za-z0-9_]+:)?(?:item|entry)[\s/>]')
# The first element of the document: after the XML declaration, comments, PIs and a DOCTYPE.
k_root = re.compile(rb'<([A-Za-z_][A-Za-z0-9_.:-]*)[\s/>]')
k_feed_roots = {b'rss', b'rdf:RDF', b'RDF', b'feed'}


def load_divergences():
    """Cases whose expectation contradicts SPEC.md: {"folder/case": reason}."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'spec_divergences.tsv')
    divergences = {}
    for line in open(path, encoding='utf-8'):
        if line.strip() and not line.startswith('#'):
            case, reason = line.rstrip('\n').split('\t', 1)
            divergences[case] = reason
    return divergences


def check_folder(corpus, folder, min_percent, command):
    result = subprocess.run(
        [sys.executable, os.path.join(corpus, 'check.py'), '--verbose', '--only', folder, '--']
        + command, capture_output=True, text=True)
    lines = result.stdout.splitlines()
    divergences = load_divergences()
    diverging = 0
    for line in lines:
        if line.startswith('FAIL '):
            case = line[len('FAIL '):].split(':', 1)[0]
            if case in divergences:
                diverging += 1
                print('SPEC %s: %s' % (case, divergences[case]))
            else:
                print(line)
    summary = k_summary.match(lines[-1].strip()) if lines else None
    if summary is None:
        print('check.py printed no summary (exit status %d):' % result.returncode)
        print(result.stdout, result.stderr, sep='\n')
        return 1
    passed, failed = int(summary.group(1)), int(summary.group(2))
    total = passed + failed - diverging
    if total <= 0:
        print('folder %r has no cases in %s' % (folder, corpus))
        return 1
    percent = 100.0 * passed / total
    verdict = 'ok' if percent >= min_percent else 'FAILED'
    print('%s: %d/%d passed (%.2f%%, at least %g%% required; %d case(s) left out where the '
          'corpus contradicts SPEC.md): %s'
          % (folder, passed, total, percent, min_percent, diverging, verdict))
    return 0 if percent >= min_percent else 1


def root_element(data):
    at = 0
    while True:
        match = k_root.search(data, at)
        if match is None:
            return None
        start = match.start()
        # Skip tags that sit inside a comment.
        comment = data.rfind(b'<!--', 0, start)
        if comment != -1 and data.find(b'-->', comment) > start:
            at = data.find(b'-->', comment) + 3
            continue
        return match.group(1)


def check_realfeed(path, command):
    data = open(path, 'rb').read()
    is_feed = root_element(data) in k_feed_roots
    try:
        result = subprocess.run(command + [path], capture_output=True, timeout=k_timeout_seconds)
    except subprocess.TimeoutExpired:
        return 'timeout after %d s' % k_timeout_seconds
    stderr = result.stderr.decode('utf-8', 'replace').strip()[-300:]
    if not is_feed:
        if result.returncode != 2:
            return 'not a feed, expected exit status 2, got %d' % result.returncode
        print('     realfeeds/%s is not a feed (root <%s>) and was refused: %s'
              % (os.path.basename(path), root_element(data).decode('utf-8', 'replace'), stderr))
        return None
    if result.returncode != 0:
        return 'exit status %d: %s' % (result.returncode, stderr)
    try:
        show = json.loads(result.stdout.decode('utf-8'))
    except (ValueError, UnicodeDecodeError) as error:
        return 'bad JSON output: %s' % error
    episodes = show.get('episodes') if isinstance(show, dict) else None
    if not isinstance(episodes, list):
        return 'no "episodes" array'
    elements = len(k_entry.findall(data))
    floor = int(elements * (1 - k_duplicate_allowance))
    if elements > 0:
        floor = max(floor, 1)
    if len(episodes) < floor:
        return '%d episodes from %d <item>/<entry> elements (at least %d expected)' % (
            len(episodes), elements, floor)
    if len(episodes) > elements:
        return '%d episodes from only %d <item>/<entry> elements' % (len(episodes), elements)
    return None


def check_realfeeds(corpus, command):
    folder = os.path.join(corpus, 'realfeeds')
    if not os.path.isdir(folder):
        print('%s is absent' % folder)
        return 1
    files = sorted(f for f in os.listdir(folder)
                   if f != 'SOURCES.tsv' and os.path.isfile(os.path.join(folder, f)))
    failures = 0
    for name in files:
        problem = check_realfeed(os.path.join(folder, name), command)
        if problem:
            failures += 1
            print('FAIL realfeeds/%s: %s' % (name, problem))
        else:
            print('ok   realfeeds/%s' % name)
    print('realfeeds: %d/%d files parsed plausibly' % (len(files) - failures, len(files)))
    return 0 if failures == 0 and files else 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--corpus', required=True)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument('--folder')
    which.add_argument('--realfeeds', action='store_true')
    parser.add_argument('--min-percent', type=float, default=98.0)
    parser.add_argument('command', nargs='+')
    options = parser.parse_args(argv)
    if not os.path.isfile(os.path.join(options.corpus, 'check.py')):
        print('SKIP: no conformance corpus at %s (it lives beside the checkout, at '
              '../shared/conformance, and is absent from a plain clone)' % options.corpus)
        return k_skip
    if options.realfeeds:
        return check_realfeeds(options.corpus, options.command)
    return check_folder(options.corpus, options.folder, options.min_percent, options.command)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
