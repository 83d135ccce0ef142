// The language switcher keeps the reader's place: both languages use the same ASCII heading anchors, so the
// current hash (and the calculator's state in it) is carried over to the other language's page.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[hreflang]") : null;
    if (!link || !location.hash) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.hash) return;
    url.hash = location.hash;
    link.href = url.toString();
  }, true);
})();
