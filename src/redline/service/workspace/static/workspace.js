// Keyboard for the workspace: j/k move through a list, Enter opens, a/e/r go to the
// approve button, the edit box and the reject note; q goes back to the queue.
// Nothing is submitted by a single key: a/e/r move the focus, Enter confirms.
(function () {
  "use strict";
  var TARGETS = { a: "approve-button", e: "edit-text", r: "reject-note" };

  function rows() { return Array.prototype.slice.call(document.querySelectorAll("tr[data-row]")); }
  function current() { return document.querySelector("tr[data-row].current"); }

  function select(row) {
    rows().forEach(function (r) { r.classList.remove("current"); r.removeAttribute("aria-current"); });
    if (!row) { return; }
    row.classList.add("current");
    row.setAttribute("aria-current", "true");
    var link = row.querySelector("a[data-open]");
    if (link) { link.focus(); }
  }

  function move(step) {
    var all = rows();
    if (!all.length) { return; }
    var at = all.indexOf(current());
    var next = at < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, at + step));
    select(all[next]);
  }

  function focusTarget(key) {
    var el = document.getElementById(TARGETS[key]);
    if (!el) { return false; }
    el.scrollIntoView({ block: "center" });
    el.focus();
    return true;
  }

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (typing(event.target)) {
      if (event.key === "Escape") { event.target.blur(); }
      return;
    }
    var key = event.key;
    if (key === "j" || key === "k") {
      move(key === "j" ? 1 : -1);
      event.preventDefault();
    } else if (key === "Enter" && current() && document.activeElement === document.body) {
      var link = current().querySelector("a[data-open]");
      if (link) { link.click(); event.preventDefault(); }
    } else if (TARGETS[key]) {
      if (focusTarget(key)) { event.preventDefault(); return; }
      var row = current();
      var open = row && row.querySelector("a[data-open]");
      if (open && document.body.dataset.page === "queue") {
        window.location.assign(open.getAttribute("href") + "#" + { a: "approve", e: "edit", r: "reject" }[key]);
        event.preventDefault();
      }
    } else if (key === "q" && document.body.dataset.page !== "queue" && document.body.dataset.page !== "login") {
      window.location.assign("/workspace/");
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var wanted = { "#approve": "a", "#edit": "e", "#reject": "r" }[window.location.hash];
    if (wanted) { focusTarget(wanted); return; }
    var section = document.getElementById("refused") || (window.location.hash === "#edit-check" && document.getElementById("edit-check"));
    if (section) { section.focus(); }
  });
})();
