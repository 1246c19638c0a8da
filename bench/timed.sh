# timed.sh: sourced by the benches. timed OUT CMD...: runs CMD at SCHED_FIFO 1 from its exec on
# and writes "USER_S SYSTEM_S MAXRSS_KB" of it and what it waited for into OUT (wait4's rusage:
# microseconds, where /usr/bin/time prints 10 ms). At real-time priority from the exec: beside
# 1,000 busy threads a command started at SCHED_OTHER waits its turn behind them through its
# exec and dynamic linking (a wrapper at SCHED_OTHER delayed both tools of bench_vs_perf by over
# a minute, and the target ended first).
timed() {
	chrt -f 1 python3 -c 'import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write("%.6f %.6f %d\n" % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss))' "$@"
}
