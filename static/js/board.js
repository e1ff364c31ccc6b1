/* Arbiter's live board: poll the rows fragment and swap it in; rows whose
   sheet changed since the last poll flash briefly. No library. */
(function () {
  "use strict";
  var box = document.getElementById("board"), netEl = document.getElementById("board-net");
  if (!box) return;
  var url = box.dataset.url, every = +box.dataset.poll || 3000, busy = false;
  function stamp() { var r = box.querySelector(".board-rows"); return r ? r.dataset.stamp : ""; }
  function versions() {
    var v = {};
    box.querySelectorAll("tr[data-version]").forEach(function (tr) { v[tr.id] = tr.dataset.version + tr.dataset.state; });
    return v;
  }
  /* Calls from the tables: an optional sound (off by default) when a new one arrives. */
  var sound = document.getElementById("call-sound"), audio = null;
  function openCalls() { return box.querySelectorAll(".board-calls li.open").length; }
  function ding() {
    if (!sound || sound.getAttribute("aria-pressed") !== "true") return;
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      audio = audio || new Ctx();
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 740; o.connect(g); g.connect(audio.destination); g.gain.value = 0.3;
      o.start(); o.stop(audio.currentTime + 0.5);
    } catch (e) { /* no sound */ }
  }
  /* the choice is kept in this browser, shared with the bar of calls of the other pages */
  try { if (sound && localStorage.getItem("arbitro:call-sound") === "on") sound.setAttribute("aria-pressed", "true"); } catch (e) { /* none */ }
  if (sound) sound.addEventListener("click", function () {
    var on = sound.getAttribute("aria-pressed") !== "true";
    sound.setAttribute("aria-pressed", on ? "true" : "false");
    try { localStorage.setItem("arbitro:call-sound", on ? "on" : "off"); } catch (e) { /* private mode */ }
    ding();
  });
  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?stamp=" + encodeURIComponent(stamp()), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.redirected || r.status === 403) { netEl.textContent = box.dataset.expired; return null; }
        return r.status === 200 ? r.text() : null;
      })
      .then(function (html) {
        busy = false; netEl.textContent = "";
        if (!html) return;
        var before = versions(), calls = openCalls();
        box.innerHTML = html;
        if (openCalls() > calls) ding();
        box.querySelectorAll("tr[data-version]").forEach(function (tr) {
          if (before[tr.id] !== undefined && before[tr.id] !== tr.dataset.version + tr.dataset.state) tr.classList.add("changed");
        });
      }, function () { busy = false; netEl.textContent = "…"; });
  }
  setInterval(poll, every);
})();
