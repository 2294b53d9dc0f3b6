import type { MonthlyCount, MonthlySeverity } from "@pressguard/domain";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, BarStack } from "@visx/shape";
import { formatCount } from "../../lib/numbers.ts";
import {
  CHART_SEVERITIES,
  monthLabel,
  percent,
  presentSeverities,
  severitySummary,
  trendSummary,
} from "./statistics-chart-data.ts";

/*
 * SVG charts drawn during server rendering (visx: d3 scales and shapes as React elements), so they
 * are in the HTML without JavaScript. Each is one image with a summary as its accessible name; the
 * numbers behind it are in a table beside it on the page.
 */

const TREND_HEIGHT = 280;
const TREND_MARGIN = { top: 12, right: 12, bottom: 32, left: 52 };
const AXIS_TEXT = "#475569";
const GRID = "#e2e8f0";

const colorOf = new Map(CHART_SEVERITIES.map((band) => [band.key, band.color]));

/**
 * Stacked bars per month, one segment per severity band. `width` is the drawing's own width: the
 * SVG scales to its container, so a narrow screen gets a narrow drawing to keep its text readable.
 */
export function MonthlyTrendChart({ series, width = 800 }: { series: MonthlyCount[]; width?: number }) {
  const innerWidth = width - TREND_MARGIN.left - TREND_MARGIN.right;
  const innerHeight = TREND_HEIGHT - TREND_MARGIN.top - TREND_MARGIN.bottom;
  const keys = presentSeverities(series);
  const xScale = scaleBand<string>({
    domain: series.map((row) => row.month),
    range: [0, innerWidth],
    padding: series.length > 24 ? 0.15 : 0.3,
  });
  const yScale = scaleLinear<number>({
    domain: [0, Math.max(1, ...series.map((row) => row.count))],
    range: [innerHeight, 0],
    nice: true,
  });
  const yTicks = yScale.ticks(5).filter(Number.isInteger);
  // Every month is labelled on a short axis; on a long one, each January (or the first month).
  const labelled = (month: string, index: number) =>
    series.length <= 12 || month.endsWith("-01") || (index === 0 && series.length <= 24);

  return (
    <svg
      role="img"
      aria-label={trendSummary(series)}
      viewBox={`0 0 ${width} ${TREND_HEIGHT}`}
      className="h-auto w-full"
    >
      <Group left={TREND_MARGIN.left} top={TREND_MARGIN.top}>
        {yTicks.map((tick) => (
          <g key={tick} transform={`translate(0, ${yScale(tick)})`}>
            <line x1={0} x2={innerWidth} stroke={GRID} />
            <text x={-8} dy="0.32em" textAnchor="end" fontSize={13} fill={AXIS_TEXT}>
              {formatCount(tick)}
            </text>
          </g>
        ))}
        <BarStack<MonthlyCount, MonthlySeverity>
          data={series}
          keys={keys}
          value={(row, key) => row.by_severity[key]}
          x={(row) => row.month}
          xScale={xScale}
          yScale={yScale}
          color={(key) => colorOf.get(key) ?? "#94a3b8"}
        >
          {(stacks) =>
            stacks.flatMap((stack) =>
              stack.bars
                .filter((bar) => bar.height > 0)
                .map((bar) => (
                  <rect
                    key={`${stack.key}-${bar.index}`}
                    x={bar.x}
                    y={bar.y}
                    width={bar.width}
                    height={bar.height}
                    fill={bar.color}
                  />
                )),
            )
          }
        </BarStack>
        <line x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} stroke={AXIS_TEXT} />
        {series.map((row, index) =>
          labelled(row.month, index) ? (
            <text
              key={row.month}
              x={(xScale(row.month) ?? 0) + xScale.bandwidth() / 2}
              y={innerHeight + 20}
              textAnchor="middle"
              fontSize={13}
              fill={AXIS_TEXT}
            >
              {series.length <= 12 ? monthLabel(row.month, true).slice(0, 3) : row.month.slice(0, 4)}
            </text>
          ) : null,
        )}
      </Group>
    </svg>
  );
}

const BAR_ROW = 36;
const SEVERITY_MARGIN = { top: 4, right: 112, bottom: 4, left: 80 };

/** One horizontal bar per severity band, with its count and share written beside it. */
export function SeverityChart({
  rows,
  width = 480,
}: {
  rows: { key: string; label: string; count: number }[];
  width?: number;
}) {
  const height = SEVERITY_MARGIN.top + SEVERITY_MARGIN.bottom + Math.max(1, rows.length) * BAR_ROW;
  const innerWidth = width - SEVERITY_MARGIN.left - SEVERITY_MARGIN.right;
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const yScale = scaleBand<string>({
    domain: rows.map((row) => row.key),
    range: [0, rows.length * BAR_ROW],
    padding: 0.25,
  });
  const xScale = scaleLinear<number>({
    domain: [0, Math.max(1, ...rows.map((row) => row.count))],
    range: [0, innerWidth],
  });
  return (
    <svg
      role="img"
      aria-label={severitySummary(rows)}
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto w-full"
    >
      <Group left={SEVERITY_MARGIN.left} top={SEVERITY_MARGIN.top}>
        {rows.map((row) => {
          const y = yScale(row.key) ?? 0;
          const barWidth = xScale(row.count);
          const middle = y + yScale.bandwidth() / 2;
          return (
            <g key={row.key}>
              <text x={-10} y={middle} dy="0.32em" textAnchor="end" fontSize={14} fill="#0f172a">
                {row.label}
              </text>
              <Bar
                x={0}
                y={y}
                width={barWidth}
                height={yScale.bandwidth()}
                rx={3}
                fill={colorOf.get(row.key as MonthlySeverity) ?? "#94a3b8"}
              />
              <text x={barWidth + 8} y={middle} dy="0.32em" fontSize={14} fill={AXIS_TEXT}>
                {`${formatCount(row.count)} · ${percent(row.count, total)}`}
              </text>
            </g>
          );
        })}
      </Group>
    </svg>
  );
}

/** The colour key of the trend chart, as text: colour is never the only signal. */
export function SeverityLegend({ keys }: { keys: readonly MonthlySeverity[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
      {CHART_SEVERITIES.filter((band) => keys.includes(band.key)).map((band) => (
        <li key={band.key} className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="h-3 w-3 rounded-sm" style={{ backgroundColor: band.color }} />
          {band.label}
        </li>
      ))}
    </ul>
  );
}
