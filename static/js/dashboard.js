/* The leads' dashboard: say so when a poll for the figures goes unanswered.
 *
 * Everything else is htmx attributes on the server's HTML: the table's column headings
 * are links (?sort=metric) that the server sorts by, with or without JavaScript.
 */
(function () {
  "use strict";

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
