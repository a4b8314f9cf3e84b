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
 */
(function () {
  "use strict";

  var queue = [];
  var current = null; // {desc, xhr, focus} of the request in flight
  var failed = null; // descriptor of the request that failed, for Retry

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

  // m with no operation focused (none yet on this page) does nothing.
  function toggleSeverity() {
    var list = ops();
    var i = list.indexOf(document.activeElement);
    if (i >= 0) aimSeverity(list[i].value);
    var field = $("severity-op");
    return !!(field && field.value) && press("#toggle-severity");
  }

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
    if (done && LEAVE_AFTER[done.desc.action] && inJudge(a) && a.form) a.blur();
    var r = root();
    if (r && r.querySelector('[data-message-kind="stale"]') && queue.length) {
      say(
        queue.length +
          " queued action" +
          (queue.length > 1 ? "s were" : " was") +
          " not applied, because this judgment had changed elsewhere. Check the page and click again."
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
    var elt = judgmentShown() === d.judgment ? find(d) : null;
    if (!elt || elt.disabled) {
      notApplied(d, true);
      window.setTimeout(drain, 0);
      return;
    }
    fire(elt, d);
    showQueue();
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
    current = { desc: describe(elt), xhr: null, focus: rememberFocus() };
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
      restoreFocus(current.focus);
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
  // the native action of the content it has wired, so only unwired clicks get here.
  function holdBack(evt, elt) {
    if (evt.defaultPrevented || !window.htmx || !inJudge(elt)) return;
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
    if (typing || e.altKey || e.metaKey) return;
    var key = e.key;
    var handled = true;
    if (e.ctrlKey) {
      if (key === "z" || key === "Z") handled = press(e.shiftKey ? "#redo" : "#undo");
      else if (key === "y" || key === "Y") handled = press("#redo");
      else if (key === "Enter") handled = press("#accept-next");
      else return;
    } else if (e.shiftKey && /^Digit[1-4]$/.test(e.code)) {
      press('[data-pool="' + e.code.slice(5) + '"]');
    } else if (/^[0-9]$/.test(key)) {
      press('[data-sser="' + key + '"]');
    } else if (key === "=") {
      press('[data-sser="10"]');
    } else if (key === "ArrowRight") {
      moveOp(1);
    } else if (key === "ArrowLeft") {
      moveOp(-1);
    } else if (key === "a") {
      var list = ops();
      var i = list.indexOf(document.activeElement);
      if (list.length) list[i < 0 ? 0 : i].click();
    } else if (key === "m") {
      // inside IER's items, m marks the item (static/js/ier.js), not an operation
      if (!(t && t.closest && t.closest("#ier-items"))) toggleSeverity();
    } else if (key === "u") {
      press("#undo");
    } else if (key === "r") {
      press("#redo");
    } else if (key === "n") {
      press("#accept-next");
    } else if (key === "c") {
      press("#confirm-reuse");
    } else if (key === "p") {
      press("#previous");
    } else if (key === "o") {
      press("#accept-as-is");
    } else if (key === "e") {
      var field = $("new-ref-text");
      if (field) {
        field.focus();
        field.select();
      }
    } else if (key === "f") {
      var note = $("note-text");
      if (note && !note.disabled) {
        note.focus();
        note.select();
      }
    } else {
      handled = false;
    }
    if (handled) e.preventDefault();
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
