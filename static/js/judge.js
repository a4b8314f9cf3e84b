/*
 * The judge's page (templates/judging/judge.html): never drop a click, and a key for
 * every action. No framework; htmx does the requests, this file only orders them.
 *
 * One request at a time. A click made while a request is in flight is not sent with the
 * old page's version (the server would refuse it as stale): it is queued as a
 * *descriptor* (what was clicked, by content: data-op + word + reference word, an SSER
 * value, …) and replayed, after the swap, against the matching element of the new page.
 * If nothing matches any more, the page says so; nor is a click replayed on another
 * candidate than the one it was made on (a second "accept & next" must not accept the
 * next candidate unseen). A failed request (network error, 5xx) stops the queue and shows
 * the error with a Retry button, which alone clears it: Retry sends the same request with
 * the same version, and the server answers a request that had in fact been saved with the
 * saved state (never twice, never as stale). A stale-page refusal (409) drops the queue,
 * with a message: those clicks were aimed at a state that no longer exists.
 *
 * Keys pressed while a request is in flight (or waits for Retry) are queued as *keys*, not
 * as clicks: each is interpreted, in order, against the page the previous request
 * produced, so `a a a` accepts three marked words one after the other and → then a moves
 * on the new page. A key is only ever applied to the candidate it was pressed on: keys
 * pressed before a new candidate was drawn (a second `n` during "accept & next") are
 * dropped with a message, so nothing is accepted or scored that the judge has not seen.
 *
 * Nothing typed is lost. A value typed but not saved (the whole text, the word editor,
 * the note; the flag is saved as soon as it changes) is saved before any other action
 * that would redraw the page: the saves are queued first, then the action, through the
 * same queue. Should a save be refused, the queued action is not done. Values typed while
 * a request is in flight are put back into the redrawn page of the same candidate, and
 * leaving the page with such a value asks first.
 */
