/** The footer metrics' schema, fetched by the browser with the metrics themselves (footer-metrics.ts). */
export { FooterMetrics } from "@pressguard/domain";
