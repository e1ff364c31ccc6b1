// Proposals from the member registry while typing a player's surname or membership number
// in a registration form (rules.md §16). Inputs are grouped by name: last_name_1, first_name_1,
// membership_1, club_1 (a pair's first player), or last_name, first_name, membership, club.
// Choosing a proposal fills the group's four fields; the server links the player anyway.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.dataset.url;
  if (!url) return;
  var FIELD = /^(last_name|first_name|membership|club)(_\w+)?$/;

  function group(form, suffix) {
    var get = function (name) { return form.querySelector('input[name="' + name + (suffix || "") + '"]'); };
    return { last: get("last_name"), first: get("first_name"), number: get("membership"), club: get("club") };
  }

  function attach(input, fields) {
    var list = document.createElement("ul");
    list.className = "member-suggest";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("autocomplete", "off");
    input.insertAdjacentElement("afterend", list);
    var timer = null, seq = 0;

    function choose(m) {
      if (fields.last) fields.last.value = m.last_name;
      if (fields.first) fields.first.value = m.first_name;
      if (fields.number) fields.number.value = m.membership_number;
      if (fields.club && m.club) fields.club.value = m.club;
      list.hidden = true;
    }

    function show(members) {
      list.innerHTML = "";
      members.forEach(function (m) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        li.tabIndex = -1;
        li.textContent = m.last_name + " " + m.first_name + (m.membership_number ? " · " + m.membership_number : "") +
          (m.club ? " · " + m.club : "");
        li.addEventListener("mousedown", function (e) { e.preventDefault(); choose(m); });
        li.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); choose(m); input.focus(); } });
        list.appendChild(li);
      });
      list.hidden = members.length === 0;
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = input.value.trim();
      if (q.length < 2) { list.hidden = true; return; }
      timer = setTimeout(function () {
        var mine = ++seq;
        fetch(url + "?q=" + encodeURIComponent(q), { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { members: [] }; })
          .then(function (data) { if (mine === seq) show(data.members || []); })
          .catch(function () { list.hidden = true; });
      }, 150);
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !list.hidden && list.firstChild) { e.preventDefault(); list.firstChild.focus(); }
      if (e.key === "Escape") list.hidden = true;
    });
    input.addEventListener("blur", function () { setTimeout(function () { if (!list.contains(document.activeElement)) list.hidden = true; }, 150); });
  }

  document.querySelectorAll("form").forEach(function (form) {
    form.querySelectorAll("input").forEach(function (input) {
      var m = FIELD.exec(input.name || "");
      if (!m || (m[1] !== "last_name" && m[1] !== "membership")) return;
      var fields = group(form, m[2]);
      if (!fields.number) return;  // not a registration form (the registry's own form has none)
      attach(input, fields);
    });
  });
})();
