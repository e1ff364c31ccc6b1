/* Arbiter's live board (issue 6): poll the rows fragment and swap it in; rows whose
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
        var before = versions();
        box.innerHTML = html;
        box.querySelectorAll("tr[data-version]").forEach(function (tr) {
          if (before[tr.id] !== undefined && before[tr.id] !== tr.dataset.version + tr.dataset.state) tr.classList.add("changed");
        });
      }, function () { busy = false; netEl.textContent = "…"; });
  }
  setInterval(poll, every);
})();
