/* json: the few helpers needed to write JSON (and CSV) by hand: escaping. */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stdio.h>

/* Write s as a JSON string literal (with quotes); NULL writes null. */
void td_json_str(FILE *f, const char *s);
/* Write a double; NaN/inf (not available) are written as null. */
void td_json_num(FILE *f, double v);

/* Write s as one CSV field, quoted (with "" for ") only when it holds , " or a newline. */
void td_csv_field(FILE *f, const char *s);

#endif