(function () {
  "use strict";

  var queue = [];
  var current = null; // {desc, xhr, focus} of the request in flight
  var failed = null; // descriptor of the request that failed, for Retry
  var saving = false; // the queued click being sent saves typed text before an action

  function root() {
    return document.getElementById("judge");
  }

  function inJudge(elt) {
    var r = root();
    return !!(r && elt && (elt === r || r.contains(elt)));
  }

  function $(id) {
    return document.getElementById(id);
  }

  // --- descriptors -------------------------------------------------------------------------

  function actionElement(detail) {
    var elt = detail.elt;
    if (elt && elt.tagName === "FORM") {
      var ev = detail.triggeringEvent;
      if (ev && ev.submitter) return ev.submitter;
      var first = elt.querySelector("[data-action]");
      if (first) return first;
    }
    return elt;
  }

  function judgmentShown() {
    var r = root();
    return r ? r.getAttribute("data-judgment") : null;
  }

  function describe(elt) {
    var d = {
      action: elt.getAttribute("data-action") || "",
      text: (elt.textContent || "").trim(),
      judgment: judgmentShown(),
      key: elt.getAttribute("data-key"), // which one of many buttons of the same action
    };
    if (d.action === "op") {
      d.op = elt.getAttribute("data-op");
      d.ref = elt.getAttribute("data-ref-word");
      d.label = "click on “" + d.text + "” (" + d.op + (d.ref ? ", reference “" + d.ref + "”" : "") + ")";
    } else if (d.action === "sser") {
      d.value = elt.getAttribute("data-sser");
      d.label = "SSER " + d.value;
    } else if (d.action === "use-ref") {
      d.value = elt.value;
      d.label = "choice of the reference “" + d.value + "”";
    } else if (d.action === "move-word") {
      d.edge = elt.getAttribute("data-edge");
      d.move = elt.getAttribute("data-move");
      d.label = "“" + d.text + "”";
    } else if (d.action === "severity") {
      describeSeverity(elt, d);
    } else if (d.action === "edit-word") {
      d.pos = elt.getAttribute("data-pos");
      d.label = "click on the word “" + d.text + "”";
    } else {
      d.label = (d.text || d.action).replace(/\s+/g, " ");
    }
    if (elt.form && elt.form.querySelector('input[type="text"], input:not([type]), textarea, select')) {
      d.fields = {};
      Array.prototype.forEach.call(elt.form.elements, function (input) {
        if (input.name && input.type !== "hidden" && /^(INPUT|TEXTAREA|SELECT)$/.test(input.tagName))
          d.fields[input.name] = input.value;
      });
      var pos = elt.form.querySelector('input[name="pos"]');
      if (pos) d.pos = pos.value;
    }
    return d;
  }

  function matches(elt, d) {
    switch (d.action) {
      case "op":
        return (
          elt.getAttribute("data-op") === d.op &&
          (elt.textContent || "").trim() === d.text &&
          elt.getAttribute("data-ref-word") === d.ref
        );
      case "sser":
        return elt.getAttribute("data-sser") === d.value;
      case "use-ref":
        return elt.value === d.value;
      case "edit-word":
        return elt.getAttribute("data-pos") === d.pos && (elt.textContent || "").trim() === d.text;
      case "move-word": // the same move of the same word: after a move, the words differ
        return (
          elt.getAttribute("data-edge") === d.edge &&
          elt.getAttribute("data-move") === d.move &&
          (elt.textContent || "").trim() === d.text
        );
      default:
        if (d.key) return elt.getAttribute("data-key") === d.key;
        if (d.pos !== undefined) {
          var pos = elt.form && elt.form.querySelector('input[name="pos"]');
          return !!pos && pos.value === d.pos;
        }
        return true;
    }
  }

  function find(d) {
    var r = root();
    if (!r) return null;
    var all = r.querySelectorAll('[data-action="' + d.action + '"]');
    for (var i = 0; i < all.length; i++) {
      if (matches(all[i], d)) return all[i];
    }
    return null;
  }

  function fire(elt, d) {
    if (d.action === "severity") aimSeverity(d.op);
    if (d.fields && elt.form) {
      Object.keys(d.fields).forEach(function (name) {
        var input = elt.form.elements[name];
        if (input) input.value = d.fields[name];
      });
    }
    elt.click();
  }

  // --- severity of an error span (templates/judging/_severity.html) ---------------------------

  // The severity button acts on the operation that has (or last had) the focus: its token
  // goes into the form's hidden field as soon as it is focused, so m, or a click on the
  // button after tabbing to a word, marks that word.
  function aimSeverity(token) {
    var field = $("severity-op");
    if (field && token) field.value = token;
  }

  function describeSeverity(elt, d) {
    var field = elt.form && elt.form.querySelector('input[name="op"]');
    d.op = field ? field.value : "";
    var target = d.op && root().querySelector('#candidate [data-op][value="' + d.op + '"]');
    d.label = "severity of “" + (target ? (target.textContent || "").trim() : d.op) + "”";
  }

  document.addEventListener("focusin", function (evt) {
    var t = evt.target;
    if (inJudge(t) && t.hasAttribute && t.hasAttribute("data-op") && t.closest("#candidate")) aimSeverity(t.value);
  });

  // The mouse: the small "major" (or "minor") toggle drawn on the mark under the pointer
  // or with the focus (templates/judging/_judge.html) does what m does on that mark.
  document.addEventListener("click", function (evt) {
    var toggle = evt.target.closest && evt.target.closest(".severity-toggle");
    if (!toggle || !inJudge(toggle)) return;
    evt.preventDefault();
    aimSeverity(toggle.value);
    press("#toggle-severity");
  });

  // m with no operation focused (none yet on this page) does nothing.
  function toggleSeverity() {
    var list = ops();
    var i = list.indexOf(document.activeElement);
    if (i >= 0) aimSeverity(list[i].value);
    var field = $("severity-op");
    return !!(field && field.value) && press("#toggle-severity");
  }

  // --- values typed but not saved yet --------------------------------------------------------

  // Each field that holds a typed value, with the button that saves it (the one Enter
  // would use) and the action that closes it unsaved on purpose.
  var TYPED = [
    { fields: ["word-edit-text"], save: '[data-action="word-replace"]', discard: "cancel-edit" },
    { fields: ["word-insert-text"], save: '[data-action="word-insert-before"]', discard: "cancel-edit" },
    { fields: ["new-ref-text"], save: '[data-action="save-new-ref"]' },
    { fields: ["note-text", "note-flag"], save: "#save-note" },
  ];

  function typedIn(field) {
    if (!field || field.disabled) return false;
    if (field.tagName === "SELECT") {
      var first = 0;
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].defaultSelected) {
          first = i;
          break;
        }
      }
      return field.selectedIndex !== first;
    }
    return field.value.trim() !== field.defaultValue.trim();
  }

  // The save buttons of the fields typed in, in the order they are saved, leaving out the
  // form of ``elt`` (the action that saves them itself) and what ``elt`` closes on purpose.
  // A save is no action that needs the others saved first (the others stay typed in).
  function unsaved(elt) {
    var r = root();
    if (!r || r.hasAttribute("data-readonly")) return [];
    if (elt && TYPED.some(function (t) { return elt.matches(t.save); })) return [];
    var action = elt ? elt.getAttribute("data-action") : null;
    var buttons = [];
    TYPED.forEach(function (t) {
      if (t.discard && t.discard === action) return;
      if (!t.fields.map($).some(typedIn)) return;
      var button = r.querySelector(t.save);
      if (button && !button.disabled && !(elt && button.form === elt.form)) buttons.push(button);
    });
    return buttons;
  }

  // The typed values of the page, to put back into its next drawing: all but those the
  // request saved as they are (``saved``: the form it sent, with the values it sent).
  function typedValues(saved) {
    var kept = {};
    TYPED.forEach(function (t) {
      t.fields.forEach(function (id) {
        var field = $(id);
        if (!typedIn(field)) return;
        if (saved && field.form === saved.form && saved.fields[field.name] === field.value) return;
        kept[id] = field.value;
      });
    });
    return kept;
  }

  function putBack(kept) {
    Object.keys(kept).forEach(function (id) {
      var field = $(id);
      if (field && !field.disabled) field.value = kept[id];
    });
    grow();
  }

  // The flag is saved as soon as it is chosen (with the note as typed).
  document.addEventListener("change", function (evt) {
    var t = evt.target;
    if (!t || t.id !== "note-flag" || !inJudge(t)) return;
    var save = $("save-note");
    if (save && !save.disabled && t.form) t.form.requestSubmit(save);
  });

  window.addEventListener("beforeunload", function (evt) {
    if (!unsaved(null).length) return;
    evt.preventDefault();
    evt.returnValue = "";
  });

  // --- messages ----------------------------------------------------------------------------

  // While a failed request waits for Retry, only Retry (or a reload) clears the message:
  // dismissing it would leave the queue waiting with no way to send it.
  function say(text) {
    var box = $("client-status");
    if (!box) return;
    var p = document.createElement("p");
    p.textContent = text;
    $("client-status-text").appendChild(p);
    $("retry").hidden = !failed;
    $("client-status-close").hidden = !!failed;
    box.hidden = false;
  }

  function clearMessages() {
    var box = $("client-status");
    if (!box || failed) return;
    $("client-status-text").textContent = "";
    $("retry").hidden = true;
    $("client-status-close").hidden = false;
    box.hidden = true;
  }

  function notApplied(d, queued) {
    var why =
      judgmentShown() !== d.judgment
        ? "was made on another candidate than the one now shown"
        : "no longer applies to the page as it is now";
    say("Your " + (queued ? "queued " : "") + d.label + " " + why + ", so it was not done.");
  }

  function showQueue() {
    var q = $("queue-status");
    if (!q) return;
    q.textContent = queue.length
      ? queue.length + " action" + (queue.length > 1 ? "s" : "") + " waiting" + (failed ? " for Retry" : "") + "…"
      : "";
    q.hidden = !queue.length;
  }

  // --- focus kept across swaps ---------------------------------------------------------------

  function ops() {
    var r = root();
    return r ? Array.prototype.slice.call(r.querySelectorAll('#candidate [data-op]')) : [];
  }

  function rememberFocus() {
    var a = document.activeElement;
    if (!inJudge(a) || !a.getAttribute) return null;
    var index = ops().indexOf(a);
    return index >= 0 ? { op: index } : a.hasAttribute("data-action") ? { desc: describe(a) } : null;
  }

  function restoreFocus(saved) {
    var editor = $("word-edit-text");
    if (editor) {
      editor.focus();
      editor.select();
      return;
    }
    if (!saved) return;
    if (saved.op !== undefined) {
      var list = ops();
      if (list.length) list[Math.min(saved.op, list.length - 1)].focus();
      return;
    }
    var elt = find(saved.desc);
    if (elt) elt.focus();
  }

  // --- the request cycle -----------------------------------------------------------------------

  // A text saved with Enter (the whole text, the note) leaves its field: htmx would keep
  // the focus in the new field of the same id, where the next key would be typed, not
  // obeyed (u must undo, n go on).
  var LEAVE_AFTER = { "save-new-ref": true, "save-note": true };

  function finish() {
    var done = current;
    current = null;
    if (done && !done.focused) restoreFocus(done.focus);
    var a = document.activeElement;
    // the flag keeps the focus: ↓ again chooses the next one
    if (done && LEAVE_AFTER[done.desc.action] && inJudge(a) && a.form && a.id !== "note-flag") a.blur();
    var r = root();
    if (r && r.querySelector('[data-message-kind="stale"]') && queue.length) {
      say(
        queue.length +
          " queued action" +
          (queue.length > 1 ? "s were" : " was") +
          " not applied, because this judgment had changed elsewhere. Check the page and click again."
      );
      queue = [];
    } else if (done && done.desc.saving && r && r.querySelector("#judge-message") && queue.length) {
      say(
        "Your typed text was not saved (see the message), so " +
          queue.length +
          " action" +
          (queue.length > 1 ? "s" : "") +
          " after it " +
          (queue.length > 1 ? "were" : "was") +
          " not done. It is still in its field: correct it, or reload the page to drop it."
      );
      queue = [];
    }
    showQueue();
    window.setTimeout(drain, 0);
  }

  function fail(message) {
    failed = current.desc;
    current = null;
    say(
      message +
        " Your " +
        failed.label +
        " was not saved. Retry, or reload the page to start again from what is saved."
    );
    showQueue();
  }

  function drain() {
    if (current || failed || !queue.length) {
      showQueue();
      return;
    }
    var d = queue.shift();
    if (d.keyed) {
      if (judgmentShown() !== d.judgment) notApplied(d, true);
      else obey(d.keyed);
      if (!current) window.setTimeout(drain, 0);
      showQueue();
      return;
    }
    var elt = judgmentShown() === d.judgment ? find(d) : null;
    if (!elt || elt.disabled) {
      notApplied(d, true);
      window.setTimeout(drain, 0);
      return;
    }
    saving = !!d.saving;
    fire(elt, d);
    saving = false;
    showQueue();
  }

  function busy() {
    return !!(current || failed || queue.length);
  }

  document.addEventListener("htmx:confirm", function (evt) {
    if (!inJudge(evt.detail.elt)) return;
    var elt = actionElement(evt.detail);
    if (current || failed) {
      evt.preventDefault();
      queue.push(describe(elt));
      showQueue();
      return;
    }
    var saves = unsaved(elt);
    if (saves.length) {
      // what was typed is saved first, then the action runs on the page the saves produce
      evt.preventDefault();
      var first = saves.map(function (button) {
        var d = describe(button);
        d.saving = true;
        return d;
      });
      queue = first.concat([describe(elt)], queue);
      drain();
      return;
    }
    current = { desc: describe(elt), xhr: null, focus: rememberFocus(), judgment: judgmentShown() };
    current.desc.saving = saving;
    if (elt.form && current.desc.fields) current.sent = { form: elt.form, fields: current.desc.fields };
  });

  // Values typed while the request was on its way are put back into the new drawing of
  // the same candidate (not those of the form the request saved).
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (!current || evt.detail.xhr !== current.xhr) return;
    var ok = evt.detail.xhr.status < 300;
    current.kept = typedValues(ok && current.sent ? current.sent : null);
  });

  document.addEventListener("htmx:beforeSend", function (evt) {
    if (current && !current.xhr) current.xhr = evt.detail.xhr;
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!current || evt.detail.xhr !== current.xhr) return;
    var xhr = evt.detail.xhr;
    if (evt.detail.successful === false) {
      fail("The server could not do this (" + xhr.status + " " + (xhr.statusText || "error") + ").");
    } else if (evt.detail.successful === true) {
      // The swap settles a moment later; should nothing settle, do not wait for ever.
      window.setTimeout(function () {
        if (current && current.xhr === xhr) finish();
      }, 1500);
    }
  });

  // Focus goes back as soon as the new content is in, so that keys pressed next act on it.
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (current && evt.detail.xhr === current.xhr && !current.focused) {
      current.focused = true;
      var another = judgmentShown() !== current.judgment;
      if (another) clearMessages(); // what the page said was about the candidate it showed
      else if (current.kept) putBack(current.kept);
      restoreFocus(current.focus);
      // a new candidate: its source and candidate at the top of the window
      if (another) window.scrollTo(0, 0);
    }
  });

  document.addEventListener("htmx:afterSettle", function (evt) {
    if (current && evt.detail.xhr === current.xhr) finish();
  });

  [
    ["htmx:sendError", "The server could not be reached (network error)."],
    ["htmx:timeout", "The server did not answer in time."],
    ["htmx:sendAbort", "The request was interrupted."],
  ].forEach(function (pair) {
    document.addEventListener(pair[0], function (evt) {
      if (current && evt.detail.xhr === current.xhr) fail(pair[1]);
    });
  });

  function retry() {
    var d = failed;
    failed = null;
    clearMessages();
    if (!d) return;
    var elt = judgmentShown() === d.judgment ? find(d) : null;
    if (!elt || elt.disabled) {
      notApplied(d, false);
      drain();
      return;
    }
    fire(elt, d);
  }

  // htmx wires up new content when it settles, a moment after the swap. A click in that
  // moment would submit the form (or follow the link) natively, reloading the page: hold
  // it back and queue it like any click made during a request. htmx's own handlers cancel
  // the native action of the content it has wired, so only unwired clicks get here. A
  // plain link or form (no hx- request of its own or of its form: the finished page's
  // "Back to your last candidate") is meant to navigate natively, and does.
  var HX_REQUEST = "[hx-get],[hx-post],[hx-put],[hx-patch],[hx-delete]";
  function wiredByHtmx(elt) {
    return !!(elt.closest(HX_REQUEST) || (elt.form && elt.form.matches(HX_REQUEST)));
  }
  function holdBack(evt, elt) {
    if (evt.defaultPrevented || !window.htmx || !inJudge(elt) || !wiredByHtmx(elt)) return;
    evt.preventDefault();
    queue.push(describe(elt));
    showQueue();
    if (!current && !failed) window.setTimeout(drain, 20);
  }

  document.addEventListener("submit", function (evt) {
    holdBack(evt, evt.submitter || evt.target);
  });

  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest("a[data-action]");
    if (link && !evt.ctrlKey && !evt.metaKey && !evt.shiftKey && evt.button === 0) holdBack(evt, link);
  });

  // --- keys ------------------------------------------------------------------------------------

  function press(selector) {
    var r = root();
    var elt = r && r.querySelector(selector);
    if (elt && !elt.disabled) {
      elt.click();
      return true;
    }
    return false;
  }

  function moveOp(step) {
    var list = ops();
    if (!list.length) return;
    var i = list.indexOf(document.activeElement);
    i = i < 0 ? (step > 0 ? 0 : list.length - 1) : (i + step + list.length) % list.length;
    list[i].focus();
  }

  // The keys that press a button of the page, by the character typed; with Ctrl, by the
  // letter (Ctrl+Shift+Z redoes). The keys panel (templates/judging/_judge_keys.html)
  // lists them.
  var PRESS = { u: "#undo", r: "#redo", n: "#accept-next", c: "#confirm-reuse", p: "#previous",
    o: "#accept-as-is", "=": '[data-sser="10"]' };
  var CTRL_PRESS = { z: "#undo", y: "#redo", enter: "#accept-next" };

  // The button a key presses, or null. ``k`` holds what the keydown said: the character
  // typed (``key``: digits follow it, so AZERTY's Shift+digits score), the key's place
  // (``code``: the keys 1…4 of the digit row, typing no digit, pick a nearest reference:
  // QWERTY's and QWERTZ's Shift+1…4, AZERTY's & é " ' alone), and Ctrl and Shift.
  function button(k) {
    if (k.ctrl) return k.shift && /^z$/i.test(k.key) ? "#redo" : CTRL_PRESS[k.key.toLowerCase()] || null;
    if (/^[0-9]$/.test(k.key)) return '[data-sser="' + k.key + '"]';
    if (/^Digit[1-4]$/.test(k.code)) return '[data-pool="' + k.code.slice(5) + '"]';
    return PRESS[k.key] || null;
  }

  // What a key does on the page as it is now: a function doing it (true when it did
  // something), or null for a key that is not the page's.
  function command(k) {
    var selector = button(k);
    if (selector) return pressing(selector);
    if (k.ctrl) return null;
    switch (k.key) {
      case "ArrowRight":
      case "ArrowLeft":
        return function () {
          moveOp(k.key === "ArrowRight" ? 1 : -1);
          return true;
        };
      case "a":
        return function () {
          var list = ops();
          var i = list.indexOf(document.activeElement);
          if (list.length) list[i < 0 ? 0 : i].click();
          return list.length > 0;
        };
      case "m": // inside IER's items, m marks the item (static/js/ier.js), not an operation
        return k.inIer ? null : toggleSeverity;
      default:
        return null;
    }
  }

  function pressing(selector) {
    return function () {
      return press(selector);
    };
  }

  function obey(k) {
    var act = command(k);
    return !!act && act();
  }

  // What a queued key would have done on the page it was pressed on, for a message.
  function keyLabel(k) {
    var target = button(k);
    var elt = target && root().querySelector(target);
    return elt ? describe(elt).label : "key " + k.key;
  }

  // Keys that move the focus into a field act at once: what is typed next goes there.
  function focusField(id) {
    var field = $(id);
    if (!field || field.disabled) return false;
    field.focus();
    field.select();
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (!root()) return;
    var t = e.target;
    var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    if (e.key === "Escape") {
      if (typing) t.blur();
      press("#cancel-edit");
      return;
    }
    // The whole text is one line of words however long (it grows over several lines on
    // the screen): Enter saves it, as in a one-line field.
    if (t && t.id === "new-ref-text" && e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      var save = t.form && t.form.querySelector('[data-action="save-new-ref"]');
      if (save && !save.disabled) t.form.requestSubmit(save);
      return;
    }
    // In the flag list the page's keys win over its type-ahead (n goes on, it does not
    // pick "No flag"): only the arrows are the list's, to choose a flag.
    if (typing && (t.tagName !== "SELECT" || /^Arrow/.test(e.key))) return;
    if (e.altKey || e.metaKey || e.getModifierState("AltGraph")) return;
    if (!e.ctrlKey && (e.key === "e" || e.key === "f")) {
      focusField(e.key === "e" ? "new-ref-text" : "note-text");
      e.preventDefault();
      return;
    }
    var k = {
      key: e.key,
      code: e.code,
      shift: e.shiftKey,
      ctrl: e.ctrlKey,
      inIer: !!(t && t.closest && t.closest("#ier-items")),
    };
    var act = command(k);
    if (!act) return;
    e.preventDefault();
    if (!busy()) {
      act();
      return;
    }
    queue.push({ keyed: k, judgment: judgmentShown(), label: keyLabel(k) });
    showQueue();
  });

  // --- the whole text grows with its content -------------------------------------------------

  // CSS field-sizing does it where the browser has it; elsewhere the field gets as many
  // rows as its text needs, on every input and whenever htmx brings a new page in. Rows,
  // not a height: an inline style would break the Content-Security-Policy (htmx copies
  // the old field's attributes onto the new one while it settles).
  var fieldSizing = !!(window.CSS && CSS.supports && CSS.supports("field-sizing", "content"));
  var MAX_ROWS = 40;

  function grow() {
    var area = $("new-ref-text");
    if (!area || fieldSizing) return;
    area.rows = 1;
    while (area.scrollHeight > area.clientHeight && area.rows < MAX_ROWS) area.rows += 1;
  }

  document.addEventListener("input", function (evt) {
    if (evt.target && evt.target.id === "new-ref-text") grow();
  });
  document.addEventListener("htmx:afterSettle", grow);
  window.addEventListener("resize", grow);

  document.addEventListener("DOMContentLoaded", function () {
    grow();
    var retryButton = $("retry");
    if (retryButton) retryButton.addEventListener("click", retry);
    var close = $("client-status-close");
    if (close) close.addEventListener("click", clearMessages);
  });
})();
