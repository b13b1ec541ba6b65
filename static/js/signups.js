// The sign-up card (games/signups/_card.html) answers a refused tap with 400/409 and the card carrying the message;
// htmx 2 does not swap an error answer by default, so let the card's own answers in.
document.addEventListener("htmx:beforeSwap", function (event) {
  var target = event.detail.target;
  var status = event.detail.xhr.status;
  if (target && target.hasAttribute("data-signup-card") && (status === 400 || status === 409)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
