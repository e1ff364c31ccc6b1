/* The round clock on every screen (rules.md §11). Screens never trust their own
   clock: the server gives the remaining seconds (data-clock-remaining) and this script
   only counts down from that answer with the browser's monotonic timer until the next
   one (data-clock-ms: the same in milliseconds, so screens turn the second together).
   An element with data-clock-url polls it (JSON {remaining, running, paused, ...})
   every data-clock-poll ms (default 5000), so a pause or extra minutes show within one
   poll; the ETag of the last answer goes back in If-None-Match, so an endpoint that keeps
   one (a rest table's captain page polls its cheap state URL) answers "nothing new" with
   an empty 304 and the count goes on. Other pages (captain, board) update the element
   through window.arbitroClock.
   Text shown: data-text-paused, data-text-over, data-text-waiting. Optional sound
   (data-sound="on"): a beep at 5 minutes and at zero. No library, no eval. */
(function () {
  "use strict";
  function fmt(s) {
    var neg = s < 0; s = Math.abs(s);
    var m = Math.floor(s / 60), r = s % 60;
    return (neg ? "\u2212" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function set(el, c) {
    if (!c) return;
    el.dataset.clockRemaining = c.remaining;
    if (c.remaining_ms !== undefined) el.dataset.clockMs = c.remaining_ms;
    el.dataset.clockRunning = c.running ? "1" : "0";
    el.dataset.clockPaused = c.paused ? "1" : "0";
    el.dataset.clockStarted = c.started ? "1" : "0";
    el._t0 = performance.now();
    draw(el);
  }
  function left(el) {
    var r = parseInt(el.dataset.clockRemaining, 10), ms = parseInt(el.dataset.clockMs, 10);
    if (isNaN(r)) return null;
    if (el._t0 === undefined) el._t0 = performance.now();
    if (el.dataset.clockRunning !== "1") return r;
    if (isNaN(ms)) return r - Math.floor((performance.now() - el._t0) / 1000);
    /* whole seconds rounded up, as the server counts them: every screen turns in step */
    return Math.ceil((ms - (performance.now() - el._t0)) / 1000);
  }
  function beep(el, freq) {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      var ctx = el._audio || (el._audio = new Ctx()), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = freq; o.connect(g); g.connect(ctx.destination);
      g.gain.value = 0.3; o.start(); o.stop(ctx.currentTime + 0.8);
    } catch (e) { /* no sound */ }
  }
  function draw(el) {
    var r = left(el);
    if (r === null) return;
    var time = el.querySelector("[data-clock-time]") || el, note = el.querySelector("[data-clock-note]");
    var over = el.dataset.clockStarted === "1" && r <= 0;
    time.textContent = fmt(over ? Math.max(r, 0) : r);
    el.classList.toggle("clock-over", over);
    el.classList.toggle("clock-paused", el.dataset.clockPaused === "1");
    el.classList.toggle("clock-last5", !over && el.dataset.clockRunning === "1" && r <= 300);
    if (note) {
      note.textContent = over ? (el.dataset.textOver || "") :
        el.dataset.clockPaused === "1" ? (el.dataset.textPaused || "") :
        el.dataset.clockStarted !== "1" ? (el.dataset.textWaiting || "") : "";
    }
    if (el.dataset.sound === "on" && el.dataset.clockRunning === "1") {
      if (r <= 300 && r > 290 && !el._b5) { el._b5 = true; beep(el, 660); }
      if (r <= 0 && r > -10 && !el._b0) { el._b0 = true; beep(el, 880); }
    }
  }
  function tick() { document.querySelectorAll("[data-clock-remaining]").forEach(draw); }
  function poll(el) {
    if (document.hidden || el._busy) return;
    var headers = { "Accept": "application/json" }, ctrl = window.AbortController ? new AbortController() : null;
    if (el._tag) headers["If-None-Match"] = el._tag;
    var stop = ctrl ? setTimeout(function () { ctrl.abort(); }, 8000) : null;   // a hung request: next time
    el._busy = true;
    fetch(el.dataset.clockUrl, { credentials: "same-origin", cache: "no-store", headers: headers,
                                 signal: ctrl ? ctrl.signal : undefined })
      .then(function (r) {
        if (r.status !== 200) return null;           // 304: nothing new, the count goes on
        var tag = r.headers.get("ETag") || "";
        return r.json().then(function (j) { j.tag = tag; return j; });
      })
      .then(function (j) {
        el._busy = false; clearTimeout(stop);
        if (j && j.clock) { set(el, j.clock); el._tag = j.tag; }
      }, function () { el._busy = false; clearTimeout(stop); /* offline: next time */ });
  }
  window.arbitroClock = { set: set, format: fmt };
  document.querySelectorAll("[data-clock-url]").forEach(function (el) {
    setInterval(function () { poll(el); }, parseInt(el.dataset.clockPoll, 10) || 5000);
  });
  document.querySelectorAll("[data-sound-toggle]").forEach(function (b) {
    b.addEventListener("click", function () {
      var el = document.getElementById(b.dataset.soundToggle);
      el.dataset.sound = el.dataset.sound === "on" ? "off" : "on";
      b.setAttribute("aria-pressed", el.dataset.sound === "on" ? "true" : "false");
      if (el.dataset.sound === "on") beep(el, 440);
    });
  });
  tick();
  setInterval(tick, 250);
})();
