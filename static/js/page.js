/* Behaviour shared by the arbiter's pages, kept out of the HTML so the
   Content-Security-Policy can forbid inline scripts (issue 10 item 8):
   [data-print] buttons print the page, <select data-autosubmit> sends its form. */
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("[data-print]");
    if (el) { e.preventDefault(); window.print(); }
  });
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
})();
