/* report.js: sorting the HTML report's tables by any column (click a
 * header; again to reverse). Embedded into tdctl at build time; no network. */
(function () {
  function key(td) {
    var v = td.getAttribute('data-v');
    if (v === null) v = td.textContent;
    var n = parseFloat(v);
    return isNaN(n) ? { s: v.toLowerCase() } : { n: n };
  }
  function cmp(a, b) {
    if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
    if (a.n !== undefined) return -1;
    if (b.n !== undefined) return 1;
    return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
    rows.sort(function (r1, r2) { return dir * cmp(key(r1.cells[col]), key(r2.cells[col])); });
    rows.forEach(function (r) { body.appendChild(r); });
    th.setAttribute('data-dir', dir === 1 ? 'asc' : 'desc');
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var ths = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(ths, function (th, col) {
      th.classList.add('sortable');
      th.addEventListener('click', function () { sortBy(table, col, th); });
    });
  });
})();
