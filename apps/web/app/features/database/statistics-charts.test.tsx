import type { MonthlyCount } from "@pressguard/domain";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  inSeverityOrder,
  monthLabel,
  monthlySeries,
  percent,
  severitySummary,
  trendSummary,
} from "./statistics-chart-data.ts";
import { MonthlyTrendChart, SeverityChart } from "./statistics-charts.tsx";

const month = (value: string, critical: number, medium: number, unknown = 0): MonthlyCount => ({
  month: value,
  count: critical + medium + unknown,
  by_severity: { critical, high: 0, medium, low: 0, none: 0, unknown },
});

describe("monthly series", () => {
  it("fills the months without a record with zeros, across a year's end", () => {
    const series = monthlySeries([month("2023-11", 1, 2), month("2024-02", 0, 5)]);
    expect(series.map((row) => [row.month, row.count])).toEqual([
      ["2023-11", 3],
      ["2023-12", 0],
      ["2024-01", 0],
      ["2024-02", 5],
    ]);
    expect(series[1]!.by_severity).toEqual({ critical: 0, high: 0, medium: 0, low: 0, none: 0, unknown: 0 });
  });

  it("keeps only the last months of a long range", () => {
    const series = monthlySeries([month("2005-05", 1, 0), month("2025-01", 2, 0)], 60);
    expect(series).toHaveLength(60);
    expect(series[0]!.month).toBe("2020-02");
    expect(series[59]!.month).toBe("2025-01");
  });

  it("is empty without dated records", () => {
    expect(monthlySeries([])).toEqual([]);
    expect(trendSummary([])).toBe("Monthly trend chart: no dated vulnerability in this period.");
  });

  it("names months in English and shares in whole percents", () => {
    expect(monthLabel("2024-12")).toBe("December 2024");
    expect(monthLabel("2024-01", true)).toBe("Jan 2024");
    expect(percent(1, 3)).toBe("33%");
    expect(percent(1, 1000)).toBe("<1%");
    expect(percent(0, 0)).toBe("0%");
  });

  it("orders severity rows from critical to unknown", () => {
    const rows = [
      { key: "medium", label: "Medium", count: 9 },
      { key: "unknown", label: "Unknown", count: 1 },
      { key: "critical", label: "Critical", count: 2 },
    ];
    expect(inSeverityOrder(rows).map((row) => row.key)).toEqual(["critical", "medium", "unknown"]);
  });
});

describe("charts rendered on the server", () => {
  it("draws the trend as an SVG image named by its summary, one rect per non-empty segment", () => {
    const html = renderToStaticMarkup(
      <MonthlyTrendChart series={monthlySeries([month("2024-11", 1, 2), month("2025-01", 0, 4, 1)])} />,
    );
    expect(html).toMatch(/^<svg role="img"/);
    expect(html).toContain(
      'aria-label="Monthly trend chart, bars split by severity: 8 dated vulnerabilities from November 2024 to January 2025; the busiest month was January 2025 with 5."',
    );
    expect(html.match(/<rect /g)).toHaveLength(4);
    expect(html).toContain(">Nov</text>");
    expect(html).toContain(">Jan</text>");
  });

  it("draws the severity breakdown with each band's count and share", () => {
    const rows = [
      { key: "critical", label: "Critical", count: 1 },
      { key: "medium", label: "Medium", count: 3 },
    ];
    const html = renderToStaticMarkup(<SeverityChart rows={rows} />);
    expect(html).toContain(`aria-label="${severitySummary(rows)}"`);
    expect(severitySummary(rows)).toBe("Severity chart: Critical 1 (25%), Medium 3 (75%).");
    expect(html).toContain("3 · 75%");
    expect(html.match(/<rect /g)).toHaveLength(2);
  });
});
