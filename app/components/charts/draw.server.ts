import { scaleBand, scaleLinear, scaleUtc } from "d3-scale";
import { curveStepAfter, line, stack, stackOrderNone, stackOffsetNone } from "d3-shape";
import { londonTime } from "~/lib/london-time";
import type { ChartKey, ChartTick, DrawnChart, SeriesStyle } from "./chart";

// The charts' geometry, on the server only (decision 094): d3-scale places the bars, ticks and
// points, d3-shape stacks the bars and draws the lines, and the page gets the numbers and path
// strings (`chart.ts`), so no charting code reaches a browser.

/** The viewBox: narrow enough that its words stay legible when it is shrunk to a 390 px phone. */
const width = 480;
const height = 280;
const plot = { left: 52, top: 28, right: width - 12, bottom: height - 44 };

/** At most this many labels along an axis, so they never run into each other on a phone. */
const maxTicks = 5;

/** Whole numbers only, for counts: 0, 50, 100, not 0.5. */
function countTicks(scale: ReturnType<typeof scaleLinear<number, number>>): ChartTick[] {
  return scale
    .ticks(maxTicks)
    .filter((value) => Number.isInteger(value))
    .map((value) => ({ at: round(scale(value)), label: String(value) }));
}

/** Pounds in few characters for an axis: £0, £250, £1.5k. */
export function shortPounds(pence: number): string {
  const pounds = pence / 100;
  if (pounds >= 1000) return `£${(pounds / 1000).toLocaleString("en-GB", { maximumFractionDigits: 1 })}k`;
  return `£${pounds.toLocaleString("en-GB", { maximumFractionDigits: 0 })}`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A y scale from 0 to a little over the largest value (at least 1, so an empty chart has an axis). */
function yScaleTo(largest: number) {
  return scaleLinear()
    .domain([0, Math.max(1, largest)])
    .nice(maxTicks)
    .range([plot.bottom, plot.top]);
}

export interface StackedSeries {
  label: string;
  style: SeriesStyle;
  /** One value per category, in the categories' order. */
  values: number[];
}

/** Bars per category (a month), each the stack of the series; values in pence. */
export function drawStackedBars(input: {
  title: string;
  description: string;
  categories: string[];
  series: StackedSeries[];
  xLabel: string;
  yLabel: string;
}): DrawnChart {
  const x = scaleBand<number>()
    .domain(input.categories.map((_, index) => index))
    .range([plot.left, plot.right])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const rows = input.categories.map((_, index) =>
    Object.fromEntries(input.series.map((series, s) => [s, series.values[index] ?? 0])),
  );
  const stacked = stack<Record<number, number>, number>()
    .keys(input.series.map((_, s) => s))
    .order(stackOrderNone)
    .offset(stackOffsetNone)(rows);
  const largest = Math.max(0, ...stacked.flatMap((layer) => layer.map(([, top]) => top)));
  const y = yScaleTo(largest);
  const bars: DrawnChart["bars"] = [];
  for (const layer of stacked) {
    const style = input.series[layer.key]!.style;
    layer.forEach(([bottom, top], index) => {
      if (top <= bottom) return;
      bars.push({
        style,
        x: round(x(index)!),
        y: round(y(top)),
        width: round(x.bandwidth()),
        height: round(y(bottom) - y(top)),
      });
    });
  }
  return {
    title: input.title,
    description: input.description,
    width,
    height,
    plot,
    xTicks: input.categories.map((label, index) => ({ at: round(x(index)! + x.bandwidth() / 2), label })),
    yTicks: y.ticks(maxTicks).map((value) => ({ at: round(y(value)), label: shortPounds(value) })),
    xLabel: input.xLabel,
    yLabel: input.yLabel,
    bars,
    paths: [],
    rules: [],
    keys: input.series.map(({ label, style }) => ({ label, style })),
  };
}

export interface DayPoint {
  /** Days before the event: 0 is its day, −1 the day before. */
  day: number;
  value: number;
}

/** "−60": the days before the event on the axis, with a true minus sign. */
function dayLabel(day: number): string {
  return day < 0 ? `−${-day}` : String(day);
}

/**
 * A chart over days before an event: bars (each day's figure) or lines (a running total, drawn as
 * steps: the total holds until the next day's sales), with horizontal rules (the seats available).
 */
export function drawDays(input: {
  title: string;
  description: string;
  /** The first day shown (negative) and the last (0, the event's day, or today's before it). */
  from: number;
  to: number;
  bars?: { label: string; style: SeriesStyle; points: DayPoint[] };
  lines?: { label: string; style: SeriesStyle; points: DayPoint[] }[];
  rule?: { value: number; label: string };
  xLabel: string;
  yLabel: string;
}): DrawnChart {
  const from = Math.min(input.from, input.to - 1);
  // Half a day either side, so the first and last day's bars sit inside the plot.
  const x = scaleLinear()
    .domain([from - 0.5, input.to + 0.5])
    .range([plot.left, plot.right]);
  const lines = input.lines ?? [];
  const largest = Math.max(
    input.rule?.value ?? 0,
    ...(input.bars?.points.map((point) => point.value) ?? []),
    ...lines.flatMap((series) => series.points.map((point) => point.value)),
  );
  const y = yScaleTo(largest);
  const dayWidth = x(1) - x(0);
  const bars = (input.bars?.points ?? [])
    .filter((point) => point.value > 0)
    .map((point) => ({
      style: input.bars!.style,
      x: round(x(point.day) - (dayWidth * 0.8) / 2),
      y: round(y(point.value)),
      width: round(Math.max(0.8, dayWidth * 0.8)),
      height: round(y(0) - y(point.value)),
    }));
  const draw = line<DayPoint>()
    .x((point) => round(x(point.day - 0.5)))
    .y((point) => round(y(point.value)))
    .curve(curveStepAfter);
  const paths = lines
    .filter((series) => series.points.length > 0)
    .map((series) => {
      const last = series.points.at(-1)!;
      // The step after the last day runs to its end.
      return { style: series.style, d: draw([...series.points, { day: last.day + 1, value: last.value }]) ?? "" };
    });
  const keys: ChartKey[] = [
    ...(input.bars ? [{ label: input.bars.label, style: input.bars.style }] : []),
    ...lines.map(({ label, style }) => ({ label, style })),
    ...(input.rule ? [{ label: input.rule.label, style: "rule" as const }] : []),
  ];
  const xTicks = x
    .ticks(maxTicks)
    .filter((day) => Number.isInteger(day) && day >= from && day <= input.to)
    .map((day) => ({ at: round(x(day)), label: dayLabel(day) }));
  return {
    title: input.title,
    description: input.description,
    width,
    height,
    plot,
    xTicks,
    yTicks: countTicks(y),
    xLabel: input.xLabel,
    yLabel: input.yLabel,
    bars,
    paths,
    rules: input.rule ? [{ y: round(y(input.rule.value)), label: input.rule.label }] : [],
    keys,
  };
}

export interface TimePoint {
  at: Date;
  value: number;
}

/** A running total over an evening (check-ins), as steps, against a rule (the places sold). */
export function drawEvening(input: {
  title: string;
  description: string;
  from: Date;
  to: Date;
  line: { label: string; style: SeriesStyle; points: TimePoint[] };
  rule: { value: number; label: string };
  xLabel: string;
  yLabel: string;
}): DrawnChart {
  const to = input.to > input.from ? input.to : new Date(input.from.getTime() + 60 * 60_000);
  const x = scaleUtc().domain([input.from, to]).range([plot.left, plot.right]);
  const largest = Math.max(input.rule.value, ...input.line.points.map((point) => point.value));
  const y = yScaleTo(largest);
  const draw = line<TimePoint>()
    .x((point) => round(x(point.at)))
    .y((point) => round(y(point.value)))
    .curve(curveStepAfter);
  const points = [
    { at: input.from, value: 0 },
    ...input.line.points,
    { at: to, value: input.line.points.at(-1)?.value ?? 0 },
  ];
  return {
    title: input.title,
    description: input.description,
    width,
    height,
    plot,
    // Whole hours and half hours fall on the same ticks in London as in UTC: its offset is whole hours.
    xTicks: x.ticks(maxTicks).map((at) => ({ at: round(x(at)), label: londonTime(at) })),
    yTicks: countTicks(y),
    xLabel: input.xLabel,
    yLabel: input.yLabel,
    bars: [],
    paths: [{ style: input.line.style, d: draw(points) ?? "" }],
    rules: [{ y: round(y(input.rule.value)), label: input.rule.label }],
    keys: [
      { label: input.line.label, style: input.line.style },
      { label: input.rule.label, style: "rule" },
    ],
  };
}
