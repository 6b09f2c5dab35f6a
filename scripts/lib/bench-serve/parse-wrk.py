# parse-wrk.py REPORT: wrk's report as key=value: requests/s, p99 in ms, requests and the
# seconds they took, 4xx/5xx and socket errors.
import re, sys
text = open(sys.argv[1]).read()
units = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4, "h": 3.6e6}
def number(pattern, default="-1"):
    match = re.search(pattern, text, re.M)
    return match.group(1) if match else default
p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)
socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
rps = number(r"^Requests/sec:\s+([\d.]+)")
requests = number(r"^\s*(\d+) requests in")
ran = re.search(r"requests in ([\d.]+)(us|ms|s|m|h),", text)
seconds = float(ran.group(1)) * units[ran.group(2)] / 1e3 if ran else -1
non2xx3xx = number(r"Non-2xx or 3xx responses: (\d+)", "0")
p99_ms = float(p99.group(1)) * units[p99.group(2)] if p99 else -1
socket_errors = sum(map(int, socket.groups())) if socket else 0
print(f"rps={rps} p99_ms={p99_ms:.3f} requests={requests} seconds={seconds:.3f} non2xx3xx={non2xx3xx}"
      f" socket_errors={socket_errors}")
