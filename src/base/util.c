/* util: error buffers, small-file reading, trimming, the growable array, clocks. */
#include "util.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void td_err_set(td_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

void td_err_vset_at(td_err *e, const char *file, int line, const char *fmt, va_list ap)
{
	int n = snprintf(e->msg, sizeof(e->msg), "%s:%d: ", file, line);

	if (n >= 0 && (size_t)n < sizeof(e->msg))
		vsnprintf(e->msg + n, sizeof(e->msg) - (size_t)n, fmt, ap);
}

int td_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			int err = errno;
			if (err == EINTR)
				continue;
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return (int)total;
}

int td_open_own(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return -1;
	}
	return fd;
}

int td_read_long(const char *path, long *out)
{
	char buf[64];
	int n = td_read_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	return td_parse_long(td_trim(buf), LONG_MIN, LONG_MAX, out) ? -EINVAL : 0;
}

int td_slurp(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	int rc;

	if (!f)
		return -errno;
	rc = td_slurp_stream(f, out, len);
	fclose(f);
	return rc;
}

int td_slurp_stream(FILE *f, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, used = 0;

	for (;;) {
		if (cap - used < 4096) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		size_t n = fread(buf + used, 1, cap - used - 1, f);
		used += n;
		if (n == 0)
			break;
	}
	int err = ferror(f) ? -EIO : 0;
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

char *td_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

int td_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t td_now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}
uint64_t td_wall_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

uint64_t td_process_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

char *td_next_word(char **s)
{
	char *p = *s, *w;

	while (isspace((unsigned char)*p))
		p++;
	w = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = '\0';
	while (isspace((unsigned char)*p))
		p++;
	*s = p;
	return w;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int td_list_dir(const char *dir, const char *suffix, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t sl = strlen(suffix);
	int n = 0;

	*names = NULL;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nn;
		if (l <= sl || strcmp(de->d_name + l - sl, suffix))
			continue;
		if (!(nn = realloc(*names, (size_t)(n + 1) * sizeof(*nn))))
			break;
		*names = nn;
		if (((*names)[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	if (n)
		qsort(*names, (size_t)n, sizeof(**names), cmp_name); /* deterministic order */
	return n;
}

void td_free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int cmp_id(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key, b;

	memcpy(&b, elem, sizeof(b));
	return (a > b) - (a < b);
}

void *td_find_by_id(const void *base, size_t n, size_t size, int64_t id)
{
	return n ? bsearch(&id, base, n, size, cmp_id) : NULL;
}

void *td_array_push(void *arrp, int *n, size_t size)
{
	void *arr, *elem;

	assert(*n >= 0 && size > 0);
	memcpy(&arr, arrp, sizeof(arr));
	if ((*n & (*n - 1)) == 0) { /* 0 or a power of two: the capacity is full */
		size_t cap = *n ? 2 * (size_t)*n : 1;
		if (*n > INT_MAX / 2 || cap > SIZE_MAX / size || !(arr = realloc(arr, cap * size)))
			return NULL;
		memcpy(arrp, &arr, sizeof(arr));
	}
	elem = (char *)arr + (size_t)*n * size;
	memset(elem, 0, size);
	(*n)++;
	return elem;
}

int td_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double seconds;
	} units[] = { { "ms", 1e-3 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 } };
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0) || *s == '+' || *s == ' ')
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		/* at most 10^10 s (317 years): the ns fit in 64 bits */
		if (v * units[i].seconds > 1e10 || v * units[i].seconds * 1e9 < 1)
			return -1;
		*ns = (uint64_t)(v * units[i].seconds * 1e9 + 0.5);
		return 0;
	}
	return -1;
}
