/*
 * The judge's page (templates/judging/judge.html): never drop a click, never lose what
 * is typed, and a key for every action.
 *
 * htmx queues the requests: a click of #judge (a form's button, a link) is sent from
 * #queue-status, which no answer redraws, whose hx-sync keeps them in the order made,
 * each with what was clicked as it was then. The server finds what a click names by its
 * content (a marked word by its kind and words: annotation/judging/edits.py), so a click
 * queued behind another means the same on the page that one produced, and the version
 * filled in as it leaves only tells another tab's change (409). #judge is morphed, not
 * replaced (idiomorph's htmx extension): the focus and the text typed come through.
 *
 * Left to this file: keys (one table, annotation/judging/keys.py), each pressed while
 * requests are pending done on the page the one before produced (`a a a` accepts three
 * marked words); typed text saved before an action that redraws it; no request sent
 * for a candidate no longer shown (a second `n`) or behind a refusal (a refused save
 * holds its action back), and the page says so; a failed request holds the others back
 * until Retry sends it again as it was (a change saved whose answer was lost is then
 * answered as saved).
 */
(function () {
  "use strict";

  var pending = []; // requests handed to htmx, in order; the first is on its way
  var later = []; // keys, and clicks after them, made while requests were pending
  var held = []; // requests kept back while a failed one waits for Retry
  var failed = null; // the request that failed
  var replaying = false; // a waiting key is being done: its clicks go at once
  var swapping = null; // the request whose answer is drawn, saved or not, and the focus
  var ANOTHER = "was made on another candidate than the one now shown";
  var STOPPED = "came after a change that was refused";

  function $(id) { return document.getElementById(id); }
  function root() { return $("judge"); }
  function all(selector) { var r = root(); return r ? Array.prototype.slice.call(r.querySelectorAll(selector)) : []; }
  function shown() { var r = root(); return r ? r.getAttribute("data-judgment") : null; }
  function busy() { return !!(pending.length || later.length || failed); }

  // --- requests -----------------------------------------------------------------------
  // How a message names what was clicked.
  function label(elt) {
    if (elt.hasAttribute("data-sser")) return "SSER " + elt.getAttribute("data-sser");
    var text = "";
    elt.childNodes.forEach(function (n) { if (n.nodeName !== "KBD") text += n.textContent; });
    text = text.replace(/\s+/g, " ").trim();
    if (elt.hasAttribute("data-op") || elt.hasAttribute("data-pos")) return "click on “" + text + "”";
    if (elt.getAttribute("data-action") === "use-ref") return "choice of the reference “" + text + "”";
    return text || elt.getAttribute("data-action") || "click";
  }

  // What a click sends, taken as it is made: its form's values and its button's, alone
  // under its name (a mark's own severity toggle outvotes the form's hidden field).
  function request(elt, verb, path, by) {
    var form = elt.tagName === "FORM" ? elt : null;
    var values = form ? new FormData(form) : null;
    if (values && by.name) values.set(by.name, by.value);
    return { verb: verb, path: path, elt: by, form: form, values: values, judgment: shown(), label: label(by) };
  }

  function issue(meta) {
    meta.queued = pending.length > 0;
    pending.push(meta);
    showQueue();
    htmx.ajax(meta.verb, meta.path, { source: $("queue-status"), event: meta, values: meta.values });
  }

  // Every request of #judge is sent as above, behind the saves of what is typed; while
  // keys wait (or a failed request does), behind them.
  document.addEventListener("htmx:confirm", function (evt) {
    var d = evt.detail;
    var r = root();
    if (!r || !r.contains(d.elt)) return;
    evt.preventDefault();
    var by = (d.triggeringEvent && d.triggeringEvent.submitter) || d.elt;
    var asked = unsaved(by).map(function (save) {
      return request(save.form, "post", save.form.getAttribute("hx-post"), save);
    });
    asked.push(request(d.elt, d.verb, d.path, by));
    asked.forEach(function (meta) {
      if (failed || (later.length && !replaying)) later.push(meta);
      else issue(meta);
    });
    showQueue();
  });

  // As a request leaves: not at all on another candidate or behind a refusal, held back
  // behind a failure, else with the version of the page as it is now.
  document.addEventListener("htmx:configRequest", function (evt) {
    var meta = evt.detail.triggeringEvent;
    if (!meta || meta !== pending[0]) return;
    var why = whyNot(meta);
    if (failed || why) {
      evt.preventDefault(); // htmx goes on with the next one
      pending.shift();
      if (failed) held.push(meta);
      else notDone(meta, why);
      return settled();
    }
    var version = root().getAttribute("data-version");
    if (version && meta.values && meta.values.has("version")) evt.detail.parameters.version = version;
    if (meta.elt.isConnected) meta.elt.classList.add("htmx-request");
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var meta = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    if (!meta || meta !== pending[0]) return;
    pending.shift();
    meta.elt.classList.remove("htmx-request");
    var xhr = evt.detail.xhr;
    var answer = xhr.status + " " + (xhr.statusText || "error");
    if (!xhr.status) fail(meta, "The server could not be reached.");
    else if (evt.detail.failed) fail(meta, "The server could not do this (" + answer + ").");
    else if (xhr.status === 409 || xhr.status === 422) refused(meta);
    settled();
  });

  function whyNot(item) { return item.stopped ? STOPPED : item.judgment !== shown() ? ANOTHER : null; }

  // A refusal (the server says why on the page) stops what was queued behind it: aimed
  // past a change that was not made. A queued click's refusal is said in the bar too,
  // which stays until dismissed or the candidate changes.
  function refused(meta) {
    pending.concat(later).forEach(function (item) { item.stopped = true; });
    var message = $("judge-message");
    if (meta.queued && message) say(message.textContent);
  }

  function fail(meta, why) {
    failed = meta;
    say(why + " Your " + meta.label + " was not saved. Retry, or reload the page to start again from what is saved.");
  }

  function retry() {
    var meta = failed;
    failed = null;
    say(null);
    later = held.concat(later);
    held = [];
    if (meta) issue(meta);
  }

  function notDone(item, why) { say("Your queued " + item.label + " " + why + ", so it was not done."); }

  function settled() {
    showQueue();
    if (!pending.length) window.setTimeout(drain, 0);
  }

  // What waited, in order, each on the page the one before produced; a request waits
  // for its answer before the next goes.
  function drain() {
    replaying = true;
    while (later.length && !pending.length && !failed) {
      var item = later.shift();
      var why = whyNot(item);
      if (why) notDone(item, why);
      else if (item.does) run(item.does);
      else issue(item);
    }
    replaying = false;
    showQueue();
  }

  // --- answers ------------------------------------------------------------------------
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var meta = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    var op = all("#candidate [data-op]").indexOf(document.activeElement);
    swapping = meta && meta.verb ? { meta: meta, saved: evt.detail.xhr.status < 300, op: op } : null;
  });

  // A new candidate starts at the top, with no message about the one before. The focus
  // stays on the n-th marked word (the one accepted is gone: the next takes its place).
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!swapping || evt.target !== root()) return;
    if (swapping.meta.judgment !== shown()) {
      say(null);
      window.scrollTo(0, 0);
    }
    var ops = all("#candidate [data-op]");
    var at = Math.min(swapping.op, ops.length - 1);
    if (at >= 0 && ops.indexOf(document.activeElement) !== at) ops[at].focus();
  });

  // A text saved (Enter) leaves its field, so that the next key is obeyed, not typed (a
  // list keeps the focus: ↓ again chooses the next flag). The word editor opens with its
  // word selected.
  document.addEventListener("htmx:afterSettle", function () {
    var done = swapping && swapping.meta;
    var a = document.activeElement;
    if (done && done.form && a.form === done.form && /^(INPUT|TEXTAREA)$/.test(a.tagName)) a.blur();
    if (a.id === "word-edit-text" && a.value === a.defaultValue) a.select();
    swapping = null;
  });

  // --- what is typed --------------------------------------------------------------------
  // A field typed in holds another value than the page was drawn with.
  function typedIn(field) {
    if (!/^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName) || field.disabled) return false;
    if (field.tagName !== "SELECT") return field.value.trim() !== field.defaultValue.trim();
    var first = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
    return field.selectedIndex !== Math.max(first, 0);
  }

  function saveButton(form) {
    return form.querySelector('button[type="submit"]'); // as Enter in the field saves it
  }

  // The save buttons of the forms typed in, in the page's order: not ``elt``'s own form
  // (it sends them), nor the word editor when ``elt`` closes it on purpose, nor a form a
  // request already waits to save.
  function unsaved(elt) {
    var r = root();
    if (!r || r.hasAttribute("data-readonly")) return [];
    var closing = elt && elt.getAttribute("data-action") === "cancel-edit";
    var waiting = pending.concat(later, held);
    var forms = [];
    all("input, textarea, select").filter(typedIn).forEach(function (field) {
      var form = field.form;
      if (forms.indexOf(form) >= 0 || (elt && (elt === form || elt.form === form))) return;
      if ((closing && field.closest("#word-editor")) || waiting.some(function (m) { return m.form === form; })) return;
      if (!saveButton(form).disabled) forms.push(form);
    });
    return forms.map(saveButton);
  }

  // A field typed in keeps its text when its candidate is drawn again, unless the
  // answer is that of this very text saved. A field without a name (ESA's slider, one
  // value with the score's box) is never sent: the answer of its form saved is its own,
  // else it would stay "typed in" and be saved again before the next action.
  if (window.Idiomorph) {
    var sameCandidate = true;
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old, fresh) {
      if (old === root()) sameCandidate = old.getAttribute("data-judgment") === fresh.getAttribute("data-judgment");
      if (!sameCandidate || !typedIn(old)) return true;
      var sent = swapping && swapping.saved && swapping.meta.form === old.form && swapping.meta.values;
      return !!sent && (!old.name || sent.get(old.name) === old.value);
    };
  }

  // A choice in a list (the flag) is saved as soon as it is made, with its form.
  document.addEventListener("change", function (evt) {
    var t = evt.target;
    if (t.tagName === "SELECT" && root() && root().contains(t)) t.form.requestSubmit(saveButton(t.form));
  });

  window.addEventListener("beforeunload", function (evt) {
    if (unsaved(null).length) evt.preventDefault();
  });

  // --- messages -------------------------------------------------------------------------
  // The page's own messages (null: none). While a failed request waits for Retry, only
  // Retry (or a reload) clears them: dismissed, the requests would wait for nothing.
  function say(text) {
    if (text === null && failed) return;
    if (text === null) $("client-status-text").textContent = "";
    else $("client-status-text").appendChild(document.createElement("p")).textContent = text;
    $("retry").hidden = !failed;
    $("client-status-close").hidden = !!failed;
    $("client-status").hidden = text === null;
  }

  function showQueue() {
    var n = later.length + held.length + Math.max(pending.length - 1, 0);
    var waiting = n + " action" + (n > 1 ? "s" : "") + " waiting" + (failed ? " for Retry" : "") + "…";
    $("queue-status").textContent = n ? waiting : "";
    $("queue-status").hidden = !n;
  }

  $("retry").addEventListener("click", retry);
  $("client-status-close").addEventListener("click", function () { say(null); });

  // --- keys -----------------------------------------------------------------------------
  var KEYS = JSON.parse($("judge-keys").textContent);

  // What a keydown does (keys.py names keys as this does): the character typed, else the
  // key's place; with Ctrl, the character. On an IER item its keys come first.
  function bound(e, onItem) {
    var name = e.ctrlKey ? "Ctrl+" + (e.shiftKey ? "Shift+" : "") + e.key.toLowerCase() : e.key;
    var code = e.ctrlKey ? null : e.code;
    return (onItem && (KEYS.item[name] || KEYS.item[code])) || KEYS.page[name] || KEYS.page[code] || null;
  }

  function press(elt) {
    if (typeof elt === "string") elt = root().querySelector(elt);
    if (elt && !elt.disabled) elt.click();
  }

  // The severity button acts on the marked word that has (or last had) the focus.
  document.addEventListener("focusin", function (evt) {
    var t = evt.target;
    if (t.hasAttribute && t.hasAttribute("data-op") && t.closest("#judge #candidate")) $("severity-op").value = t.value;
  });

  // The next (1) or previous (-1) of ``list`` after ``at`` (none: the first or the last).
  function next(list, at, by) {
    var i = list.indexOf(at);
    return list.length ? list[i < 0 ? (by > 0 ? 0 : list.length - 1) : (i + by + list.length) % list.length] : null;
  }

  // What a key does on the page as it is now: a command of keys.py, or a button pressed.
  function run(does) {
    var ops = all("#candidate [data-op]");
    var op = ops.indexOf(document.activeElement);
    var by = /:next$/.test(does) ? 1 : -1;
    var arg = does.slice(does.indexOf(":") + 1);
    var aim = $("severity-op");
    var item = document.activeElement.closest(".ier-item[data-start]");
    if (does === "op:next" || does === "op:previous") {
      if (ops.length) next(ops, document.activeElement, by).focus();
    } else if (does === "op:accept") press(ops[Math.max(op, 0)]);
    else if (does === "op:severity" && aim) {
      if (op >= 0) aim.value = ops[op].value;
      if (aim.value) press("#toggle-severity"); // no word focused yet: none to mark
    } else if (does === "item:next" || does === "item:previous") {
      item = next(all("#ier-items .ier-item[data-start]"), item, by);
      var mark = item && (item.querySelector(".ier-mark.pressed") || item.querySelector(".ier-mark"));
      if (mark) mark.focus();
    } else if (does.indexOf("mark:") === 0) press(item && item.querySelector('[data-mark="' + arg + '"]'));
    else if (does.indexOf("field:") === 0 && $(arg) && !$(arg).disabled) {
      $(arg).focus();
      $(arg).select();
    } else if (/^[#[]/.test(does)) press(does);
  }

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (!root()) return;
    var typing = t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable;
    // The whole text is one line of words however long: Enter saves it, as in a one-line field.
    if (t.id === "new-ref-text" && e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      return press(saveButton(t.form));
    }
    if (typing && e.key === "Escape") t.blur();
    // In the flag list the page's keys win over its type-ahead (n goes on, it does not
    // pick "No flag"): only the arrows are the list's.
    else if (typing && (t.tagName !== "SELECT" || /^Arrow/.test(e.key))) return;
    if (e.altKey || e.metaKey || e.getModifierState("AltGraph")) return;
    var does = bound(e, !!(t.closest && t.closest("#ier-items")));
    if (!does) return;
    e.preventDefault();
    if (does.indexOf("field:") === 0 || !busy()) return run(does); // a field at once: typing goes there
    var target = /^[#[]/.test(does) && root().querySelector(does);
    later.push({ does: does, judgment: shown(), label: target ? label(target) : "key " + e.key });
    showQueue();
  });
})();
