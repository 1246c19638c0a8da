#include "report.h"
void td_report_html(FILE *out, const struct td_report_data *d, const struct td_report_opts *o)
{
	(void)out; (void)d; (void)o;
}
