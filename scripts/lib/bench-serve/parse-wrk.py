# parse-wrk.py REPORT: wrk's report as key=value: requests/s, p99 and p50 in ms, requests and
# the seconds they took, 4xx/5xx and socket errors.
import re, sys
text = open(sys.argv[1]).read()
units = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4, "h": 3.6e6}
def number(pattern, default="-1"):
    match = re.search(pattern, text, re.M)
    return match.group(1) if match else default
def percentile_ms(p):
    match = re.search(rf"^\s*{p}%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)
    return float(match.group(1)) * units[match.group(2)] if match else -1
socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
rps = number(r"^Requests/sec:\s+([\d.]+)")
requests = number(r"^\s*(\d+) requests in")
ran = re.search(r"requests in ([\d.]+)(us|ms|s|m|h),", text)
seconds = float(ran.group(1)) * units[ran.group(2)] / 1e3 if ran else -1
non2xx3xx = number(r"Non-2xx or 3xx responses: (\d+)", "0")
socket_errors = sum(map(int, socket.groups())) if socket else 0
print(f"rps={rps} p99_ms={percentile_ms(99):.3f} p50_ms={percentile_ms(50):.3f} requests={requests}"
      f" seconds={seconds:.3f} non2xx3xx={non2xx3xx} socket_errors={socket_errors}")
