/* «Chiama l'arbitro» on the captain page: one tap posts the call (with the optional reason);
   a second tap while it is open changes nothing (the server keeps one open call per table).
   The call's state comes back with every poll of captain.js (window.arbitroCall), so the
   phone shows «l'arbitro arriva» as soon as the arbiter presses «Arrivo». */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("captain-data").textContent), T = D.text;
  var box = document.getElementById("call"), btn = document.getElementById("call-btn");
  var out = document.getElementById("call-state"), reason = document.getElementById("call-reason");
  if (!box || !btn) return;
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : document.getElementById("app").dataset.csrf;
  }
  function show(call) {
    var active = !!call && call.state !== "resolved";
    box.classList.toggle("called", active);
    reason.disabled = active;
    out.textContent = !call ? "" : call.state === "open" ? T.call_open :
      call.state === "taken" ? T.call_taken : T.call_resolved;
  }
  window.arbitroCall = show;
  btn.addEventListener("click", function () {
    var line = null;
    try { line = (JSON.parse(localStorage.getItem("arbitro:c:" + D.token) || "{}").line) || null; } catch (e) { /* none */ }
    btn.disabled = true;
    fetch(D.urls.call, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ reason: reason.value, line: line })
    }).then(function (r) { return r.json(); }).then(function (j) {
      btn.disabled = false;
      if (j.call) show(j.call); else out.textContent = j.error || "";
    }, function () { btn.disabled = false; out.textContent = T.retry; });
  });
  show(D.call);
})();
