// @ts-check
// The price-history chart: uPlot (loaded by the page as a classic script, the global `uPlot`),
// one stepped line, since a price holds until the next observation.

/** @typedef {import('uplot')} UPlot */
/** @typedef {{ t: number; p: number }} PricePoint */

const uPlotCtor = /** @type {typeof import('uplot')} */ (
  /** @type {{ uPlot: unknown }} */ (/** @type {unknown} */ (window)).uPlot
);

const HEIGHT = 320;
const AXIS = '#4a5568';
const GRID = '#e6ebf0';
const LINE = '#0b5cad';

export class PriceChart {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    /** @type {UPlot | null} */
    this.plot = null;
    new ResizeObserver(() => {
      if (this.plot) this.plot.setSize({ width: this.width(), height: HEIGHT });
    }).observe(element);
  }

  width() {
    return Math.max(280, this.element.clientWidth);
  }

  /**
   * Draws `points` (oldest first) in `currency`; none: says so instead. The element's
   * `data-points` holds what the chart was given, as `[{ t, p }]`, for anyone (a test, a curious
   * reader) to compare with the API's `price_history`.
   * @param {readonly PricePoint[]} points
   * @param {string} currency
   * @param {string} emptyText
   */
  show(points, currency, emptyText) {
    this.plot?.destroy();
    this.plot = null;
    this.element.replaceChildren();
    const money = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    const compact = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 2,
    });
    /** @type {[number[], number[]]} */
    const data = [points.map((pt) => pt.t), points.map((pt) => pt.p)];
    if (points.length === 0) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = emptyText;
      this.element.append(empty);
    } else {
      this.plot = new uPlotCtor(
        {
          width: this.width(),
          height: HEIGHT,
          scales: { x: { time: true } },
          series: [
            {},
            {
              label: `Price (${currency})`,
              stroke: LINE,
              width: 2,
              fill: 'rgba(11, 92, 173, 0.08)',
              paths: uPlotCtor.paths.stepped?.({ align: 1 }),
              points: { show: points.length < 60, size: 5, fill: LINE },
              value: (_u, v) => (v == null ? '—' : money.format(v)),
            },
          ],
          axes: [
            { stroke: AXIS, grid: { stroke: GRID }, ticks: { stroke: GRID } },
            {
              stroke: AXIS,
              size: 72,
              grid: { stroke: GRID },
              ticks: { stroke: GRID },
              values: (_u, splits) => splits.map((v) => compact.format(v)),
            },
          ],
          legend: { live: true },
        },
        data,
        this.element,
      );
    }
    // Read back from uPlot: what it draws, not what it was meant to.
    const [times, prices] = /** @type {number[][]} */ (this.plot ? this.plot.data : data);
    this.element.dataset['points'] = JSON.stringify(times.map((t, i) => ({ t, p: prices[i] })));
    const low = Math.min(...data[1]);
    const high = Math.max(...data[1]);
    this.element.setAttribute(
      'aria-label',
      points.length
        ? `Price history: ${points.length} observations from ${money.format(low)} to ${money.format(high)}.`
        : emptyText,
    );
  }
}
