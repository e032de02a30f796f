// A small hand-written SVG line plot for the benchmark: side-by-side panels sharing log–log axes
// (time against body count), one polyline with markers per series, a legend under each panel.
// No dependencies; the output is a standalone SVG 1.1 document.

export type Marker = 'circle' | 'square' | 'triangle' | 'diamond' | 'cross' | 'none';

export interface Series {
  label: string;
  /** [x, y] points; non-finite or non-positive values are left out (log axes). */
  points: [number, number][];
  color: string;
  /** stroke-dasharray, e.g. '6 4'. */
  dash?: string;
  /** Line width (default 2). */
  width?: number;
  marker?: Marker;
  /** Markers only, no line (reference values). */
  noLine?: boolean;
  /** Hollow markers. */
  hollow?: boolean;
}

export interface Panel {
  title: string;
  series: Series[];
  /** Small text under the legend, one paragraph each (wrapped). */
  notes?: string[];
}

export interface PlotOptions {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  /** Tick label of a value on the x axis (default: 1k, 10k, 1M …). */
  formatX?: (x: number) => string;
  /** Tick label of a value on the y axis (default: 0.1 ms, 1 ms, 1 s …). */
  formatY?: (y: number) => string;
}

const PANEL_W = 560;
const PLOT_H = 380;
const MARGIN = { left: 78, right: 24, top: 34, bottom: 52 };
const LEGEND_ROW = 19;
const NOTE_ROW = 15;
const TITLE_H = 56;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function defaultFormatX(x: number): string {
  if (x >= 1e6) return `${+(x / 1e6).toPrecision(3)}M`;
  if (x >= 1e3) return `${+(x / 1e3).toPrecision(3)}k`;
  return `${+x.toPrecision(3)}`;
}

function defaultFormatY(ms: number): string {
  if (ms >= 1000) return `${+(ms / 1000).toPrecision(3)} s`;
  if (ms >= 1) return `${+ms.toPrecision(3)} ms`;
  return `${+(ms * 1000).toPrecision(3)} µs`;
}

function usable(p: [number, number]): boolean {
  return Number.isFinite(p[0]) && Number.isFinite(p[1]) && p[0] > 0 && p[1] > 0;
}

/** Decades [10^lo, 10^hi] covering [min, max]. */
function decades(min: number, max: number): [number, number] {
  let lo = Math.floor(Math.log10(min));
  let hi = Math.ceil(Math.log10(max));
  if (hi === lo) hi = lo + 1;
  if (hi - lo < 2 && min > 0) lo -= 0; // one decade is fine
  return [lo, hi];
}

