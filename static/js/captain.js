/* Table captain's page (rules.md §3): hand-by-hand entry, live totals and VP, save with
   retry on a flaky Wi-Fi, confirm or dispute by the other line, polling for the other
   phone's changes. What the captain typed is kept in localStorage per table link, so
   it survives a reload or a dropped connection; the server stores a re-sent sheet
   once (content hash) and refuses a save based on an old version (409). */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("captain-data").textContent);
  var T = D.text, N = D.hands_per_round, bands = D.scale.bands;
  var KEY = "arbitro:c:" + D.token;
  var $ = function (id) { return document.getElementById(id); };
  var form = $("sheet"), inputs = form.querySelectorAll("input[data-hand]");
  var decl = form.querySelectorAll("input[data-decl]");
  var S = D.sheet;                 // the server's sheet as last seen
  var st = load();                 // {line, draft, base, pending}
  var retryDelay = 0, retryTimer = null, lastFocus = null, inFlight = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return {}; }
  }
  function store() {
    try { localStorage.setItem(KEY, JSON.stringify(st)); } catch (e) { /* private mode */ }
  }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : $("app").dataset.csrf;
  }
  function num(v) {
    v = String(v == null ? "" : v).trim().replace(/^\u2212/, "-");
    return /^-?\d+$/.test(v) ? parseInt(v, 10) : (v === "" ? null : NaN);
  }
  function readForm() {
    var hands = [], i;
    for (i = 0; i < N; i++) hands.push([null, null]);
    inputs.forEach(function (el) { hands[el.dataset.hand - 1][+el.dataset.side] = el.value.trim(); });
    return { hands: hands, declared: [decl[0].value.trim(), decl[1].value.trim()] };
  }
  function fill(hands, declared) {
    inputs.forEach(function (el) {
      var h = hands[el.dataset.hand - 1];
      el.value = h && h[+el.dataset.side] != null ? h[+el.dataset.side] : "";
    });
    decl.forEach(function (el, i) { el.value = declared && declared[i] != null ? declared[i] : ""; });
    totals();
  }
  function vpFor(a, b) {
    var d = Math.abs(a - b), i, band;
    for (i = 0; i < bands.length; i++) {
      band = bands[i];
      if (d >= band.min && (band.max === null || d <= band.max)) {
        return a >= b ? [band.winner, band.loser] : [band.loser, band.winner];
      }
    }
    return ["–", "–"];
  }
  /* A wrong value is marked (class "bad", aria-invalid) and named in
     #invalid; totals and difference show "—" instead of a sum that leaves it out. */
  var firstBad = null, allBad = [];
  function invalidText(el) {
    var text = isNaN(num(el.value)) ? (T.not_number || T.invalid) : T.invalid;
    return (text || "%(h)s %(line)s: %(v)s")
      .replace("%(h)s", el.dataset.hand).replace("%(line)s", el.dataset.side === "1" ? (T.ew || "E/O") : "N/S")
      .replace("%(v)s", el.value.trim());
  }
  function totals() {
    var t = [0, 0], ok = true, DASH = "\u2014";
    firstBad = null; allBad = [];
    inputs.forEach(function (el) {
      var v = num(el.value), bad = v !== null && (isNaN(v) || v % 5 !== 0);
      el.classList.toggle("bad", bad);
      if (bad) { el.setAttribute("aria-invalid", "true"); } else { el.removeAttribute("aria-invalid"); }
      if (bad && !firstBad) firstBad = el;
      if (bad) allBad.push(el);
      if (v === null || bad) ok = false; else t[+el.dataset.side] += v;
    });
    var shown = !firstBad;
    $("tot0").textContent = shown ? t[0] : DASH; $("tot1").textContent = shown ? t[1] : DASH;
    $("diff").textContent = shown ? (t[0] - t[1] > 0 ? "+" : "") + (t[0] - t[1]) : DASH;
    var vp = ok ? vpFor(t[0], t[1]) : ["–", "–"];
    $("vp0").textContent = vp[0]; $("vp1").textContent = vp[1];
    var note = $("invalid");
    if (note) { note.textContent = allBad.map(invalidText).join(" · "); note.hidden = !firstBad; }
    return ok;
  }
  function same(a, b) {
    return JSON.stringify(a.hands.map(function (h) { return h.map(num); })) ===
      JSON.stringify(b.hands.map(function (h) { return h.map(num); }));
  }
  function sameDecl(a, b) {
    return JSON.stringify((a.declared || []).map(num)) === JSON.stringify((b.declared || []).map(num));
  }
  function say(text) { var m = $("msg"); m.textContent = text || ""; m.hidden = !text; }
  /* Several problems at once (every wrong field, or the server's "errors"): a heading and
     one line each, so nothing waits for the next save. */
  function sayAll(head, lines) {
    var m = $("msg");
    if (!lines || lines.length < 2) { say(lines && lines[0] ? lines[0] : head); return; }
    m.textContent = head || "";
    var ul = document.createElement("ul");
    lines.forEach(function (t) { var li = document.createElement("li"); li.textContent = t; ul.appendChild(li); });
    m.appendChild(ul); m.hidden = false;
  }
  function net(text) { $("net").textContent = text || ""; }

  /* What this phone may do with the sheet S. */
  function mode() {
    if (S.locked) return "read";
    if (!st.line) return "pick";
    if (S.state === "entered" && S.entered_line !== st.line) return "verify";
    return "edit";
  }
  function render() {
    document.querySelectorAll(".who button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.line === st.line));
    });
    /* The state box: one line per part (status, the dispute note in quotes, sum warning). */
    var m = mode(), parts = [], box = $("state");
    if (!S.round_open) parts.push([T.closed]);
    else if (S.state === "validated") parts.push([T.validated]);
    else if (S.state === "confirmed") parts.push([T.confirmed]);
    else if (m === "pick") parts.push([T.pick]);
    else if (S.state === "disputed") {
      parts.push([T.disputed]);
      if (S.dispute_note) parts.push(["\u201c" + S.dispute_note + "\u201d", "note"]);
    }
    else if (S.state === "entered" && m === "edit") parts.push([T.entered_mine]);
    else if (S.state === "empty") parts.push([T.empty]);
    if (S.sum_error) parts.push([T.sumerr, "warn"]);
    box.textContent = "";
    parts.forEach(function (p) {
      if (!p[0]) return;
      var el = document.createElement("span");
      el.textContent = p[0];
      if (p[1]) el.className = p[1];
      box.appendChild(el);
    });
    box.className = "state " + S.state;
    box.hidden = !box.childNodes.length;
    var editing = m === "edit";
    /* Read-only (round closed, sheet confirmed or validated; the new-user trial): the sheet and
       its state only, no line choice, no paper totals unless the sheet has some. */
    var read = m === "read", declared = S.declared || [];
    document.querySelector(".who").hidden = read;
    $("decl").hidden = read && declared[0] == null && declared[1] == null;
    form.querySelector(".bar").hidden = read;
    if (editing && st.draft && st.base === S.version) fill(st.draft.hands, st.draft.declared);
    else fill(S.hands, S.declared);
    form.querySelectorAll("input").forEach(function (el) { el.readOnly = !editing; });
    $("send").hidden = $("sign").hidden = !editing;
    $("verify").hidden = m !== "verify";
    if (m === "verify") {
      /* This phone saved the sheet: the other line confirms it with its own phone. */
      $("verify-text").textContent = S.saved_here ? T.other_phone : S.entered_line ?
        T.verify.replace("%s", S.entered_line === "ns" ? "N/S" : (T.ew || "E/O")) : T.verify_arbiter;
      $("confirm").hidden = $("dispute-box").hidden = !!S.saved_here;
    }
    if (!st.pending) net(!editing ? "" : (st.draft && st.base === S.version ? T.unsent : (S.version ? T.saved : "")));
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        j.status = r.status; j.tag = r.headers.get("ETag") || ""; return j;
      });
    });
  }
  function answered(j) {
    showClock(j);
    if (j.sheet) S = j.sheet;
    if (j.status === 200) {
      /* a write's answer is what the next poll would show, with its tag: that poll is a 304 */
      if (j.call !== undefined && window.arbitroCall) window.arbitroCall(j.call);
      if (j.tag) pollTag = j.tag;
      say(""); return true;
    }
    if (j.status === 403 && !j.sheet) { say(T.reload); return false; }
    if (j.errors && j.errors.length > 1) { sayAll(T.problems, j.errors); return false; }
    say(j.error || "");
    return false;
  }

  /* Save: the draft is sent with the version it was based on and, as "last_sent", the
     content this phone sent before (its answer may have been lost: when the server holds
     exactly that, the old version is this phone's own save, not another phone's). It is
     re-sent only on a network error, 429 or 5xx (arbitroRetryable, retry.js); any other
     answer will not change and stops the retries (a lost answer is harmless: the same
     sheet is stored once). */
  function send() {
    clearTimeout(retryTimer);
    if (!st.pending || !st.draft || inFlight) return;
    inFlight = true;
    net(T.sending);
    if (!st.sent || !same(st.sent, st.draft) || !sameDecl(st.sent, st.draft)) {
      st.prev = st.sent || null;
      st.sent = { hands: st.draft.hands, declared: st.draft.declared };
      store();
    }
    post(D.urls.save, { line: st.line, hands: st.draft.hands, declared: st.draft.declared, version: st.base,
                        last_sent: st.prev || null })
      .then(function (j) {
        inFlight = false;
        if (window.arbitroRetryable(j.status)) throw new Error("retry");
        st.pending = false; retryDelay = 0;
        var ok = answered(j);
        if (ok) st.prev = null;
        if (ok || j.status === 409) st.draft = null;   // saved, or replaced by the current sheet
        if (j.status === 409) { say(j.error + " " + T.updated); st.sent = st.prev = null; }
        store(); render();
        if (ok) net(T.saved + " ✓");
        else if (j.status !== 409) net(T.unsent);
      })
      .catch(function () {
        inFlight = false;
        retryDelay = Math.min(retryDelay ? retryDelay * 2 : 2000, 30000);
        net(T.retry);
        retryTimer = setTimeout(send, retryDelay);
      });
  }
  function transition(url, body) {
    body.line = st.line; body.version = S.version;
    net(T.sending);
    return post(url, body).then(function (j) { answered(j); render(); }, function () { net(T.retry); });
  }

  form.addEventListener("input", function (e) {
    if (!e.target.dataset) return;
    if (!st.draft || st.base !== S.version) st.base = S.version;
    st.draft = readForm(); st.pending = false; store();
    totals(); net(T.unsent);
  });
  form.addEventListener("focusin", function (e) { if (e.target.tagName === "INPUT") lastFocus = e.target; });
  $("sign").addEventListener("click", function () {
    var el = lastFocus, v = el && num(el.value);
    if (!el || el.readOnly || v === null || isNaN(v)) return;
    el.value = String(-v); el.dispatchEvent(new Event("input", { bubbles: true })); el.focus();
  });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (mode() !== "edit") return;
    if (!totals()) {
      if (firstBad) { sayAll(T.problems, allBad.map(invalidText)); firstBad.focus(); return; }
      say(T.missing); return;
    }
    st.draft = readForm(); if (st.base == null) st.base = S.version;
    st.pending = true; store(); say(""); send();
  });
  document.querySelectorAll(".who button").forEach(function (b) {
    b.addEventListener("click", function () { st.line = b.dataset.line; store(); render(); });
  });
  $("confirm").addEventListener("click", function () { transition(D.urls.confirm, {}); });
  $("dispute").addEventListener("click", function () {
    var note = $("note").value.trim();
    if (!note) { say(T.note); return; }
    transition(D.urls.dispute, { note: note });
  });

  /* The other phone's changes: poll while this one has nothing unsent (500
     phones in one room). Every 4-6 s at random, so the phones do not poll in step
     (a change still reaches them within 10 s); the tag of the last answer goes back in
     If-None-Match and the server answers "nothing new" with an empty 304; no polling
     while the page is hidden (phone in a pocket), one poll as soon as it shows again. */
  /* The page carries the tag of what it shows: its first poll is a 304 when nothing changed. */
  var pollTag = D.tag || "", pollBusy = false, pollTimer = null;
  /* The round clock (rules.md §11): the server's remaining seconds, counted down by clock.js. */
  function showClock(j) {
    var el = $("captain-clock");
    if (el && j && j.clock && window.arbitroClock) window.arbitroClock.set(el, j.clock);
  }
  function typing() { return !!(st.draft && st.base === S.version && mode() === "edit"); }
  function poll() {
    if (pollBusy || document.hidden || st.pending || inFlight) return;
    /* While the captain types (an unsent draft) the poll still runs for the round clock
       (a pause shows within one update) but leaves the sheet alone; its tag is
       kept only when the sheet did not change, so a change is fetched after the edit. */
    var editing = typing();
    var headers = { "Accept": "application/json" }, ctrl = window.AbortController ? new AbortController() : null;
    if (pollTag) headers["If-None-Match"] = pollTag;
    var stop = ctrl ? setTimeout(function () { ctrl.abort(); }, 8000) : null;
    pollBusy = true;
    fetch(D.urls.state, { credentials: "same-origin", cache: "no-store", headers: headers,
                          signal: ctrl ? ctrl.signal : undefined })
      .then(function (r) {
        if (r.status !== 200) return null;           // 304: nothing new
        var tag = r.headers.get("ETag") || "";
        return r.json().then(function (j) { j.tag = tag; return j; });
      })
      .then(function (j) {
        pollBusy = false; clearTimeout(stop);
        showClock(j);
        if (j && window.arbitroCall) window.arbitroCall(j.call);   // the call's state (call.js)
        if (!j || !j.sheet || j.sheet.version < S.version) return;   // an answer older than a save
        if (editing || typing()) { if (JSON.stringify(j.sheet) === JSON.stringify(S)) pollTag = j.tag; return; }
        pollTag = j.tag;
        if (JSON.stringify(j.sheet) !== JSON.stringify(S)) { S = j.sheet; render(); }
      }, function () { pollBusy = false; clearTimeout(stop); /* offline: next time */ });
  }
  function schedule() {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(function () { poll(); schedule(); }, 4000 + Math.random() * 2000);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(pollTimer); return; }
    poll(); schedule();
  });
  schedule();
  window.addEventListener("online", function () { retryDelay = 0; send(); });

  /* A reload with an unsent sheet: already stored? else re-send it. */
  function held(c) { return !!c && same(c, S) && sameDecl(c, S); }
  if (st.draft && st.base !== S.version) {
    if (st.pending && !held(st.draft) && held(st.prev)) {
      st.base = S.version; store();   // the server holds what this phone sent before: resend the edit
    } else {
      if (!same(st.draft, S)) say(T.updated);
      st.draft = null; st.pending = false; store();
    }
  } else if (st.pending && st.draft && same(st.draft, S) && S.version) {
    st.draft = null; st.pending = false; store();
  }
  render();
  if (st.pending) send();
})();
