import { useId, type ReactNode } from "react";
import type { DrawnChart, SeriesStyle } from "./chart";

// A chart drawn on the server (decision 094) as an SVG: role img, named by its <title> and
// described by its <desc>, scaling to its box's width; a legend in words under it. The figures
// themselves are in the table the page puts after it.

/** What each style is filled or stroked with; the patterns are defined once per chart. */
function paint(style: SeriesStyle, id: string) {
  switch (style) {
    case "bar-solid":
      return { fill: "#1f5130", stroke: "#1f5130" };
    case "bar-hatch":
      return { fill: `url(#${id}-hatch)`, stroke: "#8a4a0f" };
    case "bar-dots":
      return { fill: `url(#${id}-dots)`, stroke: "#3b3486" };
    case "line-solid":
      return { fill: "none", stroke: "#1d1d1b", strokeWidth: 2.5 };
    case "line-dash":
      return { fill: "none", stroke: "#8a4a0f", strokeWidth: 2.5, strokeDasharray: "7 4" };
    case "rule":
      return { fill: "none", stroke: "#4d4a44", strokeWidth: 1.5, strokeDasharray: "2 3" };
  }
}

function Patterns({ id }: { id: string }) {
  return (
    <defs>
      <pattern id={`${id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="#fbe9d7" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="#8a4a0f" strokeWidth="2.5" />
      </pattern>
      <pattern id={`${id}-dots`} width="5" height="5" patternUnits="userSpaceOnUse">
        <rect width="5" height="5" fill="#e4e2f5" />
        <circle cx="2.5" cy="2.5" r="1.3" fill="#3b3486" />
      </pattern>
    </defs>
  );
}

/** A small sample of a series' look for the legend. */
function Swatch({ style, id }: { style: SeriesStyle; id: string }) {
  const look = paint(style, id);
  return (
    <svg className="chart-swatch" viewBox="0 0 24 14" width="24" height="14" aria-hidden="true" focusable="false">
      {style.startsWith("bar") ? (
        <rect x="1" y="1" width="22" height="12" {...look} />
      ) : (
        <line x1="0" y1="7" x2="24" y2="7" {...look} />
      )}
    </svg>
  );
}

export function ChartFigure({ chart, children }: { chart: DrawnChart; children?: ReactNode }) {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const { plot } = chart;
  return (
    <figure className="chart">
      <svg
        className="chart-svg"
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{chart.title}</title>
        <desc id={`${id}-desc`}>{chart.description}</desc>
        <Patterns id={id} />
        <g className="chart-grid">
          {chart.yTicks.map((tick) => (
            <g key={tick.at}>
              <line x1={plot.left} x2={plot.right} y1={tick.at} y2={tick.at} />
              <text x={plot.left - 6} y={tick.at} dy="0.32em" textAnchor="end">
                {tick.label}
              </text>
            </g>
          ))}
        </g>
        <g className="chart-marks">
          {chart.bars.map((bar, index) => (
            <rect key={index} x={bar.x} y={bar.y} width={bar.width} height={bar.height} {...paint(bar.style, id)} />
          ))}
          {chart.paths.map((path, index) => (
            <path key={index} d={path.d} {...paint(path.style, id)} />
          ))}
          {chart.rules.map((rule, index) => (
            <g key={index}>
              <line x1={plot.left} x2={plot.right} y1={rule.y} y2={rule.y} {...paint("rule", id)} />
              <text className="chart-rule-label" x={plot.right} y={rule.y - 5} textAnchor="end">
                {rule.label}
              </text>
            </g>
          ))}
        </g>
        <g className="chart-axis">
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
          {chart.xTicks.map((tick) => (
            <text key={tick.at} x={tick.at} y={plot.bottom + 18} textAnchor="middle">
              {tick.label}
            </text>
          ))}
          <text className="chart-axis-label" x={(plot.left + plot.right) / 2} y={chart.height - 4} textAnchor="middle">
            {chart.xLabel}
          </text>
          <text className="chart-axis-label" x={4} y={10} textAnchor="start">
            {chart.yLabel}
          </text>
        </g>
      </svg>
      <figcaption>
        <ul className="chart-keys">
          {chart.keys.map((key, index) => (
            <li key={index}>
              <Swatch style={key.style} id={id} />
              {key.label}
            </li>
          ))}
        </ul>
        {children}
      </figcaption>
    </figure>
  );
}