function markerPath(kind: Marker, x: number, y: number, r: number): string {
  switch (kind) {
    case 'square':
      return `M${x - r} ${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case 'triangle':
      return `M${x} ${y - 1.2 * r}L${x + 1.1 * r} ${y + 0.8 * r}L${x - 1.1 * r} ${y + 0.8 * r}Z`;
    case 'diamond':
      return `M${x} ${y - 1.3 * r}L${x + 1.3 * r} ${y}L${x} ${y + 1.3 * r}L${x - 1.3 * r} ${y}Z`;
    case 'cross':
      return `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`;
    default:
      return '';
  }
}

function marker(
  kind: Marker,
  x: number,
  y: number,
  color: string,
  hollow: boolean,
  r = 3.6,
): string {
  if (kind === 'none') return '';
  const fill = hollow ? 'white' : color;
  if (kind === 'circle')
    return `<circle cx="${f(x)}" cy="${f(y)}" r="${r}" fill="${fill}" stroke="${color}" stroke-width="1.5"/>`;
  if (kind === 'cross')
    return `<path d="${markerPath(kind, x, y, r)}" stroke="${color}" stroke-width="2" fill="none"/>`;
  return `<path d="${markerPath(kind, x, y, r)}" fill="${fill}" stroke="${color}" stroke-width="1.5"/>`;
}

function f(x: number): string {
  return x.toFixed(1);
}

/** `text` in lines of at most `width` characters, broken at spaces. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

const NOTE_WIDTH = 92;

function noteLines(panel: Panel): string[] {
  return (panel.notes ?? []).flatMap((n) =>
    wrapText(n, NOTE_WIDTH).map((l, i) => (i === 0 ? l : `   ${l}`)),
  );
}

/** Rows of legend entries in two columns. */
function legendRows(series: readonly Series[]): number {
  return Math.ceil(series.length / 2);
}

/**
 * The SVG document: `panels` side by side, all on the same log–log axes (so they compare at a
 * glance), each with its own legend.
 */
export function renderSvgPlot(panels: readonly Panel[], options: PlotOptions): string {
  const fx = options.formatX ?? defaultFormatX;
  const fy = options.formatY ?? defaultFormatY;
  const all = panels.flatMap((p) => p.series.flatMap((s) => s.points.filter(usable)));
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, x1] = all.length > 0 ? decades(Math.min(...xs), Math.max(...xs)) : [3, 6];
  const [y0, y1] = all.length > 0 ? decades(Math.min(...ys), Math.max(...ys)) : [-1, 3];
  const plotW = PANEL_W - MARGIN.left - MARGIN.right;
  const legendH =
    Math.max(
      ...panels.map((p) => legendRows(p.series) * LEGEND_ROW + noteLines(p).length * NOTE_ROW),
      0,
    ) + 16;
  const panelH = MARGIN.top + PLOT_H + MARGIN.bottom + legendH;
  const width = Math.max(1, panels.length) * PANEL_W;
  const height = TITLE_H + panelH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>`,
  );
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(
    `<text x="${width / 2}" y="24" font-size="18" font-weight="bold" text-anchor="middle">${escapeXml(options.title)}</text>`,
  );
  if (options.subtitle)
    out.push(
      `<text x="${width / 2}" y="44" font-size="12" fill="#555" text-anchor="middle">${escapeXml(options.subtitle)}</text>`,
    );

  panels.forEach((panel, pi) => {
    const ox = pi * PANEL_W + MARGIN.left;
    const oy = TITLE_H + MARGIN.top;
    const X = (x: number): number => ox + ((Math.log10(x) - x0) / (x1 - x0)) * plotW;
    const Y = (y: number): number => oy + PLOT_H - ((Math.log10(y) - y0) / (y1 - y0)) * PLOT_H;
    out.push(`<g>`);
    out.push(
      `<text x="${f(ox + plotW / 2)}" y="${oy - 12}" font-size="15" font-weight="bold" text-anchor="middle">${escapeXml(panel.title)}</text>`,
    );
    // Grid: minor lines at 2..9 × 10^k, major lines and labels at decades.
    for (let k = x0; k <= x1; k++) {
      const v = 10 ** k;
      out.push(
        `<line x1="${f(X(v))}" y1="${oy}" x2="${f(X(v))}" y2="${oy + PLOT_H}" stroke="#ccc"/>`,
      );
      out.push(
        `<text x="${f(X(v))}" y="${oy + PLOT_H + 18}" font-size="12" text-anchor="middle">${escapeXml(fx(v))}</text>`,
      );
      if (k < x1)
        for (let m = 2; m < 10; m++)
          out.push(
            `<line x1="${f(X(m * v))}" y1="${oy}" x2="${f(X(m * v))}" y2="${oy + PLOT_H}" stroke="#eee"/>`,
          );
    }
    for (let k = y0; k <= y1; k++) {
      const v = 10 ** k;
      out.push(
        `<line x1="${ox}" y1="${f(Y(v))}" x2="${ox + plotW}" y2="${f(Y(v))}" stroke="#ccc"/>`,
      );
      out.push(
        `<text x="${ox - 8}" y="${f(Y(v) + 4)}" font-size="12" text-anchor="end">${escapeXml(fy(v))}</text>`,
      );
      if (k < y1)
        for (let m = 2; m < 10; m++)
          out.push(
            `<line x1="${ox}" y1="${f(Y(m * v))}" x2="${ox + plotW}" y2="${f(Y(m * v))}" stroke="#f0f0f0"/>`,
          );
    }
    out.push(
      `<rect x="${ox}" y="${oy}" width="${plotW}" height="${PLOT_H}" fill="none" stroke="#333"/>`,
    );
    out.push(
      `<text x="${f(ox + plotW / 2)}" y="${oy + PLOT_H + 40}" font-size="13" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    );
    const ly = oy + PLOT_H / 2;
    const lx = ox - 62;
    out.push(
      `<text x="${lx}" y="${ly}" font-size="13" text-anchor="middle" transform="rotate(-90 ${lx} ${ly})">${escapeXml(options.yLabel)}</text>`,
    );

    // Series.
    for (const s of panel.series) {
      const pts = s.points.filter(usable).sort((a, b) => a[0] - b[0]);
      if (pts.length === 0) continue;
      const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
      if (!s.noLine && pts.length > 1) {
        const d = pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${f(X(p[0]))} ${f(Y(p[1]))}`).join('');
        out.push(
          `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.width ?? 2}"${dash} stroke-linejoin="round"/>`,
        );
      }
      for (const p of pts)
        out.push(
          marker(
            s.marker ?? 'circle',
            X(p[0]),
            Y(p[1]),
            s.color,
            s.hollow ?? false,
            s.noLine ? 5 : 3.6,
          ),
        );
    }

    // Legend: two columns under the axes.
    const top = oy + PLOT_H + MARGIN.bottom;
    const colW = plotW / 2 + 30;
    panel.series.forEach((s, i) => {
      const cx = ox - 40 + (i % 2) * colW;
      const cy = top + Math.floor(i / 2) * LEGEND_ROW;
      const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
      if (!s.noLine)
        out.push(
          `<line x1="${cx}" y1="${cy}" x2="${cx + 30}" y2="${cy}" stroke="${s.color}" stroke-width="${s.width ?? 2}"${dash}/>`,
        );
      out.push(marker(s.marker ?? 'circle', cx + 15, cy, s.color, s.hollow ?? false));
      out.push(`<text x="${cx + 38}" y="${cy + 4}" font-size="12">${escapeXml(s.label)}</text>`);
    });
    const notesTop = top + legendRows(panel.series) * LEGEND_ROW + 4;
    noteLines(panel).forEach((n, i) => {
      out.push(
        `<text x="${ox - 40}" y="${notesTop + i * NOTE_ROW}" font-size="11" fill="#555">${escapeXml(n)}</text>`,
      );
    });
    out.push(`</g>`);
  });
  out.push(`</svg>`);
  return `${out.join('\n')}\n`;
}
