// Site-wide behaviour (a classic script on every page).
(function () {
  "use strict";

  // The language switcher keeps the reader's place: both languages use the same ASCII heading anchors, so the
  // current hash is carried over to the other language's page, and so is the calculator's state (?calc=…).
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[hreflang]") : null;
    if (!link) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return;
    var calc = new URL(location.href).searchParams.get("calc");
    if (calc !== null) url.searchParams.set("calc", calc);
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
