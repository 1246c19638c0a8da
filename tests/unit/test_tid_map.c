/* test_tid_map: the TID-keyed hash map against a plain array indexed by
 * key (the model): random puts and deletes over few keys (long probe
 * chains, entries moved up by deletions), each followed by a comparison of
 * every key's value and the count; keys that share one home place (a
 * single cluster wrapping the table's end); a churn of 100,000 keys
 * through a map that never holds more than 64 (its size stays small). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/tid_map.h"

#define KEYS 4096

static void agrees(const struct td_tid_map *m, const uintptr_t *model)
{
	uint32_t n = 0;

	for (uint32_t k = 1; k < KEYS; k++) {
		assert_int_equal(td_tid_map_get(m, k), model[k]);
		n += model[k] != 0;
	}
	assert_int_equal(m->n, n);
}

static void test_random_against_model(void **state)
{
	static uintptr_t model[KEYS];
	struct td_tid_map m = { 0 };
	unsigned seed = 12345;

	(void)state;
	memset(model, 0, sizeof(model));
	assert_int_equal(td_tid_map_get(&m, 7), 0); /* empty, never allocated */
	td_tid_map_del(&m, 7);
	for (int step = 0; step < 20000; step++) {
		uint32_t key = 1 + (uint32_t)(rand_r(&seed) % 300); /* few keys: the map fills and empties */
		if (rand_r(&seed) % 3) {
			uintptr_t v = (uintptr_t)rand_r(&seed) + 1;
			assert_int_equal(td_tid_map_put(&m, key, v), 0);
			model[key] = v;
		} else {
			td_tid_map_del(&m, key);
			model[key] = 0;
		}
		if (step % 97 == 0)
			agrees(&m, model);
	}
	agrees(&m, model);
	assert_true(m.cap >= 2 * m.n);
	td_tid_map_free(&m);
	assert_int_equal(td_tid_map_get(&m, 1), 0);
}

/* Keys k * 2^32 / 2654435761-ish would need a search: instead find keys
 * whose home is the table's last place, so that their cluster wraps. */
static void test_one_cluster_wrapping(void **state)
{
	static uintptr_t model[KEYS];
	struct td_tid_map m = { 0 };
	uint32_t same[20];
	int n = 0;

	(void)state;
	memset(model, 0, sizeof(model));
	assert_int_equal(td_tid_map_put(&m, 1, 1), 0); /* allocates: 64 places */
	td_tid_map_del(&m, 1);
	assert_int_equal(m.cap, 64);
	for (uint32_t k = 1; k < KEYS && n < 20; k++)
		if (((k * 2654435761u) & 63) == 63) /* tid_map.c's hash, by its definition */
			same[n++] = k;
	assert_int_equal(n, 20);
	for (int i = 0; i < n; i++) {
		assert_int_equal(td_tid_map_put(&m, same[i], (uintptr_t)i + 1), 0);
		model[same[i]] = (uintptr_t)i + 1;
	}
	assert_int_equal(m.cap, 64); /* 20 of 64: no growth, one chain across the end */
	agrees(&m, model);
	/* deleting from the head, the middle and the tail of the chain keeps the rest found */
	for (int i = 0; i < n; i += 3) {
		td_tid_map_del(&m, same[i]);
		model[same[i]] = 0;
		agrees(&m, model);
	}
	td_tid_map_free(&m);
}

static void test_churn_stays_small(void **state)
{
	struct td_tid_map m = { 0 };

	(void)state;
	for (uint32_t k = 1; k <= 100000; k++) {
		assert_int_equal(td_tid_map_put(&m, k, k), 0);
		if (k > 64) {
			assert_int_equal(td_tid_map_get(&m, k - 64), k - 64);
			td_tid_map_del(&m, k - 64);
		}
	}
	assert_int_equal(m.n, 64);
	assert_true(m.cap <= 256);
	assert_int_equal(td_tid_map_bytes(&m), (size_t)m.cap * (sizeof(uint32_t) + sizeof(uintptr_t)));
	for (uint32_t k = 100000 - 63; k <= 100000; k++)
		assert_int_equal(td_tid_map_get(&m, k), k);
	td_tid_map_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_one_cluster_wrapping),
		cmocka_unit_test(test_churn_stays_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
