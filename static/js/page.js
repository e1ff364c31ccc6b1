/* Behaviour shared by the arbiter's pages, kept out of the HTML so the
   Content-Security-Policy can forbid inline scripts:
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
  /* Tournament form: the short address left blank shows, as its
     placeholder, what the server will derive from the name (Django's slugify; the server
     adds -2, -3… when taken). */
  function slugify(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^\w\s-]/g, "").replace(/[-\s]+/g, "-").replace(/^[-_]+|[-_]+$/g, "");
  }
  document.addEventListener("input", function (e) {
    var src = e.target;
    if (!src.id) return;
    document.querySelectorAll('input[data-slug-from="' + src.id + '"]').forEach(function (slug) {
      slug.placeholder = slugify(src.value);
    });
  });
})();
