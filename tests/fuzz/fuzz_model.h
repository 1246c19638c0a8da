/* fuzz_model: what the catalog and expression fuzz targets share — a parsed
 * catalog's model compiled and evaluated, by the library's one evaluator, on
 * counts derived from the fuzz input (counted, scaled, not counted, zero),
 * so that every formula the input defines is also run. */
#ifndef TD_FUZZ_MODEL_H
#define TD_FUZZ_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "model/catalog.h"

/* Compile cat's model; when it compiles, evaluate it on two perf groups of
 * counts chosen by the bytes of data (any size, also 0). */
void fuzz_evaluate_catalog(const struct td_catalog *cat, const uint8_t *data, size_t size);

/* A NUL-terminated copy of data (the parsers take text); aborts when out of memory. */
char *fuzz_text(const uint8_t *data, size_t size);

#endif
