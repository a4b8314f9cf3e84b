/*
 * The judge's pages (templates/judging/judge.html, spans.html) and the browser around
 * them: the address bar and the header an answer sends out of band. Nothing here keeps
 * state; the request queue and the keys are static/js/judge.js's.
 */
(function () {
  "use strict";

  // A new candidate's answer names its URL (HX-Push-Url). htmx would mark the page's own
  // history entry as its own (replaceState) before each push, two same-document
  // navigations a click, each milliseconds of the page's main thread: the pages turn its
  // history off (historyEnabled false) and the URL is pushed here alone, the page's entry
  // marked once, as it loads. Back and Forward to a marked entry reach htmx's popstate
  // handler, which loads the judgment from the server (its history cache is off).
  if (!(history.state && history.state.htmx)) history.replaceState({ htmx: true }, "", location.href);
  document.body.addEventListener("htmx:pushedIntoHistory", function (evt) {
    history.pushState({ htmx: true }, "", evt.detail.path);
  });
  document.body.addEventListener("htmx:replacedInHistory", function (evt) {
    history.replaceState({ htmx: true }, "", evt.detail.path);
  });

  // The header (and its figures) an answer sends out of band are morphed into the page's
  // as #judge is: its elements kept and only what changed written, rather than a new
  // header drawn and htmx's data of the old one cleaned up element by element.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var d = evt.detail;
    var fresh = d.fragment && d.fragment.firstElementChild;
    if (!window.Idiomorph || !fresh || fresh.id !== d.target.id) return;
    Idiomorph.morph(d.target, fresh, { morphStyle: "outerHTML" });
    d.shouldSwap = false;
  });
})();
