/*
 * IER on the judge's page (templates/judging/_ier.html): keys for the information items.
 * The clicks themselves are plain buttons of one form, sent (and queued while a request
 * is in flight) by judge.js like every other; this file only adds the keys:
 *   i / Shift+I   next / previous item (the focus goes to its mark buttons)
 *   k y m x       mark the item with the focus OK / syntax / meaning / other
 */
(function () {
  "use strict";

  var MARKS = { k: "ok", y: "syntax", m: "meaning", x: "other" };

  function items() {
    var list = document.getElementById("ier-items");
    return list ? Array.prototype.slice.call(list.querySelectorAll(".ier-item[data-start]")) : [];
  }

  function focusedItem() {
    var a = document.activeElement;
    return a && a.closest ? a.closest(".ier-item[data-start]") : null;
  }

  function focusItem(step) {
    var all = items();
    if (!all.length) return;
    var i = all.indexOf(focusedItem());
    i = i < 0 ? (step > 0 ? 0 : all.length - 1) : (i + step + all.length) % all.length;
    var target = all[i].querySelector(".ier-mark.pressed") || all[i].querySelector(".ier-mark");
    if (target) target.focus();
  }

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (!document.getElementById("ier-items")) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (e.altKey || e.metaKey || e.ctrlKey) return;
    if (e.key === "i" || e.key === "I") {
      focusItem(e.shiftKey ? -1 : 1);
      e.preventDefault();
      return;
    }
    var mark = MARKS[e.key];
    var item = focusedItem();
    if (!mark || !item) return;
    var button = item.querySelector('[data-mark="' + mark + '"]');
    if (button && !button.disabled) button.click();
    e.preventDefault();
  });
})();
