/* hot_lib: the shared library of tests/integration/hotspots.sh — one
 * function that spins, which `tdctl run --hotspots` must name from the
 * library's own symbols and lines. */
#include <stdint.h>

uint64_t hot_lib_spin(uint64_t n);

uint64_t hot_lib_spin(uint64_t n)
{
	volatile uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++)
		x = x * 2862933555777941757ull + 3037000493ull;
	return x;
}
