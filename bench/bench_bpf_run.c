/* bench_bpf_run: the run time per invocation of BPF programs, for
 * bench_target.sh. Loads and attaches the programs of EMPTY_OBJ (the floor:
 * bench/empty_switch.bpf.c), turns the kernel's run-time statistics on
 * (BPF_ENABLE_STATS, as kernel.bpf_stats_enabled=1, for as long as this
 * runs), prints "ready", then every 20 ms reads run_cnt and run_time_ns of
 * every loaded program named one of NAMES (bpf_obj_get_info_by_fd), keeping
 * each program's last reading: a program unloaded meanwhile keeps what it
 * had at most 20 ms before. On SIGTERM or SIGINT prints one line per program
 * seen: "prog NAME id ID run_cnt N run_time_ns T ns_per_run X" (X n/a when it
 * never ran). Needs root (CAP_BPF and CAP_PERFMON, CAP_SYS_ADMIN for the
 * statistics).
 * On SIGUSR1 prints the same lines as of then, each starting "mark " instead
 * of "prog ", and goes on. EMPTY_OBJ "-" loads nothing: the statistics only (a test tool too,
 * tests/tools/bpf_run_stats: counting_bpf.sh counts the flush's runs).
 * Usage: bench_bpf_run EMPTY_OBJ NAME... */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEEN 256

struct seen {
	__u32 id;
	char name[BPF_OBJ_NAME_LEN];
	__u64 run_cnt, run_time_ns;
};

static volatile sig_atomic_t stop, mark;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		mark = 1;
	else
		stop = 1;
}

/* One line per program seen, each starting with `what`. */
static void print(const char *what, const struct seen *seen, int nseen)
{
	for (int i = 0; i < nseen; i++) {
		printf("%s %s id %u run_cnt %llu run_time_ns %llu ns_per_run ", what, seen[i].name, seen[i].id,
		       (unsigned long long)seen[i].run_cnt, (unsigned long long)seen[i].run_time_ns);
		if (seen[i].run_cnt)
			printf("%.1f\n", (double)seen[i].run_time_ns / (double)seen[i].run_cnt);
		else
			printf("n/a\n");
	}
	fflush(stdout);
}

static int scan(struct seen *seen, int *nseen, char **names, int nnames)
{
	__u32 id = 0;

	while (bpf_prog_get_next_id(id, &id) == 0) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id), i;
		bool wanted = false;

		if (fd < 0)
			continue; /* gone meanwhile */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			close(fd);
			continue;
		}
		close(fd);
		for (i = 0; i < nnames; i++)
			if (strncmp(info.name, names[i], BPF_OBJ_NAME_LEN - 1) == 0)
				wanted = true;
		if (!wanted)
			continue;
		for (i = 0; i < *nseen && seen[i].id != id; i++)
			;
		if (i == *nseen) {
			if (*nseen == MAX_SEEN) {
				fprintf(stderr, "bench_bpf_run: more than %d programs of those names\n", MAX_SEEN);
				return -1;
			}
			(*nseen)++;
			seen[i].id = id;
			snprintf(seen[i].name, sizeof(seen[i].name), "%s", info.name);
		}
		seen[i].run_cnt = info.run_cnt;
		seen[i].run_time_ns = info.run_time_ns;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct seen seen[MAX_SEEN];
	struct bpf_object *obj = NULL;
	struct bpf_program *prog;
	struct sigaction sa = { .sa_handler = on_signal };
	int nseen = 0, stats_fd, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_bpf_run EMPTY_OBJ NAME...\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	if (strcmp(argv[1], "-") && (!(obj = bpf_object__open_file(argv[1], NULL)) || bpf_object__load(obj))) {
		fprintf(stderr, "bench_bpf_run: %s did not load (%s)\n", argv[1], strerror(errno));
		return 1;
	}
	if (obj)
		bpf_object__for_each_program(prog, obj)
		{
			if (!bpf_program__attach(prog)) {
				fprintf(stderr, "bench_bpf_run: %s did not attach (%s)\n", bpf_program__name(prog),
					strerror(errno));
				return 1;
			}
		}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "bench_bpf_run: the run-time statistics could not be turned on (%s)\n",
			strerror(-stats_fd));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop && rc == 0) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		rc = scan(seen, &nseen, argv + 2, argc - 2);
		if (mark && rc == 0) {
			mark = 0;
			print("mark", seen, nseen);
		}
		nanosleep(&ts, NULL);
	}
	if (rc == 0)
		rc = scan(seen, &nseen, argv + 2, argc - 2);
	print("prog", seen, nseen);
	close(stats_fd);
	bpf_object__close(obj);
	return rc ? 1 : 0;
}
