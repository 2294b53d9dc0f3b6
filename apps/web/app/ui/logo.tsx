import { Link } from "./link.tsx";

/** The Pressguard mark and word; links home. `tone` follows the background it sits on. */
export function Logo({
  tone = "dark",
  to = "/database",
  compact = false,
}: {
  tone?: "dark" | "light";
  to?: string;
  /** Hide the word on narrow screens (the mark and the link's label stay). */
  compact?: boolean;
}) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-2 rounded-md"
      aria-label="Pressguard — vulnerability database"
    >
      <LogoMark />
      <span
        className={`text-lg font-bold tracking-tight ${tone === "dark" ? "text-white" : "text-slate-900"} ${compact ? "hidden sm:inline" : ""}`}
      >
        Pressguard
      </span>
    </Link>
  );
}

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 2 4 6.5v8.2c0 7.4 5 13.3 12 15.3 7-2 12-7.9 12-15.3V6.5L16 2Z" fill="#AFE614" />
      <path
        d="m10.5 16.2 3.8 3.8 7.4-7.6"
        fill="none"
        stroke="#0f172a"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
