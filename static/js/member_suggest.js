// Proposals from the member registry while typing a player's name or membership number in a
// registration form (rules.md §16). Inputs are grouped by name: last_name_1, first_name_1,
// membership_1, club_1 (a pair's first player), or last_name, first_name, membership, club.
// Choosing a proposal fills the group's four fields; the server links the player anyway.
//
// A list answers one text: each answer names the query it answers ("query"), and an answer
// to a text no longer in the box is dropped. Once the text changes, the list on screen is
// stale (dimmed) until the answer to the new text replaces it: ArrowDown does not enter a
// stale list and Enter never takes from one. Focus stays in the box (a combobox whose
// highlighted option is aria-activedescendant), so typing on always goes to the box; Enter
// with no highlighted option of the current list does what the form does without the script.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.dataset.url;
  if (!url) return;
  var FIELD = /^(last_name|first_name|membership|club)(_\w+)?$/;
  var MIN_CHARS = 2;   // as the endpoint: one character proposes nothing
  var DELAY_MS = 150;  // a request once the typing pauses
  var lists = 0;

  function group(form, suffix) {
    var get = function (name) { return form.querySelector('input[name="' + name + (suffix || "") + '"]'); };
    return { last: get("last_name"), first: get("first_name"), number: get("membership"), club: get("club") };
  }

  function attach(input, fields) {
    var list = document.createElement("ul");
    list.className = "member-suggest";
    list.id = "member-suggest-" + (++lists);
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("autocomplete", "off");
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-expanded", "false");
    input.insertAdjacentElement("afterend", list);
    var timer = null;
    var asked = null;    // the text whose answer is awaited (null: none, e.g. after Escape)
    var answers = null;  // the text the list on screen answers (null: no list)
    var members = [];
    var active = -1;     // the highlighted option, -1: none

    function text() { return input.value.trim(); }
    function current() { return answers !== null && answers === text() && members.length > 0; }

    function highlight(index) {
      active = index;
      Array.prototype.forEach.call(list.children, function (li, i) {
        li.setAttribute("aria-selected", i === index ? "true" : "false");
      });
      if (index >= 0) {
        input.setAttribute("aria-activedescendant", list.children[index].id);
        if (list.children[index].scrollIntoView) list.children[index].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function close() {
      list.hidden = true;
      list.innerHTML = "";
      list.classList.remove("stale");
      answers = null;
      members = [];
      highlight(-1);
      input.setAttribute("aria-expanded", "false");
    }

    function choose(m) {
      asked = null;
      if (fields.last) fields.last.value = m.last_name;
      if (fields.first) fields.first.value = m.first_name;
      if (fields.number) fields.number.value = m.membership_number;
      if (fields.club && m.club) fields.club.value = m.club;
      close();
    }

    function show(query, found) {
      close();
      if (!found.length) return;
      answers = query;
      members = found;
      found.forEach(function (m, i) {
        var li = document.createElement("li");
        li.id = list.id + "-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        var name = document.createElement("strong");
        name.textContent = m.last_name + " " + m.first_name;
        li.appendChild(name);
        // the number and the club tell two homonyms apart
        if (m.membership_number) li.appendChild(document.createTextNode(" · " + m.membership_number));
        if (m.club) li.appendChild(document.createTextNode(" · " + m.club));
        // a click names the person seen: allowed on a dimmed list too
        li.addEventListener("mousedown", function (e) { e.preventDefault(); choose(m); });
        list.appendChild(li);
      });
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = text();
      asked = null;
      if (q.length < MIN_CHARS) { close(); return; }
      if (answers !== null) {
        // the list answers another text: dimmed, nothing highlighted, until the new answer
        list.classList.toggle("stale", answers !== q);
        if (answers !== q) highlight(-1);
      }
      timer = setTimeout(function () {
        asked = q;
        fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "q=" + encodeURIComponent(q), { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (data) {
            // an answer to an older text (a slow request overtaken by a later one) is dropped
            var fresh = !!data && data.query === q && asked === q && text() === q;
            if (fresh) show(q, data.members || []);
            // said to whoever listens (the browser tests wait on it): which text, shown or dropped
            input.dispatchEvent(new CustomEvent("member-suggest-answer", { detail: { query: q, shown: fresh } }));
          })
          .catch(function () { /* no proposals: the fields are typed by hand */ });
      }, DELAY_MS);
    });

    input.addEventListener("keydown", function (e) {
      if (e.isComposing) return;
      if (e.key === "ArrowDown" && current()) {
        e.preventDefault();
        highlight(Math.min(active + 1, members.length - 1));
      } else if (e.key === "ArrowUp" && current() && active >= 0) {
        e.preventDefault();
        highlight(active - 1);
      } else if (e.key === "Enter" && current() && active >= 0) {
        e.preventDefault();
        choose(members[active]);
      } else if (e.key === "Escape" && !list.hidden) {
        e.preventDefault();
        clearTimeout(timer);
        asked = null;
        close();
      }
    });
    input.addEventListener("blur", function () { clearTimeout(timer); asked = null; close(); });
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
