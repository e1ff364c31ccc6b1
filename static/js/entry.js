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

  /* Problem texts come from the page (translated): data-not-multiple, data-not-integer. */
  function problem(kind, value, where) {
    var fallback = kind === "multiple" ? "%(v)s non è multiplo di 5" : "«%(v)s» non è un numero intero";
    var text = form.dataset[kind === "multiple" ? "notMultiple" : "notInteger"] || fallback;
    return (where ? where + ": " : "") + text.replace("%(v)s", value);
  }
  /* "Smazzata 3, linea E/O" (data-where, translated), so every problem names its cell. */
  function whereOf(row, line) {
    var text = form.dataset.where || "Smazzata %(h)s, linea %(l)s";
    return text.replace("%(h)s", row.dataset.hand).replace("%(l)s", line === "ns" ? "N/S" : (form.dataset.ew || "E/O"));
  }

  /* Totals, difference and VP are shown only while every typed cell is valid: an invalid
     cell is never left out quietly. The badge names the first problem (and how many more);
     the sum-error badge only when every cell is valid and filled and the declared totals
     differ from the sums (rules.md §2–3). */
  function recompute() {
    var totals = { ns: 0, ew: 0 }, complete = true, problems = [];
    function check(input, where) {
      var v = parse(input);
      var wrong = v !== null && (isNaN(v) || v % 5 !== 0);
      input.classList.toggle("bad", wrong);
      if (wrong) {
        var raw = input.value.trim();
        problems.push(isNaN(v) ? problem("integer", raw, where) : problem("multiple", raw, where));
      }
      return wrong ? NaN : v;
    }
    rows().forEach(function (row) {
      LINES.forEach(function (line) {
        var total = field(row, line);
        if (partsMode()) {
          var bi = field(row, line + "_base"), ci = field(row, line + "_cards");
          var b = parse(bi), c = parse(ci);
          bi.classList.toggle("bad", b !== null && isNaN(b));
          ci.classList.toggle("bad", c !== null && isNaN(c));
          if (b !== null && isNaN(b)) { problems.push(problem("integer", bi.value.trim(), whereOf(row, line))); }
          if (c !== null && isNaN(c)) { problems.push(problem("integer", ci.value.trim(), whereOf(row, line))); }
          if (b !== null || c !== null) {
            var s = (b || 0) + (c || 0);
            total.value = isNaN(s) ? "" : String(s);
          }
        }
        var v = check(total, whereOf(row, line));
        if (v === null) { complete = false; } else if (!isNaN(v)) { totals[line] += v; }
      });
    });
    /* A declared total only has to be an integer: one that is not a multiple of 5 is
       simply a sum error (scoring/sheets.py). */
    var dn = parse(form.elements.declared_ns), de = parse(form.elements.declared_ew);
    [[form.elements.declared_ns, dn], [form.elements.declared_ew, de]].forEach(function (pair) {
      var wrong = pair[1] !== null && isNaN(pair[1]);
      pair[0].classList.toggle("bad", wrong);
      if (wrong) { problems.push(problem("integer", pair[0].value.trim())); }
    });
    var invalid = problems.length > 0, DASH = "\u2014";
    /* Nothing typed yet is no result: "—", never "VP 10–10". */
    var anyTyped = Array.prototype.some.call(form.querySelectorAll("#grid tbody input"), function (i) {
      return i.value.trim() !== "";
    });
    show("total-ns", invalid ? DASH : totals.ns);
    show("total-ew", invalid ? DASH : totals.ew);
    var diff = totals.ns - totals.ew;
    show("difference", invalid || !anyTyped ? DASH : (diff > 0 ? "+" : "") + diff);
    var split = invalid || !anyTyped ? null : toVP(diff);
    /* No result: one "—" for the VP, not "—–—" (new-user trial). */
    show("vp-ns", split ? split[0] : DASH);
    show("vp-ew", split ? split[1] : "");
    var sep = document.getElementById("vp-sep");
    if (sep) { sep.hidden = !split; }
    var badge = document.getElementById("invalid-live");
    badge.hidden = !invalid;
    badge.textContent = invalid ? problems[0] + (problems.length > 1 ? " (+" + (problems.length - 1) + ")" : "") : "";
    badge.title = problems.join("\n");
    /* every problem at once, one a line (not one per save) */
    var list = document.getElementById("invalid-list");
    if (list) {
      while (list.firstChild) { list.removeChild(list.firstChild); }
      problems.forEach(function (p) { var li = document.createElement("li"); li.textContent = p; list.appendChild(li); });
      list.hidden = !invalid;
    }
    var sumError = (dn !== null && dn !== totals.ns) || (de !== null && de !== totals.ew);
    document.getElementById("sum-error-live").hidden = !(sumError && complete && !invalid);
    document.getElementById("incomplete").hidden = complete || invalid;
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

  /* The reason is required (server: needs_reason) only for a change: an unchanged
     "Salva e valida" is a validation, so the browser must not block it. */
  var reason = document.getElementById("reason");
  var needsReason = reason && reason.hasAttribute("required");
  function gridValues() {
    return Array.prototype.map.call(form.querySelectorAll("#grid input"), function (i) { return i.value.trim(); }).join("|");
  }
  /* Likewise the correction kind (art. 31): every change of a sheet already entered. */
  var kind = document.getElementById("kind");
  var needsKind = kind && kind.hasAttribute("required");
  var refused = !!document.getElementById("sheet-errors"), initialGrid = null;
  function updateReason() {
    if (initialGrid === null) { return; }
    var changed = refused || gridValues() !== initialGrid;
    if (needsReason) { reason.required = changed; }
    if (needsKind) { kind.required = changed; }
  }

  form.addEventListener("input", recompute);
  form.addEventListener("input", updateReason);
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
      var hand = document.getElementById("calc-hand").value;
      var line = document.getElementById("calc-line").value;
      var row = form.querySelector('tr[data-hand="' + hand + '"]');
      /* only one line closes in a hand: tell the server if the other line already closed */
      var other = line === "ns" ? "ew" : "ns";
      params.set("other_closing", row && row.dataset.closing === other ? "1" : "");
      fetch(calc.dataset.url + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (resp) { return resp.json(); })
        .then(function (data) {
          if (data.error) { out.textContent = data.error; out.className = "errors"; return; }
          if (params.get("closing") === "1") { row.dataset.closing = line; }
          else if (row.dataset.closing === line) { delete row.dataset.closing; }
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

  /* A closed round's grid, opened with "Correggi", stays read-only until a
     correction kind is chosen (rules.md §3; the server refuses a change without one anyway). */
  var fields = document.getElementById("grid-fields");
  if (fields && fields.dataset.kindFirst && kind) {
    var note = document.getElementById("kind-first-note");
    var lockGrid = function () {
      var none = !kind.value;
      form.querySelectorAll("#grid input").forEach(function (i) {
        i.readOnly = none;
        if (none && note) { i.title = note.firstChild.textContent.trim(); } else { i.removeAttribute("title"); }
      });
      form.classList.toggle("awaiting-kind", none);
      if (note) { note.hidden = !none; }   // the page says why the fields are locked, and only then
      var hint = document.getElementById("kind-first-hint");
      if (hint) { hint.hidden = !none; }
    };
    kind.addEventListener("change", lockGrid);
    lockGrid();
    if (!kind.value) { kind.focus(); }
  }

  /* A disputed sheet: "Salva e valida" needs the arbiter's decision (the server refuses
     without one too); plain "Salva" does not. */
  var decision = document.getElementById("decision");
  var saveValidate = document.getElementById("save-validate");
  if (decision && saveValidate) {
    saveValidate.addEventListener("click", function (ev) {
      var missing = !decision.value.trim();
      document.getElementById("decision-missing").hidden = !missing;
      if (missing) { ev.preventDefault(); decision.focus(); }
    });
  }

  applyMode();
  initialGrid = gridValues();
  updateReason();
  if (partsMode()) {
    var first = form.querySelector('[data-field="ns_base"]');
    if (first && document.activeElement && document.activeElement.dataset.field === "ns") { first.focus(); }
  }
})();
