/* The leads' dashboard: sort #metrics-table by a column without a page load.
 *
 * The column headings are links (?sort=metric) that the server honours too, so sorting
 * works without JavaScript; here a click sorts the rows in place instead. The first click
 * on a column puts the best system first (lowest error rate, highest BLEU/NIST: the
 * heading's data-higher), the next click the worst first. Cells without a figure
 * (data-value="") go last either way, and ties keep the corpus order — the same rule as
 * annotation.dashboard.table.sort_rows. The address bar follows (history.replaceState), so a
 * reload shows the same order. Listeners sit on the document, so the table still sorts
 * after htmx has swapped the dashboard.
 */
(function () {
  "use strict";

  function sortTable(table, metric, bestFirst) {
    var body = table.tBodies[0];
    var head = table.querySelector('thead th[data-metric="' + metric + '"]');
    var higher = head && head.getAttribute("data-higher") === "true";
    var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-translator]"));
    var keyed = rows.map(function (row, index) {
      var cell = row.querySelector('td[data-metric="' + metric + '"]');
      var raw = cell ? cell.getAttribute("data-value") : "";
      var value = raw === "" || raw === null ? NaN : parseFloat(raw);
      return { row: row, index: index, value: value };
    });
    // ascending values put the best first for an error rate
    var ascending = higher ? !bestFirst : bestFirst;
    keyed.sort(function (a, b) {
      var aMissing = isNaN(a.value), bMissing = isNaN(b.value);
      if (aMissing !== bMissing) return aMissing ? 1 : -1;
      if (!aMissing && a.value !== b.value) {
        return ascending ? a.value - b.value : b.value - a.value;
      }
      return a.index - b.index;
    });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    table.querySelectorAll("thead th[data-metric]").forEach(function (th) {
      th.setAttribute("aria-sort", "none");
    });
    if (head) head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    table.setAttribute("data-sort", (bestFirst ? "" : "-") + metric);
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#metrics-table thead a[data-sort]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    var table = link.closest("table");
    var metric = link.getAttribute("data-sort");
    var bestFirst = table.getAttribute("data-sort") !== metric;  // second click: worst first
    sortTable(table, metric, bestFirst);
    var url = new URL(window.location.href);
    url.searchParams.set("sort", (bestFirst ? "" : "-") + metric);
    window.history.replaceState(window.history.state, "", url.toString());
    var form = document.getElementById("preprocessing");
    var hidden = form && form.querySelector('input[name="sort"]');
    if (form && !hidden) {
      hidden = document.createElement("input");
      hidden.type = "hidden";
      hidden.name = "sort";
      form.appendChild(hidden);
    }
    if (hidden) hidden.value = (bestFirst ? "" : "-") + metric;
  });

  // The grown pool's figures come on a request of their own (#pool-scoring, hx-trigger
  // "load"): if it fails, say so rather than leave "Scoring…" on the page for good.
  function poolFailed(event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== "pool-scoring") return;
    var status = event.detail.xhr ? " (HTTP " + event.detail.xhr.status + ")" : "";
    elt.setAttribute("aria-busy", "false");
    elt.setAttribute("data-failed", "true");
    var message = elt.querySelector('[role="status"]');
    if (message) {
      message.textContent = "The figures against the grown pool could not be scored" + status +
        ". Reload the page to try again.";
    }
  }
  document.addEventListener("htmx:responseError", poolFailed);
  document.addEventListener("htmx:sendError", poolFailed);
})();
