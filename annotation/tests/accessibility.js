// What annotation/tests/test_browser_accessibility.py checks in the page beside axe-core:
// the contrast of text drawn in an SVG chart (axe cannot tell what lies under it), the
// keyboard's focus outline, and which controls a keyboard should reach. Injected through
// DevTools as axe is; no page of the app loads it.
window.evaltoolChecks = (function () {
  "use strict";

  // "rgb(r, g, b)" or "rgba(r, g, b, a)" as [r, g, b, a]
  function rgba(css) {
    var v = (css.match(/[\d.]+/g) || []).map(Number);
    return v.length < 3 ? [0, 0, 0, 0] : [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  }

  // colour ``top`` (its alpha times ``alpha``) painted over the opaque colour ``below``
  function over(top, below, alpha) {
    var a = top[3] * (alpha === undefined ? 1 : alpha);
    return [0, 1, 2].map(function (i) { return a * top[i] + (1 - a) * below[i]; }).concat([1]);
  }

  // WCAG 2's relative luminance and contrast ratio
  function luminance(c) {
    var f = function (v) {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }

  function contrast(a, b) {
    var x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }

  // The colour behind an element: the backgrounds of it and its ancestors, painted from
  // the page (white) up.
  function backgroundOf(element) {
    var layers = [];
    for (var e = element; e && e.nodeType === 1; e = e.parentElement) {
      var c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
    }
    return layers.reverse().reduce(function (below, c) { return over(c, below); }, [255, 255, 255, 1]);
  }

  function describe(element) {
    var id = element.id ? "#" + element.id : "";
    var text = (element.textContent || element.getAttribute("aria-label") || "").trim().slice(0, 30);
    return element.tagName.toLowerCase() + id + (text ? " “" + text + "”" : "");
  }

  function within(box, x, y) {
    return box.left <= x && x <= box.right && box.top <= y && y <= box.bottom;
  }

  // Each text of an SVG chart against what the chart draws under its middle (its shapes
  // that come before it, over the page's white), at 4.5:1 (3:1 from 24 px, or 18.7 px
  // bold).
  function svgText() {
    var out = [];
    document.querySelectorAll("svg text").forEach(function (text) {
      var box = text.getBoundingClientRect();
      if (!text.textContent.trim() || !box.width) return;
      var x = box.left + box.width / 2, y = box.top + box.height / 2;
      var bg = [255, 255, 255, 1];
      text.ownerSVGElement.querySelectorAll("rect, circle, ellipse, path, polygon").forEach(function (shape) {
        if (!(shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING)) return;
        if (!within(shape.getBoundingClientRect(), x, y)) return;
        var style = getComputedStyle(shape);
        if (style.fill === "none") return;
        bg = over(rgba(style.fill), bg, Number(style.fillOpacity) * Number(style.opacity));
      });
      var style = getComputedStyle(text);
      var size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
      var needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      var ratio = contrast(rgba(style.fill), bg);
      if (ratio < needed) {
        var chart = text.closest("[data-chart]");
        out.push("SVG text “" + text.textContent.trim() + "” in chart " +
          (chart ? chart.dataset.chart : "?") + ": contrast " + ratio.toFixed(2) + ", needs " + needed);
      }
    });
    return out;
  }

  // The controls a keyboard must reach: shown, enabled, in the tab order.
  function controls() {
    var all = document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]");
    return Array.prototype.filter.call(all, function (e) {
      return e.tabIndex >= 0 && !e.disabled && e.type !== "hidden" &&
        e.checkVisibility({ visibilityProperty: true }) && !e.closest("[inert]");
    });
  }

  // Number every control (data-a11y): what the walk with Tab must reach.
  function start() {
    return controls().map(function (e, i) {
      e.dataset.a11y = String(i);
      return describe(e);
    });
  }

  // The control with the focus: its number, and what is wrong with how it shows the focus
  // (an outline of 2 px or more, solid, 3:1 against what is around it; not hidden under
  // the page's own bars and messages).
  function focused() {
    var e = document.activeElement;
    if (!e || e === document.body) return { key: null, faults: [] };
    var style = getComputedStyle(e), faults = [];
    var width = parseFloat(style.outlineWidth), offset = parseFloat(style.outlineOffset);
    if (style.outlineStyle !== "solid" || width < 2) {
      faults.push("focus outline " + style.outlineStyle + " " + style.outlineWidth);
    } else {
      var around = backgroundOf(offset + width > 0 ? e.parentElement : e);
      var ratio = contrast(rgba(style.outlineColor), around);
      if (ratio < 3) faults.push("focus outline at contrast " + ratio.toFixed(2));
    }
    var box = e.getBoundingClientRect();
    var corners = [[box.left + 1, box.top + 1], [box.right - 1, box.top + 1],
      [box.left + 1, box.bottom - 1], [box.right - 1, box.bottom - 1],
      [box.left + box.width / 2, box.top + box.height / 2]];
    var seen = corners.some(function (p) {
      var top = document.elementFromPoint(p[0], p[1]);
      return top && (top === e || e.contains(top));
    });
    if (!seen) faults.push("hidden under another element");
    var key = e.dataset.a11y === undefined ? null : e.dataset.a11y;
    return { key: key, where: describe(e), faults: faults };
  }

  return { svgText: svgText, start: start, focused: focused };
})();
