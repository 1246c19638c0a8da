# hour-session.awk: perf stat -x; output of a one-hour session at 1 s
# intervals with 50 threads (w-1000 .. w-1049) and Skylake's level-1 events,
# values varying by interval, thread and event. Used by
# tests/integration/report_size.sh and bench/bench_report.sh.
BEGIN {
	split("cpu/event=0x3c,umask=0x0/ cpu/event=0x9c,umask=0x1/ cpu/event=0xc2,umask=0x2/ cpu/event=0xe,umask=0x1/ cpu/event=0xd,umask=0x1/ cpu/event=0xc0,umask=0x0/", ev, " ")
	split("1000000000 800000000 1600000000 1800000000 50000000 1500000000", base, " ")
	for (t = 1; t <= 3600; t++) for (th = 0; th < 50; th++) for (e = 1; e <= 6; e++)
		printf "%d.000000000;w-%d;%d;;%s;1000000000;100.00;;\n", t, 1000 + th,
		       int(base[e] * (0.5 + ((t * 7 + th * 13 + e) % 100) / 100)), ev[e]
}
