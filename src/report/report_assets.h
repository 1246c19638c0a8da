/* report_assets: the HTML report's stylesheet and script (reports/report.css,
 * reports/report.js), embedded at build time by reports/embed.sh into the
 * generated report_assets.c; NUL-terminated. */
#ifndef TD_REPORT_ASSETS_H
#define TD_REPORT_ASSETS_H

extern const char td_asset_report_css[];
extern const char td_asset_report_js[];

#endif
