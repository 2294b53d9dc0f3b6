import { useEffect, useState } from "react";
import { CLIPBOARD_COPIED_MS } from "./constants.ts";
import { toast } from "./toast.ts";

interface CopyButtonProps {
  value: string;
  /** The button's text before copying. */
  label?: string;
  className?: string;
}

/** Copies `value` and says "Copied" for 1.5 s (spec §9). */
export function CopyButton({ value, label = "Copy", className = "" }: CopyButtonProps) {
  // A counter rather than a flag, so that a second click restarts the 1.5 s.
  const [copiedAt, setCopiedAt] = useState(0);

  useEffect(() => {
    if (copiedAt === 0) return;
    const timer = setTimeout(() => setCopiedAt(0), CLIPBOARD_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopiedAt((count) => count + 1);
    } catch {
      toast.error("The text could not be copied to the clipboard.");
    }
  }

  return (
    <button
      type="button"
      onClick={copy}
      className={`inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 ${className}`}
    >
      <span aria-live="polite">{copiedAt > 0 ? "Copied" : label}</span>
    </button>
  );
}
