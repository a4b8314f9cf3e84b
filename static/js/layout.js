// The judge's page layout: the legend and the key list are <details> a judge may close,
// and each stays as the judge left it, on every page and every visit after (localStorage,
// one key per box: "evaltool.open.<data-remember>"). The legend is part of the fragment
// htmx swaps in after each click, so the stored state is applied again on each swap,
// before the browser draws the new content. Without storage (private mode, disabled) the
// boxes simply keep the page's default. A box that has never been toggled is open by
// default where the window is at least its data-open-from-height tall (the legend: open
// on a tall screen, folded on a laptop's, where the page must fit on one screen). And the
// field of the new reference's whole text grows with what it holds.
(function () {
  "use strict";

  var PREFIX = "evaltool.open.";

  function stored(name) {
    try {
      return window.localStorage.getItem(PREFIX + name);
    } catch (e) {
      return null;
    }
  }

  function store(name, open) {
    try {
      window.localStorage.setItem(PREFIX + name, open ? "open" : "closed");
    } catch (e) {
      /* no storage: the state lasts as long as the page */
    }
  }

  function apply(scope) {
    var boxes = (scope || document).querySelectorAll("details[data-remember]");
    Array.prototype.forEach.call(boxes, function (box) {
      var state = stored(box.getAttribute("data-remember"));
      var tall = box.getAttribute("data-open-from-height");
      if (state === null && tall !== null) state = window.innerHeight >= Number(tall) ? "open" : "closed";
      if (state === null || box.open === (state === "open")) return;
      // the toggle event this causes is the page's doing, not the judge's: not stored
      box.setAttribute("data-applied", state);
      box.open = state === "open";
    });
  }

  // "toggle" does not bubble: listen in the capture phase, for boxes swapped in later too.
  document.addEventListener(
    "toggle",
    function (evt) {
      var box = evt.target;
      if (!(box && box.matches && box.matches("details[data-remember]"))) return;
      var now = box.open ? "open" : "closed";
      if (box.getAttribute("data-applied") === now) {
        box.removeAttribute("data-applied");
        return;
      }
      store(box.getAttribute("data-remember"), box.open);
    },
    true
  );

  // The whole text grows with its content: CSS field-sizing does it where the browser
  // has it; elsewhere the field gets as many rows as its text needs. Rows, not a height:
  // an inline style would break the Content-Security-Policy.
  var fieldSizing = !!(window.CSS && CSS.supports && CSS.supports("field-sizing", "content"));

  function grow() {
    var area = document.getElementById("new-ref-text");
    if (!area || fieldSizing) return;
    area.rows = 1;
    while (area.scrollHeight > area.clientHeight && area.rows < 40) area.rows += 1;
  }

  document.addEventListener("input", function (evt) {
    if (evt.target.id === "new-ref-text") grow();
  });
  window.addEventListener("resize", grow);

  document.addEventListener("htmx:afterSwap", function () {
    apply(document);
    grow();
  });

  apply(document);
  grow();
})();
