/* symbolizer: the monitor's side — owners' processes started, asked and
 * ended, their answers cached (see symbolizer.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/procfs.h"
#include "privsep.h"
#include "symbolizer.h"

/* One owner's process. */
struct owner {
	uid_t uid;
	gid_t gid;
	struct td_child k; /* k.pid 0: not running (not yet, or ended) */
	bool given_up;	   /* ended for good: its addresses are "[unknown]" */
};

/* A process's owner, read once: an index into owners, -1 unknown. */
struct pid_owner {
	pid_t pid;
	int owner;
	bool maps_sent; /* its /proc/PID/maps handed to the owner's process */
};

/* An address answered; the strings are the table's. */
struct addr {
	pid_t pid;
	uint64_t ip;
	bool used;
	struct td_symbol sym;
};

struct td_symbolizer {
	struct td_resolver r;
	char *exe; /* NULL: /proc/self/exe */
	void (*say)(void *ctx, const char *line);
	void *ctx;
	struct owner *owners;
	int nowners;
	struct pid_owner *pids;
	int npids;
	struct addr *addrs; /* open addressing, power-of-two capacity */
	size_t cap, used;
	char **strs; /* every string answered, once (open addressing, power-of-two capacity) */
	size_t scap, sused;
	uint64_t next_id, asked;
	int started;
};

static const struct td_symbol unknown = { .function = "[unknown]", .module = "[unknown]" };

static void say(struct td_symbolizer *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct td_symbolizer *z, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!z->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	z->say(z->ctx, line);
}

static uint64_t bytes_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static char **str_slot(char **strs, size_t cap, const char *s, size_t n)
{
	size_t i = (size_t)bytes_hash(s, n) & (cap - 1);

	while (strs[i] && !(strlen(strs[i]) == n && !memcmp(strs[i], s, n)))
		i = (i + 1) & (cap - 1);
	return &strs[i];
}

/* s (n bytes, no NUL) as a string of the table; NULL: out of memory. */
static const char *intern(struct td_symbolizer *z, const char *s, size_t n)
{
	char **slot;

	if ((z->sused + 1) * 2 > z->scap) {
		size_t cap = z->scap ? z->scap * 2 : 256;
		char **t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < z->scap; i++)
			if (z->strs[i])
				*str_slot(t, cap, z->strs[i], strlen(z->strs[i])) = z->strs[i];
		free(z->strs);
		z->strs = t;
		z->scap = cap;
	}
	slot = str_slot(z->strs, z->scap, s, n);
	if (!*slot) {
		if (!(*slot = malloc(n + 1)))
			return NULL;
		memcpy(*slot, s, n);
		(*slot)[n] = '\0';
		z->sused++;
	}
	return *slot;
}

static struct addr *addr_slot(struct addr *a, size_t cap, pid_t pid, uint64_t ip)
{
	uint64_t h = ip * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uint32_t)pid;
	size_t i = (size_t)((h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull) & (cap - 1);

	while (a[i].used && !(a[i].pid == pid && a[i].ip == ip))
		i = (i + 1) & (cap - 1);
	return &a[i];
}

/* The address table with room for one more, keeping only keep()'s
 * entries (NULL: every one). -1: out of memory. */
static int addrs_rebuild(struct td_symbolizer *z, size_t cap, bool (*keep)(struct td_symbolizer *, pid_t))
{
	struct addr *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	z->used = 0;
	for (size_t i = 0; i < z->cap; i++)
		if (z->addrs[i].used && (!keep || keep(z, z->addrs[i].pid))) {
			*addr_slot(t, cap, z->addrs[i].pid, z->addrs[i].ip) = z->addrs[i];
			z->used++;
		}
	free(z->addrs);
	z->addrs = t;
	z->cap = cap;
	return 0;
}

/* The owner of pid, its credentials read at its first address: the real
 * uid and gid, the user who started it (a set-user-ID program's files are
 * then read with its user's rights, not its owner's). */
static struct pid_owner *owner_of(struct td_symbolizer *z, pid_t pid)
{
	struct pid_owner *po;
	uid_t uid;
	gid_t gid;
	int o = -1;

	for (int i = 0; i < z->npids; i++)
		if (z->pids[i].pid == pid)
			return &z->pids[i];
	if (td_proc_owner(pid, &uid, &gid) == 0) {
		for (int i = 0; i < z->nowners && o < 0; i++)
			if (z->owners[i].uid == uid && z->owners[i].gid == gid)
				o = i;
		if (o < 0) {
			struct owner *ow = td_array_push(&z->owners, &z->nowners, sizeof(*ow));
			if (!ow)
				return NULL;
			*ow = (struct owner){ .uid = uid, .gid = gid, .k = { .role = "symbolizer" } };
			o = z->nowners - 1;
		}
	}
	if (!(po = td_array_push(&z->pids, &z->npids, sizeof(*po))))
		return NULL;
	*po = (struct pid_owner){ .pid = pid, .owner = o };
	return po;
}

