// A table that scrolls sideways on a phone can be scrolled from the keyboard too: its box takes the focus
// (WCAG 2.1.1; axe's scrollable-region-focusable). Run on load and after every htmx swap.
function focusableScrollBoxes(root) {
  for (const box of (root || document).querySelectorAll(".table-responsive")) {
    if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
  }
}
document.addEventListener("DOMContentLoaded", () => focusableScrollBoxes(document));
document.addEventListener("htmx:afterSwap", (event) => focusableScrollBoxes(event.target.parentNode || document));
