/* A player's page polls its own URL every 4-6 s (at random, so 500 phones do not ask in
   step) with the ETag of the last answer in If-None-Match: "nothing new" is an empty 304;
   a change brings the page, whose content is swapped in. No polling while hidden; one
   poll as soon as the page shows again. */
(function () {
  "use strict";
  var box = document.getElementById("player"), net = document.getElementById("net");
  if (!box) return;
  var tag = box.dataset.etag || "", busy = false, timer = null;
  function poll() {
    if (busy || document.hidden) return;
    var headers = { "Accept": "text/html" };
    if (tag) headers["If-None-Match"] = tag;
    busy = true;
    fetch(location.pathname, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (r) {
        if (r.status === 304) return null;
        if (r.status !== 200) throw new Error(r.status);
        tag = r.headers.get("ETag") || "";
        return r.text();
      })
      .then(function (html) {
        busy = false; net.textContent = "";
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("player");
        if (fresh) box.innerHTML = fresh.innerHTML;
      }, function () { busy = false; net.textContent = "\u2026"; });
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(function () { poll(); schedule(); }, 4000 + Math.random() * 2000);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); return; }
    poll(); schedule();
  });
  schedule();
})();
