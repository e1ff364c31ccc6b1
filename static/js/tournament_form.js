/* Tournament form (trial fixes, rules.md §15): the fields of one kind only carry
   data-kinds="pairs" / "teams"; when the kind select ([data-kind-select]) changes, the
   fields of the other kinds are hidden, the first round's "by number" option takes the
   kind's noun (data-number-labels, JSON by kind), and a team tournament is offered a
   plan without Mitchell rounds (M → R: MMMD becomes RRRD), which is undone when the kind
   goes back and the plan was not touched. An individual tournament is not offered
   head-to-head among the tie-breaks (rules.md §9): the option is hidden and a select
   holding it is cleared, the later criteria moving up. The server checks every value as
   before (and adapts an untouched plan to a team tournament itself). */
(function () {
  "use strict";
  var kind = document.querySelector("[data-kind-select]");
  if (!kind) return;
  var plan = document.getElementById("id_plan");
  var saved = null, proposed = null, savedOrder = null, clearedOrder = null;

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
    tiebreaks(value === "individual");
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

  function tiebreaks(individual) {
    var selects = Array.prototype.slice.call(document.querySelectorAll("#id_tiebreaks select"));
    if (!selects.length) return;
    selects.forEach(function (select) {
      var option = select.querySelector('option[value="head_to_head"]');
      if (!option) return;
      option.hidden = option.disabled = individual;
    });
    var now = selects.map(function (s) { return s.value; });
    if (!individual) {  // back from individual: the order as it was, if not touched since
      if (savedOrder && now.join() === clearedOrder.join()) {
        selects.forEach(function (select, i) { select.value = savedOrder[i]; });
      }
      savedOrder = clearedOrder = null;
      return;
    }
    if (now.indexOf("head_to_head") < 0) return;
    var keys = now.filter(function (k) { return k && k !== "head_to_head"; });
    savedOrder = now;
    selects.forEach(function (select, i) { select.value = keys[i] || ""; });
    clearedOrder = selects.map(function (s) { return s.value; });
  }

  kind.addEventListener("change", apply);
  apply();
})();
