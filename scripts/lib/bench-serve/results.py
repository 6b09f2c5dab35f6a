# results.py: the rows the bench scripts' measure() writes, one wrk run a line
# ("scenario=S server=V key=value ..."), read back for their tables (bench-serve's, bench-api's).
import shlex


def read_rows(path):
    """The rows of the file at path, by (scenario, server)."""
    rows = {}
    for line in open(path):
        row = dict(token.split("=", 1) for token in shlex.split(line))
        rows[(row["scenario"], row["server"])] = row
    return rows


def number(rows, scenario, server, key):
    """A figure of a row; None when absent, not a number, or negative (parse-wrk.py's -1)."""
    try:
        value = float(rows.get((scenario, server), {}).get(key, -1))
    except ValueError:
        return None
    return value if value >= 0 else None


def problems(rows, scenario, server):
    """What went wrong in a run: errors, no result, a pass unfinished; empty when nothing."""
    row = rows.get((scenario, server), {})
    if "missing" in row:
        return ["not run (serve had died)"]
    found = []
    if int(row.get("non2xx3xx", 0)):
        found.append(f"{row['non2xx3xx']} non-2xx/3xx")
    if int(row.get("socket_errors", 0)):
        found.append(f"{row['socket_errors']} socket errors")
    if number(rows, scenario, server, "rps") is None:
        found.append("no wrk result")
    if "incomplete" in row:
        found.append("pass unfinished within its time bound")
    return found


def ms(value):
    return "–" if value is None else (f"{value:.2f} ms" if value < 10 else f"{value:.0f} ms")
