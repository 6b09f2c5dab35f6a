# cpu.py SERVE_PID POSTMASTER_PID [BEFORE]: the CPU seconds (user + system) podcrawl serve and
# the PostgreSQL cluster (the postmaster and its processes, those ended included) have used so
# far, as "serve=S postgres=P"; with BEFORE, an earlier output, what they used since, as
# "cpu_serve=S cpu_postgres=P".
import os, sys

ticks = os.sysconf("SC_CLK_TCK")


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    # After the name: state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based from pid.
    return int(fields[1]), sum(int(x) for x in fields[11:15])


def seconds(pid, children):
    total = stat(pid)[1]
    if children:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    parent, used = stat(entry)
                except (FileNotFoundError, ProcessLookupError, ValueError):
                    continue
                if parent == pid:
                    total += used
    return total / ticks


now = {"serve": seconds(int(sys.argv[1]), False), "postgres": seconds(int(sys.argv[2]), True)}
if len(sys.argv) > 3:
    before = dict(part.split("=") for part in sys.argv[3].split())
    print(" ".join(f"cpu_{name}={now[name] - float(before[name]):.2f}" for name in now))
else:
    print(" ".join(f"{name}={used:.2f}" for name, used in now.items()))
