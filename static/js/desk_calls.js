/* The bar of the tables' calls at the top of every arbiter page of a tournament
   (templates/arbiter/_desk_calls.html): poll its JSON every few seconds with the last ETag in
   If-None-Match (nothing new: an empty 304), swap the list in, ding when a new call arrives
   (sound off by default, the choice kept in this browser), and answer «Arrivo» / «Risolto»
   without leaving the page, so a sheet being typed on the grid is not lost. No library. */
(function () {
  "use strict";
  var bar = document.getElementById("desk-calls");
  if (!bar) return;
  var url = bar.dataset.url, every = +bar.dataset.poll || 5000, tag = bar.dataset.etag || "";
  var busy = false, again = false, KEY = "arbitro:call-sound";
  var sound = document.getElementById("desk-call-sound"), audio = null;

  function soundOn() { try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; } }
  function showSound() { if (sound) sound.setAttribute("aria-pressed", soundOn() ? "true" : "false"); }
  function unlock() {   // a browser lets a page sound only after a click or a key on it
    if (!soundOn()) return;
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      audio = audio || new Ctx();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { /* no sound */ }
  }
  function ding() {
    if (!soundOn()) return;
    unlock();
    if (!audio) return;
    try {
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 740; o.connect(g); g.connect(audio.destination); g.gain.value = 0.3;
      o.start(); o.stop(audio.currentTime + 0.5);
    } catch (e) { /* no sound */ }
  }
  if (sound) {
    showSound();
    sound.addEventListener("click", function () {
      try { localStorage.setItem(KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
      showSound();
      ding();
    });
  }
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });

  function openIds() {
    var ids = {};
    bar.querySelectorAll("li.open[data-call]").forEach(function (li) { ids[li.dataset.call] = true; });
    return ids;
  }
  function show(html) {
    var before = openIds(), fresh = false;
    bar.innerHTML = html;
    bar.hidden = !bar.querySelector("li[data-call]");
    Object.keys(openIds()).forEach(function (id) { if (!before[id]) fresh = true; });
    if (fresh) ding();
  }
  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var headers = { "Accept": "application/json" };
    if (tag) headers["If-None-Match"] = tag;
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers, redirect: "manual" })
      .then(function (r) {
        if (r.status !== 200) return null;           // 304: nothing new; a lost session: nothing
        var etag = r.headers.get("ETag") || "";
        return r.json().then(function (j) { j.tag = etag; return j; });
      })
      .then(function (j) {
        busy = false;
        if (j && typeof j.html === "string") { tag = j.tag; show(j.html); }
        if (again) { again = false; poll(); }
      }, function () { busy = false; again = false; /* offline: next time */ });
  }
  function pollNow() { if (busy) again = true; else poll(); }   // an answer sent: see it at once
  bar.addEventListener("submit", function (e) {
    var form = e.target;
    if (!window.fetch || !window.FormData) return;   // the plain form: back to this page
    e.preventDefault();
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                         headers: { "Accept": "application/json" }, redirect: "manual" })
      .then(function (r) {
        if (r.status !== 200) { window.location.reload(); return; }   // refused: the page says why
        pollNow();
      }, function () { form.querySelectorAll("button").forEach(function (b) { b.disabled = false; }); });
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  setInterval(poll, every);
})();
