// A chart as the page draws it (decision 094): plain numbers and path strings worked out on the
// server (`draw.server.ts`, with d3's scales and shapes), so the browser gets no charting code, only
// this shape, which the component (`chart-figure.tsx`) turns into an SVG.

/**
 * How a series is drawn. Each is told apart without colour too: the bars by their fill (solid,
 * hatched, dotted), the lines by their dash, the rule by its label beside it.
 */
export type SeriesStyle = "bar-solid" | "bar-hatch" | "bar-dots" | "line-solid" | "line-dash" | "rule";

/** A series in the legend, in words. */
export interface ChartKey {
  label: string;
  style: SeriesStyle;
}

export interface ChartTick {
  /** Where, in the viewBox's units along its axis. */
  at: number;
  label: string;
}

export interface DrawnChart {
  /** The SVG's accessible name and description: what it shows, and its figures in a sentence. */
  title: string;
  description: string;
  /** The viewBox; the SVG scales to its box's width. */
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  xTicks: ChartTick[];
  yTicks: ChartTick[];
  xLabel: string;
  yLabel: string;
  bars: { style: SeriesStyle; x: number; y: number; width: number; height: number }[];
  paths: { style: SeriesStyle; d: string }[];
  /** Horizontal lines across the plot (the seats available), labelled where they are. */
  rules: { y: number; label: string }[];
  keys: ChartKey[];
}

/** A chart's figures as a table: the page's table under the chart and its CSV are both this. */
export interface FiguresTable {
  header: string[];
  rows: (string | number)[][];
  /** The totals' row, where the table has one. */
  foot?: (string | number)[];
}

/** The table's rows for its CSV: the rows, then the totals' row. */
export function figuresCsvRows(table: FiguresTable): (string | number)[][] {
  return [...table.rows, ...(table.foot ? [table.foot] : [])];
}
