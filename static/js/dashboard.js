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

  // While a worker computes the figures, #scoring or #pool-scoring asks for the page again
  // every second (hx-trigger "every 1s"). A request that fails says so, and the next one
  // tries again: the answer that comes replaces the block, note and all.
  function pollFailed(event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || (elt.id !== "pool-scoring" && elt.id !== "scoring")) return;
    var xhr = event.detail.xhr;
    var status = xhr && xhr.status ? " (HTTP " + xhr.status + ")" : "";
    elt.setAttribute("data-unreachable", "true");
    var note = elt.querySelector(".poll-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "poll-note";
      note.setAttribute("role", "alert");
      elt.appendChild(note);
    }
    note.textContent = "The server did not answer" + status + ": still asking every second.";
  }
  document.addEventListener("htmx:responseError", pollFailed);
  document.addEventListener("htmx:sendError", pollFailed);
})();
