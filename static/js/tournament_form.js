/* Tournament form (trial fixes, rules.md §15): the fields of one kind only carry
   data-kinds="pairs" / "teams"; when the kind select ([data-kind-select]) changes, the
   fields of the other kinds are hidden, the first round's "by number" option takes the
   kind's noun (data-number-labels, JSON by kind), and a team tournament is offered a
   plan without Mitchell rounds (M → R: MMMD becomes RRRD), which is undone when the kind
   goes back and the plan was not touched. The server checks every value as before. */
(function () {
  "use strict";
  var kind = document.querySelector("[data-kind-select]");
  if (!kind) return;
  var plan = document.getElementById("id_plan");
  var saved = null, proposed = null;

  function apply() {
    var value = kind.value;
    document.querySelectorAll("[data-kinds]").forEach(function (el) {
      var box = el.closest(".field") || el;
      box.hidden = el.getAttribute("data-kinds").split(" ").indexOf(value) < 0;
    });
    var first = document.querySelector("select[data-number-labels]");
    if (first) {
      var labels = JSON.parse(first.getAttribute("data-number-labels"));
      var option = first.querySelector('option[value="number"]');
      if (option && labels[value]) option.textContent = labels[value];
    }
    if (!plan) return;
    if (value === "teams" && /M/i.test(plan.value)) {
      saved = plan.value;
      proposed = plan.value.replace(/M/gi, "R");
      plan.value = proposed;
    } else if (value !== "teams" && saved !== null && plan.value === proposed) {
      plan.value = saved;
      saved = proposed = null;
    }
  }

  kind.addEventListener("change", apply);
  apply();
})();
