// Site-wide behaviour (a classic script on every page).
(function () {
  "use strict";

  // The language switcher keeps the reader's place: both languages use the same ASCII heading anchors, so the
  // current fragment is carried over to the other language's page, and with it the calculator's state
  // (#<anchor>&calc=…, assets/calc/calc.js: in the fragment, so the other page's request does not carry it either).
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[hreflang]") : null;
    if (!link) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return;
    url.searchParams.delete("calc");
    if (location.hash && !url.hash) url.hash = location.hash;
    link.href = url.toString();
  }, true);

  // A page with calculator widgets whose script never ran (it failed to load, or the browser refused it) says so in
  // each widget, instead of leaving the inputs disabled without a word. Module scripts run before the load event.
  window.addEventListener("load", function () {
    var roots = document.querySelectorAll("[data-calc-root]");
    if (!roots.length || document.documentElement.dataset.calcJs === "loaded") return;
    var strings = {};
    try {
      strings = JSON.parse(document.getElementById("site-strings").textContent).calc || {};
    } catch (error) {
      return;
    }
    var message = (strings.status || {}).failed + " " + (strings.failure || {}).script;
    document.documentElement.dataset.calcRuntime = "failed";
    for (var i = 0; i < roots.length; i++) {
      roots[i].dataset.calcState = "error";
      var status = roots[i].querySelector("[data-calc-status]");
      if (status) {
        status.textContent = message;
        status.dataset.calcStatus = "failed";
      }
    }
  });
})();

// Wide tables scroll sideways inside Material's wrapper. A keyboard user can only scroll what can take focus (WCAG
// 2.1.1; axe: scrollable-region-focusable), so each wrapper becomes a focusable region named after its table: the
// table's caption, else the heading of the section it sits in. Material wraps the tables when its document$ emits;
// this subscription comes after Material's own, so the wrappers exist by then.
(function () {
  "use strict";
  function heading(node) {
    for (var n = node; n && !n.classList.contains("md-typeset"); n = n.parentElement) {
      for (var s = n.previousElementSibling; s; s = s.previousElementSibling) {
        if (/^H[1-6]$/.test(s.tagName)) {
          var copy = s.cloneNode(true);
          copy.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
          return copy.textContent.trim();
        }
      }
    }
    return "";
  }
  function label() {
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (wrap) {
      var table = wrap.querySelector("table");
      var caption = table && table.caption ? table.caption.textContent.trim() : "";
      var name = caption || heading(wrap);
      wrap.tabIndex = 0;
      if (name) {
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", name);
      }
    });
  }
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(label);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", label);
  else label();
})();
