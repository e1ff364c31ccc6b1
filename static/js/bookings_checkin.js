// The check-in desk (bookings/views.py check_in_page): keyboard only. Typing filters the list,
// the arrows move the selection among the rows shown, Enter marks the selected booking present.
(function () {
  var search = document.getElementById("check-in-search");
  var list = document.getElementById("check-in-list");
  var form = document.getElementById("check-in-form");
  var field = document.getElementById("check-in-booking");
  if (!search || !list || !form) { return; }
  var rows = Array.prototype.slice.call(list.querySelectorAll("li[data-booking]"));
  var selected = -1;

  function shown() { return rows.filter(function (r) { return !r.hidden; }); }

  function select(k) {
    var visible = shown();
    rows.forEach(function (r) { r.classList.remove("selected"); r.removeAttribute("aria-selected"); });
    if (!visible.length) { selected = -1; return; }
    selected = Math.max(0, Math.min(k, visible.length - 1));
    visible[selected].classList.add("selected");
    visible[selected].setAttribute("aria-selected", "true");
    visible[selected].scrollIntoView({block: "nearest"});
  }

  function filter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    rows.forEach(function (r) {
      var text = r.getAttribute("data-search");
      r.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
    });
    select(0);
  }

  search.addEventListener("input", filter);
  search.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { select(selected + 1); e.preventDefault(); }
    else if (e.key === "ArrowUp") { select(selected - 1); e.preventDefault(); }
    else if (e.key === "Enter") {
      e.preventDefault();
      var row = shown()[selected];
      if (row) { field.value = row.getAttribute("data-booking"); form.submit(); }
    }
  });
  filter();
})();
