/*
 * The side-by-side screen (templates/sidebyside/screen.html): one panel per candidate,
 * each with its own selection, turned into an error span's characters as on the ESA /
 * MQM page (static/js/esa.js): offsets are code points of the candidate, read from the
 * pieces' data-start. A key acts on the active panel (the one last clicked, or chosen
 * with [ and ]); the keys come from one table (annotation/sidebyside/keys.py, the
 * "sbs-keys" block). Each panel's forms are htmx's: the answer replaces that panel
 * alone, so a score typed in another stays. Accept & next copies every panel's typed
 * score into the accept form, so a score typed and not saved is saved with it; the next
 * screen replaces the page's body (hx-boost), and starts with nothing selected.
 *
 * On an aWER corpus (#side-by-side[data-protocol="awer"]) each panel holds the aWER
 * page's editor instead (templates/sidebyside/_awer_panel.html): ← → move the focus over
 * the active panel's marked words, Enter accepts the one in focus, the digits give its
 * SSER; a panel's answer keeps the focus on the n-th marked word and the new reference's
 * text typed in it; accept copies every panel's SSER and typed text into its form.
 */
(function () {
  "use strict";

  var KEYS = JSON.parse(document.getElementById("sbs-keys").textContent);
  var state = {}; // letter -> {sel: {start, end, missing} | null, cursor, anchor}
  var active = null;

  function panels() { return Array.prototype.slice.call(document.querySelectorAll(".sbs-panel")); }
  function panel(letter) { return document.getElementById("sbs-panel-" + letter); }
  function cand(letter) { return document.getElementById("candidate-" + letter); }
  function st(letter) {
    if (!state[letter]) state[letter] = { sel: null, cursor: -1, anchor: -1 };
    return state[letter];
  }

  function words(letter) {
    var out = [];
    Array.prototype.forEach.call(cand(letter).querySelectorAll(".piece[data-word]"), function (p) {
      var k = +p.getAttribute("data-word");
      var s = +p.getAttribute("data-start"), e = +p.getAttribute("data-end");
      if (!out[k]) out[k] = { start: s, end: e };
      else out[k].end = Math.max(out[k].end, e);
    });
    var at = +cand(letter).getAttribute("data-length");
    out.push({ start: at, end: at, missing: true });
    return out;
  }

  function text(letter) {
    return Array.from(Array.prototype.map.call(cand(letter).querySelectorAll(".piece"), function (p) { return p.textContent; }).join(""));
  }

  function category() { var c = document.getElementById("mqm-category"); return c ? c.value : ""; }

  function awer(p) { return !!p && p.classList.contains("sbs-awer"); }

  function paint(letter) {
    var p = panel(letter);
    if (!p || awer(p)) return;
    var sel = st(letter).sel;
    Array.prototype.forEach.call(cand(letter).querySelectorAll("[data-start]"), function (el) {
      var s = +el.getAttribute("data-start"), e = +el.getAttribute("data-end");
      var on = !!sel && (el.hasAttribute("data-missing") ? sel.missing : !sel.missing && s < sel.end && sel.start < e);
      el.classList.toggle("selected", on);
    });
    p.querySelector(".sbs-selection").textContent = !sel ? "Nothing selected"
      : "Selected: " + (sel.missing ? "[MISSING]" : "“" + text(letter).slice(sel.start, sel.end).join("") + "”");
    Array.prototype.forEach.call(p.querySelectorAll(".sbs-mark, .sbs-remove-at"), function (form) {
      form.querySelector(".sbs-start").value = sel ? sel.start : "";
      form.querySelector(".sbs-end").value = sel ? sel.end : "";
      form.querySelector(".sbs-missing-field").value = sel && sel.missing ? "1" : "";
      form.querySelector(".sbs-category").value = category();
    });
  }

  function activate(letter) {
    active = letter;
    panels().forEach(function (p) { p.classList.toggle("active", p.getAttribute("data-letter") === letter); });
  }

  function select(letter, span) { activate(letter); st(letter).sel = span; paint(letter); }

  function selectWords(letter, from, to) {
    var w = words(letter);
    var a = w[Math.min(from, to)], b = w[Math.max(from, to)];
    if (a.missing || b.missing) select(letter, { start: a.start, end: a.start, missing: true });
    else select(letter, { start: a.start, end: b.end, missing: false });
  }

  // --- mouse ----------------------------------------------------------------------------
  // Where a DOM boundary falls in the candidate's code points: the text before it
  // (the pieces are the candidate's text, in order), cut at the candidate's end.
  function offsetOf(letter, node, off) {
    var c = cand(letter), length = +c.getAttribute("data-length");
    if (!c.contains(node)) return c.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING ? 0 : length;
    var before = document.createRange();
    before.setStart(c, 0);
    before.setEnd(node, off);
    return Math.min(Array.from(before.toString()).length, length);
  }

  function wordAt(letter, at) {
    var w = words(letter);
    for (var k = 0; k < w.length - 1; k++) if (w[k].start <= at && at < w[k].end) return k;
    return -1;
  }

  document.addEventListener("mouseup", function (evt) {
    var p = evt.target.closest && evt.target.closest(".sbs-panel");
    if (!p) return;
    var letter = p.getAttribute("data-letter");
    activate(letter);
    if (awer(p)) return;
    if (evt.target.closest(".sbs-missing")) {
      var w = words(letter);
      st(letter).cursor = st(letter).anchor = w.length - 1;
      return select(letter, { start: w[w.length - 1].start, end: w[w.length - 1].start, missing: true });
    }
    var s = window.getSelection();
    if (!s.rangeCount || !s.getRangeAt(0).intersectsNode(cand(letter))) return;
    var r = s.getRangeAt(0);
    var start = offsetOf(letter, r.startContainer, r.startOffset), end = offsetOf(letter, r.endContainer, r.endOffset);
    if (start === end) {
      var piece = cand(letter).contains(evt.target) && evt.target.closest(".piece[data-word]");
      if (!piece) return;
      st(letter).cursor = st(letter).anchor = +piece.getAttribute("data-word");
      return selectWords(letter, st(letter).cursor, st(letter).cursor);
    }
    st(letter).cursor = st(letter).anchor = wordAt(letter, start);
    s.removeAllRanges();
    select(letter, { start: Math.min(start, end), end: Math.max(start, end), missing: false });
  });

  // --- keys -----------------------------------------------------------------------------
  function keyName(evt) {
    return (evt.ctrlKey || evt.metaKey ? "Ctrl+" : "") + evt.key;
  }

  function actionOf(evt) {
    var name = keyName(evt);
    for (var action in KEYS) if (KEYS[action] === name) return action;
    return null;
  }

  function moveCursor(step, extend) {
    var letter = active || panels()[0].getAttribute("data-letter");
    var s = st(letter), w = words(letter);
    s.cursor = Math.max(0, Math.min(w.length - 1, s.cursor < 0 ? 0 : s.cursor + step));
    if (!extend || s.anchor < 0) s.anchor = s.cursor;
    selectWords(letter, s.anchor, s.cursor);
  }

  function submit(form) { if (form) form.requestSubmit(); }

  function prefer(value) {
    var button = document.getElementById("prefer-" + value);
    if (button) button.click();
  }

  // --- an aWER panel ----------------------------------------------------------------------
  function ops(letter) { return Array.prototype.slice.call(cand(letter).querySelectorAll("[data-op]")); }

  function focusOp(letter, step) {
    var list = ops(letter), at = list.indexOf(document.activeElement);
    if (!list.length) return;
    list[at < 0 ? (step > 0 ? 0 : list.length - 1) : (at + step + list.length) % list.length].focus();
  }

  function press(p, selector) {
    var button = p.querySelector(selector);
    if (button && !button.disabled) button.click();
  }

  // IER's items of a panel: the one with the focus, and the next or previous one's mark
  // (the pressed one) focused, as the single page does.
  function itemOf(p) {
    var item = document.activeElement && document.activeElement.closest && document.activeElement.closest(".ier-item[data-start]");
    return item && p.contains(item) ? item : null;
  }
  function items(p) { return Array.prototype.slice.call(p.querySelectorAll(".ier-item[data-start]")); }
  function focusItem(p, at) {
    var item = items(p)[at];
    var mark = item && (item.querySelector(".ier-mark.pressed") || item.querySelector(".ier-mark"));
    if (mark) mark.focus();
  }

  // What a key does in an aWER panel; false: not one of its keys.
  function awerKey(action, letter, p) {
    var sser = /^sser-(\d+)$/.exec(action);
    if (action === "severity" && itemOf(p)) action = "item-meaning"; // m on an item
    if (action === "item-next" || action === "item-previous") {
      var list = items(p), at = list.indexOf(itemOf(p)), step = action === "item-next" ? 1 : -1;
      if (list.length) focusItem(p, at < 0 ? (step > 0 ? 0 : list.length - 1) : (at + step + list.length) % list.length);
    } else if (/^item-/.test(action)) { var item = itemOf(p); if (item) press(item, '[data-mark="' + action.slice(5) + '"]'); }
    else if (sser) press(p, '[data-sser="' + sser[1] + '"]');
    else if (action === "op-previous" || action === "op-next") focusOp(letter, action === "op-next" ? 1 : -1);
    else if (action === "severity") {
      var op = ops(letter).indexOf(document.activeElement) >= 0 ? document.activeElement : null;
      if (op) { p.querySelector(".sbs-severity-op").value = op.value; submit(p.querySelector(".sbs-severity")); }
    } else if (action === "edit-text") { var t = p.querySelector(".sbs-new-ref-text"); t.focus(); t.select(); }
    else if (action === "as-is") press(p, '[data-action="as-is"]');
    else return false;
    return true;
  }

  document.addEventListener("focusin", function (evt) {
    var p = evt.target.closest && evt.target.closest(".sbs-panel");
    if (p && awer(p)) activate(p.getAttribute("data-letter"));
  });

  document.addEventListener("keydown", function (evt) {
    var action = actionOf(evt);
    var t = evt.target;
    if (t.classList && t.classList.contains("sbs-new-ref-text") && evt.key === "Enter" && !evt.shiftKey && !evt.ctrlKey && !evt.isComposing) {
      evt.preventDefault(); // one line of words however long: Enter saves it
      return submit(t.form);
    }
    if (action === "accept-op") { // the marked word in focus; elsewhere Enter is the page's own
      var focused = t.closest && t.closest(".sbs-awer [data-op]");
      if (focused) { evt.preventDefault(); focused.click(); }
      return;
    }
    var typing = t.matches && t.matches("input[type=number], input[type=text], textarea, select");
    if (typing && action !== "accept") {
      if (evt.key === "Escape") evt.target.blur();
      return;
    }
    var onAwer = !!document.querySelector('#side-by-side[data-protocol="awer"]');
    if (!onAwer && evt.shiftKey && (evt.key === "ArrowLeft" || evt.key === "ArrowRight")) action = evt.key === "ArrowLeft" ? "cursor-previous" : "cursor-next";
    if (!action) return;
    var letter = active || (panels()[0] && panels()[0].getAttribute("data-letter"));
    var letters = panels().map(function (p) { return p.getAttribute("data-letter"); });
    var p = panel(letter);
    evt.preventDefault();
    if (awer(p) && awerKey(action, letter, p)) return;
    switch (action) {
      case "panel-previous": case "panel-next":
        activate(letters[(letters.indexOf(letter) + (action === "panel-next" ? 1 : letters.length - 1)) % letters.length]);
        break;
      case "cursor-previous": moveCursor(-1, evt.shiftKey); break;
      case "cursor-next": moveCursor(1, evt.shiftKey); break;
      case "cursor-missing": st(letter).cursor = st(letter).anchor = words(letter).length - 1; selectWords(letter, st(letter).cursor, st(letter).cursor); break;
      case "mark-minor": case "mark-major": // the button itself, so its severity is sent
        if (st(letter).sel) p.querySelector('.sbs-mark [data-action="' + action + '"]').click();
        break;
      case "undo": case "redo":
        var history = p.querySelector('[data-action="' + action + '"]');
        if (history && !history.disabled) history.click();
        break;
      case "remove-span": if (st(letter).sel) submit(p.querySelector(".sbs-remove-at")); break;
      case "score": var f = p.querySelector(".sbs-score"); if (f) { f.focus(); f.select(); } break;
      case "prefer-a": prefer("a"); break;
      case "prefer-same": prefer("same"); break;
      case "prefer-b": prefer("b"); break;
      case "prefer-c": prefer("c"); break;
      case "prefer-d": prefer("d"); break;
      case "accept": submit(document.getElementById("sbs-accept-form")); break;
    }
  });

  // --- answers and accept ----------------------------------------------------------------
  // An aWER panel's answer: the focus stays on the n-th marked word (the one accepted is
  // gone: the next takes its place), and the text typed in its new reference's field
  // stays, unless the answer is that of the text saved.
  var kept = null;
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var p = evt.detail.target;
    kept = null;
    if (!p || !p.classList || !awer(p)) return;
    var field = p.querySelector(".sbs-new-ref-text");
    var sent = evt.detail.requestConfig && evt.detail.requestConfig.elt;
    kept = {
      op: ops(p.getAttribute("data-letter")).indexOf(document.activeElement),
      item: items(p).indexOf(itemOf(p)),
      text: field && sent !== field.form && field.value !== field.getAttribute("data-saved") ? field.value : null,
      saved: !!field && sent === field.form,
    };
  });

  document.body.addEventListener("htmx:afterSwap", function (evt) {
    var p = evt.detail.target && evt.detail.target.id ? document.getElementById(evt.detail.target.id) : null;
    if (!p || !p.classList.contains("sbs-panel")) return;
    var letter = p.getAttribute("data-letter");
    st(letter).sel = null;
    paint(letter);
    activate(letter);
    if (!awer(p) || !kept) return;
    if (kept.text !== null) p.querySelector(".sbs-new-ref-text").value = kept.text;
    var list = ops(letter);
    if (kept.op >= 0 && list.length) list[Math.min(kept.op, list.length - 1)].focus();
    if (kept.item >= 0) focusItem(p, Math.min(kept.item, items(p).length - 1));
  });

  // A text saved (Enter) leaves its field, which htmx gave the focus back: the next key
  // is obeyed, not typed.
  document.body.addEventListener("htmx:afterSettle", function () {
    var a = document.activeElement;
    if (kept && kept.saved && a && a.classList.contains("sbs-new-ref-text")) a.blur();
    kept = null;
  });

  document.addEventListener("submit", function (evt) {
    if (evt.target.id !== "sbs-accept-form") return;
    Array.prototype.forEach.call(evt.target.querySelectorAll(".sbs-typed"), function (hidden) {
      var field = document.getElementById("score-" + hidden.getAttribute("data-letter"));
      hidden.value = field ? field.value : "";
    });
    Array.prototype.forEach.call(evt.target.querySelectorAll(".sbs-typed-sser"), function (hidden) {
      var p = panel(hidden.getAttribute("data-letter"));
      var pressed = p && p.querySelector(".sser.pressed");
      hidden.value = pressed ? pressed.getAttribute("data-sser") : "";
    });
    Array.prototype.forEach.call(evt.target.querySelectorAll(".sbs-typed-ref"), function (hidden) {
      var field = document.getElementById("new-ref-text-" + hidden.getAttribute("data-letter"));
      hidden.value = field && field.value.trim() !== field.getAttribute("data-saved").trim() ? field.value : "";
    });
  }, true);

  // A screen shown (loaded, or the next one after a boosted accept): nothing selected,
  // the keys on its first candidate.
  var shownScreen = null;
  function screenShown() {
    var screen = document.getElementById("side-by-side");
    var id = screen ? screen.getAttribute("data-comparison") : null;
    if (id === shownScreen) { // the same screen drawn again (a refused accept): as it was
      if (active && panel(active)) activate(active);
      return;
    }
    shownScreen = id;
    state = {};
    active = null;
    var first = panels()[0];
    if (first) activate(first.getAttribute("data-letter"));
  }
  document.addEventListener("DOMContentLoaded", screenShown);
  document.addEventListener("htmx:afterSettle", screenShown);
})();