/* for a process whose channel closed to end of itself: as long as for an answer
 * (a loaded host may not run it for a while: 200 ms, as it was, is a short time there) */
#define EXIT_WAIT_MS TD_SYMBOLIZER_WAIT_MS

/* ow's process ended for good, why said; ending: it closed its channel and
 * is ending of itself. */
static void give_up(struct td_symbolizer *z, struct owner *ow, const char *why, bool ending)
{
	char how[128];
	pid_t pid = ow->k.pid;
	siginfo_t si;

	/* a process that closed its channel is ending: its own status is the one to say, not the
	 * SIGKILL td_child_end would give it (waited for without reaping: WNOWAIT) */
	for (int i = 0; i < EXIT_WAIT_MS / 5; i++) {
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == pid)
			break;
		if (!ending)
			break; /* alive and not ending: ended now */
		usleep(5000);
	}
	td_child_end(&ow->k, how, sizeof(how));
	ow->given_up = true;
	say(z, "hotspots: the symbolizer of uid %u gid %u (process %d) %s%s%s: its addresses are [unknown] from now on",
	    (unsigned)ow->uid, (unsigned)ow->gid, (int)pid, why, how[0] ? ", " : "", how);
}

static int start(struct td_symbolizer *z, struct owner *ow)
{
	td_err err;

	if (td_child_spawn(&ow->k, z->exe, ow->uid, ow->gid, &err)) {
		ow->given_up = true;
		say(z, "hotspots: no symbolizer for uid %u gid %u: %s: its addresses are [unknown]", (unsigned)ow->uid,
		    (unsigned)ow->gid, err.msg);
		return -1;
	}
	z->started++;
	say(z, "hotspots: symbolizer process %d started for uid %u gid %u", (int)ow->k.pid, (unsigned)ow->uid,
	    (unsigned)ow->gid);
	return 0;
}

/* Ask the owner's process for ip of po's process and wait for its answer
 * into out; with the first, the process's /proc/PID/maps, opened here (the
 * kernel checks who may read it at open: a process of the owner's without
 * capabilities may not read a capable one's, nor a non-dumpable one's),
 * so that it lists the modules the kernel says are mapped. -1: the
 * process was given up (said). */
static int ask(struct td_symbolizer *z, struct pid_owner *po, uint64_t ip, struct td_symbol *out)
{
	struct owner *ow = &z->owners[po->owner];
	struct td_imsg m = { .type = TD_IMSG_RESOLVE };
	uint64_t id = ++z->next_id, deadline;
	char why[TD_IMSG_LINE_MAX + 64], path[64];
	int maps = -1, rc;
	td_err err;

	if (ow->given_up || (!ow->k.pid && start(z, ow)))
		return -1;
	m.u.resolve.id = id;
	m.u.resolve.pid = po->pid;
	m.u.resolve.ip = ip;
	if (!po->maps_sent) {
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)po->pid);
		maps = open(path, O_RDONLY | O_CLOEXEC); /* gone: its process answers from what it has */
		po->maps_sent = true;
	}
	rc = td_chan_send(ow->k.ch, &m, maps, &err);
	if (maps >= 0)
		close(maps);
	if (rc) {
		snprintf(why, sizeof(why), "could not be asked: %s", err.msg);
		give_up(z, ow, why, false);
		return -1;
	}
	z->asked++;
	deadline = td_now_ns() + (uint64_t)TD_SYMBOLIZER_WAIT_MS * 1000000ull;
	for (;;) {
		int fd;
		rc = td_chan_recv(ow->k.ch, &m, &fd, &err);
		if (rc == 1) {
			if (fd >= 0)
				close(fd);
			if (m.type == TD_IMSG_SYMBOL && m.u.symbol.id == id) {
				const char *fn = intern(z, m.u.symbol.function, m.u.symbol.function_len);
				const char *mod = intern(z, m.u.symbol.module, m.u.symbol.module_len);
				const char *file =
					m.u.symbol.file_len ? intern(z, m.u.symbol.file, m.u.symbol.file_len) : NULL;
				if (!fn || !mod || (m.u.symbol.file_len && !file))
					return -1; /* out of memory: "[unknown]" this time */
				*out = (struct td_symbol){ fn, mod, file, m.u.symbol.line };
				return 0;
			}
			if (m.type == TD_IMSG_FAILED) {
				snprintf(why, sizeof(why), "could not start: %.*s", (int)m.u.line.len, m.u.line.text);
				give_up(z, ow, why, false);
				return -1;
			}
			/* anything else: no earlier question is left waiting (each is answered or its
			 * process ended), so another id is as wrong as another type */
			snprintf(why, sizeof(why), "sent a %s message not asked for", td_imsg_type_name(m.type));
			give_up(z, ow, why, false);
			return -1;
		}
		if (rc < 0) {
			snprintf(why, sizeof(why), "%s: %s",
				 td_chan_refused(ow->k.ch) ? "sent what the internal protocol refuses"
							   : "closed its channel",
				 err.msg);
			give_up(z, ow, why, !td_chan_refused(ow->k.ch));
			return -1;
		}
		uint64_t now = td_now_ns();
		if (now >= deadline) {
			snprintf(why, sizeof(why), "did not answer within %d ms", TD_SYMBOLIZER_WAIT_MS);
			give_up(z, ow, why, false);
			return -1;
		}
		struct pollfd p = { .fd = td_chan_fd(ow->k.ch),
				    .events = (short)(POLLIN | (td_chan_pending(ow->k.ch) ? POLLOUT : 0)) };
		int ms = (int)((deadline - now + 999999ull) / 1000000ull);
		if (poll(&p, 1, ms) < 0 && errno != EINTR) {
			snprintf(why, sizeof(why), "could not be waited for: %s", strerror(errno));
			give_up(z, ow, why, false);
			return -1;
		}
		if ((p.revents & POLLOUT) && td_chan_flush(ow->k.ch, &err)) {
			snprintf(why, sizeof(why), "closed its channel: %s", err.msg);
			give_up(z, ow, why, true);
			return -1;
		}
	}
}

