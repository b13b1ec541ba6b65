// The player card's chart: a tap (or Enter) on a point shows its game, value and a link under the chart;
// a second tap on the same point follows the link. Without this script the points are plain links.
document.addEventListener("click", (event) => {
  const point = event.target.closest(".card-chart a.chart-point");
  if (!point) return;
  const chart = point.closest(".card-chart");
  const readout = chart.querySelector(".chart-readout");
  if (readout.dataset.shown === point.getAttribute("href")) return;
  event.preventDefault();
  readout.dataset.shown = point.getAttribute("href");
  readout.textContent = point.getAttribute("aria-label") + " · ";
  const link = document.createElement("a");
  link.href = point.getAttribute("href");
  link.textContent = chart.dataset.openLabel;
  readout.appendChild(link);
});
