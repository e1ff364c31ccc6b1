/* Tournament form (rules.md §15): the fields of one kind only carry
   data-kinds="pairs" / "teams"; when the kind select ([data-kind-select]) changes, the
   fields of the other kinds are hidden, the first round's "by number" option takes the
   kind's noun (data-number-labels, JSON by kind), and a team tournament is offered a
   plan without Mitchell rounds (M → R: MMMD becomes RRRD), which is undone when the kind
   goes back and the plan was not touched. The tie-breaks that do not apply to the kind
   (head-to-head for an individual tournament, rules.md §9; MP scored for teams, §15) are
   hidden and a select holding one is cleared, the later criteria moving up. The server checks every value as
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
    tiebreaks(value);
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

  /* The criteria that do not apply to a kind: head-to-head per player (rules.md §9), MP
     scored for teams (§15: VP, match margin, head-to-head). */
  var NOT_FOR = {individual: ["head_to_head"], teams: ["mp_scored"]};

  function tiebreaks(value) {
    var selects = Array.prototype.slice.call(document.querySelectorAll("#id_tiebreaks select"));
    if (!selects.length) return;
    var gone = NOT_FOR[value] || [];
    selects.forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        var off = gone.indexOf(option.value) >= 0;
        option.hidden = option.disabled = off;
      });
    });
    var now = selects.map(function (s) { return s.value; });
    if (savedOrder && now.join() === clearedOrder.join()) {  // the order as it was, if not touched since
      selects.forEach(function (select, i) { select.value = savedOrder[i]; });
      now = savedOrder;
    }
    savedOrder = clearedOrder = null;
    if (!now.some(function (k) { return gone.indexOf(k) >= 0; })) return;
    var keys = now.filter(function (k) { return k && gone.indexOf(k) < 0; });
    savedOrder = now;
    selects.forEach(function (select, i) { select.value = keys[i] || ""; });
    clearedOrder = selects.map(function (s) { return s.value; });
  }

  kind.addEventListener("change", apply);
  apply();
})();