static void resolve(void *ctx, pid_t pid, uint64_t ip, struct td_symbol *out)
{
	struct td_symbolizer *z = ctx;
	struct addr *a;
	struct pid_owner *po;

	*out = unknown;
	if ((z->used + 1) * 2 > z->cap && addrs_rebuild(z, z->cap ? z->cap * 2 : 1024, NULL))
		return;
	a = addr_slot(z->addrs, z->cap, pid, ip);
	if (a->used) {
		*out = a->sym;
		return;
	}
	if (!(po = owner_of(z, pid)) || po->owner < 0 || ask(z, po, ip, out))
		return; /* not kept: a process given up says so once, and nothing is asked of it again */
	*a = (struct addr){ .pid = pid, .ip = ip, .used = true, .sym = *out };
	z->used++;
}

static bool alive(struct td_symbolizer *z, pid_t pid)
{
	(void)z;
	return kill(pid, 0) == 0 || errno != ESRCH;
}

/* A period ended: each owner's process told (its td_symbols_epoch); the
 * processes that are gone forgotten here (a pid used again is another
 * process, perhaps another owner's). */
static void epoch(void *ctx)
{
	struct td_symbolizer *z = ctx;
	struct td_imsg m = { .type = TD_IMSG_EPOCH };
	bool gone = false;
	td_err err;
	int n = 0;

	for (int i = 0; i < z->nowners; i++) {
		struct owner *ow = &z->owners[i];
		if (ow->k.pid && td_chan_send(ow->k.ch, &m, -1, &err)) {
			char why[TD_IMSG_LINE_MAX + 64];
			snprintf(why, sizeof(why), "could not be told a period ended: %s", err.msg);
			give_up(z, ow, why, false);
		}
	}
	for (int i = 0; i < z->npids; i++) {
		if (alive(z, z->pids[i].pid))
			z->pids[n++] = z->pids[i];
		else
			gone = true;
	}
	z->npids = n;
	/* their addresses let go (out of memory: kept, the next period tries again) */
	if (gone && z->cap)
		addrs_rebuild(z, z->cap, alive);
}

struct td_symbolizer *td_symbolizer_new(const char *exe, void (*say_fn)(void *ctx, const char *line), void *ctx)
{
	struct td_symbolizer *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	if (exe && !(z->exe = strdup(exe))) {
		free(z);
		return NULL;
	}
	z->say = say_fn;
	z->ctx = ctx;
	z->r = (struct td_resolver){ .resolve = resolve, .epoch = epoch, .ctx = z };
	return z;
}

const struct td_resolver *td_symbolizer_resolver(struct td_symbolizer *z)
{
	return &z->r;
}

int td_symbolizer_started(const struct td_symbolizer *z)
{
	return z->started;
}

uint64_t td_symbolizer_asked(const struct td_symbolizer *z)
{
	return z->asked;
}

void td_symbolizer_free(struct td_symbolizer *z)
{
	if (!z)
		return;
	if (z->started)
		say(z, "hotspots: %llu address%s named by %d symbolizer%s, %zu kept", (unsigned long long)z->asked,
		    z->asked == 1 ? "" : "es", z->started, z->started == 1 ? "" : "s", z->used);
	for (int i = 0; i < z->nowners; i++)
		if (z->owners[i].k.pid)
			td_child_end(&z->owners[i].k, NULL, 0);
	for (size_t i = 0; i < z->scap; i++)
		free(z->strs[i]);
	free(z->strs);
	free(z->addrs);
	free(z->pids);
	free(z->owners);
	free(z->exe);
	free(z);
}
