// Copy-to-clipboard for a page's codes (the completion code of a per-annotator link): a
// button with data-copy="ID" copies the text of element ID and says so in #copy-status.
// Without JavaScript, or without a clipboard (plain HTTP but for localhost), the button
// stays hidden and the code is selected text like any other.
(function () {
  "use strict";

  function setUp(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById("copy-status");
    if (!source || !navigator.clipboard || !window.isSecureContext) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(source.textContent.trim()).then(
        function () { if (status) status.textContent = "Copied."; },
        function () { if (status) status.textContent = "Could not copy: select the code and copy it."; }
      );
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(setUp);
  });
})();
