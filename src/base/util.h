/* util: small helpers shared by every module — error buffers, file reading,
 * string trimming, monotonic time. Nothing here knows about perf or SQLite. */
#ifndef TD_UTIL_H
#define TD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An error message for the user: one line, says what went wrong and what to do. */
typedef struct td_err {
	char msg[512];
} td_err;

void td_err_set(td_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "FILE:LINE: message", for errors in a file the user wrote. */
void td_err_vset_at(td_err *e, const char *file, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* Read a whole small file (procfs, sysfs) into buf, NUL-terminated, trailing
 * newline stripped. Returns bytes read or -errno: a thin wrapper of the
 * system calls (open, read). */
int td_read_file(const char *path, char *buf, size_t len);
/* Open path for reading when it is a regular file of this user's that
 * nobody else can write (no symbolic link followed): what a cache of ours
 * may be taken from. A descriptor, or -1 (none, or not to be trusted). */
int td_open_own(const char *path);
/* Read a file holding one integer. Returns 0 or -errno: a thin wrapper of
 * the system calls (open, read; -EINVAL when it holds no integer). */
int td_read_long(const char *path, long *out);
/* Read an entire file into a malloc'd buffer (*out, NUL-terminated).
 * Returns 0 or -errno: a thin wrapper of the system calls (open, read). */
int td_slurp(const char *path, char **out, size_t *len);
/* The same for an open stream (e.g. stdin), which the caller closes. */
int td_slurp_stream(FILE *f, char **out, size_t *len);

char *td_trim(char *s);
/* Cut the next whitespace-separated word off *s (in place) and return it
 * ("" at the end); *s moves past the word and the blanks after it. */
char *td_next_word(char **s);
/* Names of the entries of dir ending in suffix, sorted, malloc'd
 * (free with td_free_names). Returns how many, or -1 if dir cannot be read. */
int td_list_dir(const char *dir, const char *suffix, char ***names);
void td_free_names(char **names, int n);
int td_parse_long(const char *s, long min, long max, long *out);
/* A positive duration "500ms", "2s", "10m", "12h", "7d" (fractions allowed,
 * from 1 ns to 10^10 s) into ns. 0, or -1 when it is not one. */
int td_parse_duration(const char *s, uint64_t *ns);

/* The element of base (n elements of size bytes, in ascending order of an
 * int64_t id that is each element's FIRST member) with this id, or NULL:
 * rows read back in id order are found by binary search. */
void *td_find_by_id(const void *base, size_t n, size_t size, int64_t id);

/* The one growable array: append one zeroed element to the array *arrp
 * (arrp: the address of a `T *`, NULL when empty) of *n elements of size
 * bytes and return it, counting it in *n; NULL when out of memory (the
 * array unchanged). The capacity is implicit — the next power of two of
 * the length, as SQLite's sqlite3ArrayAllocate does — so an array must
 * start empty and grow only through here (dropping elements from the end,
 * *n smaller, is fine); n pushes cost O(n) copies. Free it with free(). (Buffers emptied and refilled every poll keep an explicit
 * capacity instead: this would shrink them.) */
void *td_array_push(void *arrp, int *n, size_t size);

uint64_t td_now_ns(void); /* CLOCK_MONOTONIC */
uint64_t td_wall_ns(void);
/* This process's CPU time (every thread, user + system), ns. */
uint64_t td_process_cpu_ns(void); /* CLOCK_REALTIME */

#endif
