const SEVERITY_CLASSES: Record<string, string> = {
  critical: "bg-red-700 text-white",
  high: "bg-orange-700 text-white",
  medium: "bg-amber-300 text-slate-950",
  low: "bg-sky-200 text-slate-950",
  none: "bg-slate-200 text-slate-900",
};

/** The CVSS severity band, in words (colour is never the only signal). */
export function SeverityBadge({ severity, score }: { severity: string | null; score?: number | null }) {
  const label = severity ? severity.charAt(0).toUpperCase() + severity.slice(1) : "Unknown";
  return (
    <span
      className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${
        SEVERITY_CLASSES[severity ?? ""] ?? "bg-slate-200 text-slate-900"
      }`}
    >
      {label}
      {score != null && ` ${score.toFixed(1)}`}
    </span>
  );
}
