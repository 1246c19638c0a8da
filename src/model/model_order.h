/* model_order: (internal to model) the evaluation order of a model's
 * formulas, cycle detection, and each formula's transitive event set. */
#ifndef TD_MODEL_ORDER_H
#define TD_MODEL_ORDER_H

#include "model.h"

/* Fill m->order and every formula's events; -1 with "FILE:LINE: cycle: ..." */
int td_model_order(struct td_model *m, td_err *err);

#endif
