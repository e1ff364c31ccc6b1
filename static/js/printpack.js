/* The print pack's progress bar (rules.md §10): polls the job's status URL every second
   and shows the download link when the PDF is ready. No inline script (CSP). */
(function () {
  "use strict";
  var box = document.getElementById("print-pack");
  if (!box) return;
  var url = box.getAttribute("data-status-url");
  var bar = document.getElementById("pack-progress");
  var count = document.getElementById("pack-count");
  function show(id, on) { var el = document.getElementById(id); if (el) el.hidden = !on; }
  function update(s) {
    bar.max = s.total || 1;
    bar.value = s.done || 0;
    count.textContent = (s.done || 0) + "/" + (s.total || 1);
    show("pack-running", s.state === "running");
    show("pack-failed", s.state === "failed");
    show("pack-stopped", s.state === "stopped");
    show("pack-superseded", s.state === "superseded");
    show("pack-done", s.state === "done");
    show("pack-restart", s.state !== "running");
    box.setAttribute("data-state", s.state);
    return s.state === "running";
  }
  function poll() {
    fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : {state: "failed"}; })
      .then(function (s) { if (update(s)) setTimeout(poll, 1000); })
      .catch(function () { setTimeout(poll, 3000); });
  }
  if (box.getAttribute("data-state") === "running") setTimeout(poll, 500);
})();
