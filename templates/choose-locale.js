// Sends the browser to the first locale of the site that its user prefers, as listed in the
// language chooser's links; without JavaScript, or without a match, the chooser stays.
(function () {
  var links = document.querySelectorAll(".locales a[hreflang]");
  var wanted = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < wanted.length; i++) {
    var language = String(wanted[i]).toLowerCase();
    for (var j = 0; j < links.length; j++) {
      var tag = links[j].getAttribute("hreflang").toLowerCase();
      if (language === tag || language.indexOf(tag + "-") === 0) {
        location.replace(links[j].getAttribute("href"));
        return;
      }
    }
  }
})();
