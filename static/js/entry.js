/* Score entry grid (arbiter): live totals, difference, VP and sum-error flag; base + cards
   mode; hand calculator; keyboard shortcuts. No framework. The server recomputes on save.
   The VP scale comes from the page (<script id="vp-scale"> JSON, vp_scales.json shape). */
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  if (!form) { return; }
  var scale = JSON.parse(document.getElementById("vp-scale").textContent);
  var LINES = ["ns", "ew"];

  function parse(input) {
    var raw = (input.value || "").replace(/\u2212/g, "-").replace(/\s+/g, "");
    if (raw === "") { return null; }
    if (!/^[+-]?\d+$/.test(raw)) { return NaN; }
    return parseInt(raw, 10);
  }
  function show(id, text) { var el = document.getElementById(id); if (el) { el.textContent = text; } }
  function field(row, name) { return row.querySelector('[data-field="' + name + '"]'); }
  function rows() { return Array.prototype.slice.call(form.querySelectorAll("tr[data-hand]")); }
  function partsMode() { return form.classList.contains("parts"); }

  /* MP difference -> [vp_ns, vp_ew] by the scale's bands (inclusive, rules.md §4). */
  function toVP(diff) {
    var a = Math.abs(diff);
    for (var i = 0; i < scale.bands.length; i++) {
      var b = scale.bands[i];
      if (a >= b.min && (b.max === null || a <= b.max)) {
        return diff >= 0 ? [b.winner, b.loser] : [b.loser, b.winner];
      }
    }
    return null;
  }

  function recompute() {
    var totals = { ns: 0, ew: 0 }, complete = true, bad = false;
    rows().forEach(function (row) {
      LINES.forEach(function (line) {
        var total = field(row, line);
        if (partsMode()) {
          var b = parse(field(row, line + "_base")), c = parse(field(row, line + "_cards"));
          if (b !== null || c !== null) {
            var s = (b || 0) + (c || 0);
            total.value = isNaN(s) ? "" : String(s);
          }
        }
        var v = parse(total);
        var wrong = v !== null && (isNaN(v) || v % 5 !== 0);
        total.classList.toggle("bad", wrong);
        if (v === null) { complete = false; } else if (wrong) { bad = true; } else { totals[line] += v; }
      });
    });
    show("total-ns", totals.ns);
    show("total-ew", totals.ew);
    var diff = totals.ns - totals.ew;
    show("difference", (diff > 0 ? "+" : "") + diff);
    var split = bad ? null : toVP(diff);
    show("vp-ns", split ? split[0] : "–");
    show("vp-ew", split ? split[1] : "–");
    var dn = parse(form.elements.declared_ns), de = parse(form.elements.declared_ew);
    var sumError = (dn !== null && dn !== totals.ns) || (de !== null && de !== totals.ew);
    document.getElementById("sum-error-live").hidden = !(sumError && complete);
    document.getElementById("incomplete").hidden = complete;
  }

  /* In base + cards mode the totals are filled in and skipped by Tab. */
  function applyMode() {
    var on = document.getElementById("parts-toggle").checked;
    form.classList.toggle("parts", on);
    rows().forEach(function (row) {
      LINES.forEach(function (line) { field(row, line).tabIndex = on ? -1 : 0; });
    });
    recompute();
  }

  form.addEventListener("input", recompute);
  document.getElementById("parts-toggle").addEventListener("change", function () {
    applyMode();
    var first = form.querySelector(partsMode() ? '[data-field="ns_base"]' : '[data-field="ns"]');
    if (first) { first.focus(); }
  });

  document.addEventListener("keydown", function (ev) {
    if (!ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var key = ev.key.toLowerCase(), target = null;
    if (key === "n") { target = document.getElementById("next-table"); }
    if (key === "s") { target = document.getElementById("save"); }
    if (key === "v") { target = document.getElementById("save-validate"); }
    if (target) { ev.preventDefault(); target.click(); }
  });

  /* Hand calculator: the server computes with scoring.hands and the tournament's rule set. */
  var calc = document.getElementById("calculator");
  if (calc) {
    document.getElementById("calc-apply").addEventListener("click", function () {
      var params = new URLSearchParams();
      calc.querySelectorAll("[data-param]").forEach(function (el) {
        params.set(el.dataset.param, el.type === "checkbox" ? (el.checked ? "1" : "") : el.value);
      });
      var out = document.getElementById("calc-result");
      fetch(calc.dataset.url + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (resp) { return resp.json(); })
        .then(function (data) {
          if (data.error) { out.textContent = data.error; out.className = "errors"; return; }
          var hand = document.getElementById("calc-hand").value;
          var line = document.getElementById("calc-line").value;
          var row = form.querySelector('tr[data-hand="' + hand + '"]');
          field(row, line + "_base").value = data.base;
          field(row, line + "_cards").value = data.cards;
          document.getElementById("parts-toggle").checked = true;
          applyMode();
          out.className = "";
          out.textContent = (out.dataset.format || "base %(base)s + carte %(cards)s = %(score)s")
            .replace("%(base)s", data.base).replace("%(cards)s", data.cards).replace("%(score)s", data.score);
        })
        .catch(function () { out.textContent = "?"; });
    });
  }

  applyMode();
  if (partsMode()) {
    var first = form.querySelector('[data-field="ns_base"]');
    if (first && document.activeElement && document.activeElement.dataset.field === "ns") { first.focus(); }
  }
})();
