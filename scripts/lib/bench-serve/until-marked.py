# until-marked.py MARKERS THREADS OUT WRK-COMMAND...: wrk, interrupted (SIGINT: it reports then,
# over the time it ran) as soon as every thread has left its done-<k> file in MARKERS. wrk
# itself always sleeps for its whole -d; -d is only the bound here. Exit status 3: wrk ran to that
# bound, the pass unfinished.
import os, signal, subprocess, sys, time
markers, threads, out, command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
with open(out, "w") as report:
    wrk = subprocess.Popen(command, stdout=report, stderr=subprocess.STDOUT)
    while wrk.poll() is None:
        if sum(name.startswith("done-") for name in os.listdir(markers)) >= threads:
            wrk.send_signal(signal.SIGINT)
            break
        time.sleep(0.001)
    wrk.wait()
sys.exit(0 if wrk.returncode == -signal.SIGINT or wrk.returncode == 0 and
         sum(name.startswith("done-") for name in os.listdir(markers)) >= threads else 3)
