/*
 * The ESA / MQM page (templates/judging/spans.html): a selection of the candidate, made
 * with the mouse or the keys, becomes an error span's characters. The requests go
 * through static/js/judge.js as the aWER page's do (queued in order, the version filled
 * in as they leave, a refusal shown, a failure held for Retry): this file only fills in
 * the forms and submits them.
 *
 * Offsets are code points of the candidate (Python's string indices, the span model's):
 * each piece of #candidate says where it starts (data-start), so a selection inside a
 * piece counts the code points before it there (Array.from, not UTF-16 units). The
 * selection is kept here as characters, not as DOM nodes, and drawn again after every
 * answer: the candidate's text never changes, so the same characters mean the same.
 *
 * Keys (one table, annotation/judging/keys.py, the "span-keys" block): the arrows move a
 * word cursor (in a right-to-left candidate, → goes to the word on the right: the
 * previous one), Shift+arrows extend the selection by words, 1 and 2 mark it minor or
 * major, Delete removes the span at the cursor. Both send the selection's characters:
 * the server decides which span they mean (a selection over exactly one span changes
 * it: that is how a span is resized), once the requests before them are saved, so a key
 * pressed while a request is on its way means what it meant when it was pressed.
 */
(function () {
  "use strict";

  function $(id) { return document.getElementById(id); }
  var KEYS = JSON.parse($("span-keys").textContent);
  var sel = null; // {start, end, missing}: the selection, in code points
  var cursor = -1; // the word with the cursor (words().length: [MISSING])
  var anchor = -1; // where a Shift+arrow selection started
  var shownFor = null; // the judgment the selection belongs to

  function cand() { return $("candidate"); }
  function readonly() { var r = $("judge"); return !r || r.hasAttribute("data-readonly"); }

  // The candidate's words, [start, end) each, in reading order, and [MISSING] last.
  function words() {
    var out = [];
    Array.prototype.forEach.call(cand().querySelectorAll(".piece[data-word]"), function (p) {
      var k = +p.getAttribute("data-word");
      var s = +p.getAttribute("data-start"), e = +p.getAttribute("data-end");
      if (!out[k]) out[k] = { start: s, end: e };
      else out[k].end = Math.max(out[k].end, e);
    });
    var at = +cand().getAttribute("data-length");
    out.push({ start: at, end: at, missing: true });
    return out;
  }

  function text() {
    return Array.from(Array.prototype.map.call(cand().querySelectorAll(".piece"), function (p) { return p.textContent; }).join(""));
  }

  // --- the selection drawn and put in the forms ----------------------------------------
  function paint() {
    if (!cand()) return;
    var judgment = $("judge").getAttribute("data-judgment");
    if (judgment !== shownFor) { sel = null; cursor = anchor = -1; shownFor = judgment; }
    Array.prototype.forEach.call(cand().querySelectorAll("[data-start]"), function (p) {
      var s = +p.getAttribute("data-start"), e = +p.getAttribute("data-end");
      var on = !!sel && (p.hasAttribute("data-missing") ? sel.missing : !sel.missing && s < sel.end && sel.start < e);
      p.classList.toggle("selected", on);
    });
    var shown = $("selection-shown");
    if (!sel) shown.textContent = "Nothing selected";
    else shown.textContent = "Selected: " + (sel.missing ? "[MISSING]" : "“" + text().slice(sel.start, sel.end).join("") + "”");
    fill("mark", sel || { start: "", end: "", missing: false }, category());
  }

  function fill(form, span, cat) {
    $(form + "-start").value = span.start;
    $(form + "-end").value = span.end;
    $(form + "-missing").value = span.missing ? "1" : "";
    $(form + "-category").value = cat;
  }

  function category() { var c = $("mqm-category"); return c ? c.value : ""; }

  function select(span) { sel = span; paint(); }

  function selectWords(from, to) {
    var w = words();
    var a = w[Math.min(from, to)], b = w[Math.max(from, to)];
    if (a.missing || b.missing) select({ start: a.start, end: a.start, missing: true });
    else select({ start: a.start, end: b.end, missing: false });
  }

  // --- mouse ----------------------------------------------------------------------------
  // Where a DOM boundary falls in the candidate's code points (outside it: its ends).
  function offsetOf(node, off) {
    var c = cand(), length = +c.getAttribute("data-length");
    if (!c.contains(node)) return c.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING ? 0 : length;
    if (node.nodeType === Node.TEXT_NODE) {
      var piece = node.parentElement.closest("[data-start]");
      if (!piece) return length;
      return Math.min(+piece.getAttribute("data-start") + Array.from(node.data.slice(0, off)).length, length);
    }
    var child = node.childNodes[off];
    while (child && !(child.nodeType === Node.ELEMENT_NODE && child.hasAttribute("data-start"))) child = child.nextSibling;
    return child ? +child.getAttribute("data-start") : length;
  }

  function wordAt(at) {
    var w = words();
    for (var k = 0; k < w.length - 1; k++) if (w[k].start <= at && at < w[k].end) return k;
    return -1;
  }

  document.addEventListener("mouseup", function (evt) {
    if (!cand() || readonly() || (evt.target.closest && evt.target.closest("#missing-token"))) return;
    var s = window.getSelection();
    if (!s.rangeCount || !s.getRangeAt(0).intersectsNode(cand())) return;
    var r = s.getRangeAt(0);
    var start = offsetOf(r.startContainer, r.startOffset), end = offsetOf(r.endContainer, r.endOffset);
    if (start === end) { // a click: its word
      var piece = cand().contains(evt.target) && evt.target.closest(".piece[data-word]");
      if (!piece) return;
      cursor = anchor = +piece.getAttribute("data-word");
      return selectWords(cursor, cursor);
    }
    cursor = anchor = wordAt(start);
    select({ start: Math.min(start, end), end: Math.max(start, end), missing: false });
  });

  document.addEventListener("click", function (evt) {
    var t = evt.target.closest && evt.target.closest("#missing-token, #mark-minor, #mark-major");
    if (!t || !$("judge") || !$("judge").contains(t)) return;
    evt.preventDefault();
    if (t.id === "missing-token") return move("missing");
    mark(t.getAttribute("data-mark"));
  });

  // --- what a span change sends ------------------------------------------------------------
  // The selection's characters, as they are when the key is pressed: the server finds
  // the span they lie over (annotation/judging/esa.py), once the requests before are saved.
  function mark(severity) {
    if (readonly()) return;
    if (!sel) { $("selection-shown").textContent = "Select an error first (the mouse, or the arrow keys)."; return; }
    fill("mark", sel, category());
    $("mark-form").requestSubmit($("mark-" + severity));
    sel = null;
    paint();
  }

  function remove() {
    if (readonly() || !sel) return;
    fill("remove", sel, "");
    $("remove-at-form").requestSubmit($("remove-at"));
  }

  // --- keys -----------------------------------------------------------------------------
  function move(how) {
    var w = words(), last = w.length - 1;
    var rtl = cand().getAttribute("dir") === "rtl";
    var by = /next$/.test(how) ? 1 : -1;
    if (rtl) by = -by;
    if (how === "missing") { cursor = anchor = last; return selectWords(last, last); }
    var extend = how.indexOf("extend-") === 0;
    var from = cursor < 0 ? (by > 0 ? -1 : last) : cursor;
    var to = Math.max(0, Math.min(from + by, extend ? last - 1 : last));
    if (to < 0 || last === 0) return;
    cursor = to;
    if (!extend || anchor < 0 || anchor === last) anchor = cursor;
    selectWords(anchor, cursor);
  }

  function run(does) {
    var arg = does.slice(does.indexOf(":") + 1);
    if (does.indexOf("cursor:") === 0) move(arg);
    else if (does.indexOf("mark:") === 0) mark(arg);
    else if (does === "span:remove") remove();
    else if (does.indexOf("focus:") === 0 && $(arg)) $(arg).focus();
  }

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (!cand() || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    if (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable) return;
    if (t.tagName === "SELECT" && /^Arrow/.test(e.key)) return; // the list's own
    var name = (e.shiftKey && /^Arrow/.test(e.key) ? "Shift+" : "") + e.key;
    var does = KEYS[name] || KEYS[e.code];
    if (!does) return;
    e.preventDefault();
    run(does);
  });

  // --- the score: the slider and the number are one value --------------------------------
  document.addEventListener("input", function (evt) {
    var t = evt.target, range = $("esa-score-range"), number = $("esa-score-number");
    if (t === range) { number.value = range.value; range.classList.remove("unset"); }
    else if (t === number && number.value !== "" && +number.value >= 0 && +number.value <= 100) {
      range.value = number.value;
      range.classList.remove("unset");
    }
  });

  // The slider's value is saved when it is let go (or moved by a key).
  document.addEventListener("change", function (evt) {
    if (evt.target === $("esa-score-range")) $("esa-form").requestSubmit($("save-esa"));
  });

  document.addEventListener("htmx:afterSettle", paint);
  paint();
})();
