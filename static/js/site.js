/* Site-wide behaviour without inline script (the Content-Security-Policy allows only our static files):
   a form with data-confirm asks before it is sent. */
(function () {
  document.addEventListener("submit", function (e) {
    var form = e.target.closest ? e.target.closest("form[data-confirm]") : null;
    if (form && !window.confirm(form.dataset.confirm)) e.preventDefault();
  }, true);
})();
