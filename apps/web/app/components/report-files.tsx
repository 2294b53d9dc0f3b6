import { isHttpUrl, type ReportAttachment } from "@pressguard/domain";
import { useState } from "react";
import { useTokenDownload } from "../lib/api/token-download.ts";
import { formatFileSize } from "./attachment-field.tsx";

/** The groups a report's files are shown in: the researcher's proof of concept, the vendor's fix. */
const GROUPS = [
  { kind: "proof", title: "Proof of concept" },
  { kind: "fix", title: "Fix" },
] as const;

/**
 * The link given with a fix: an http(s) link opened in a new tab without the opener, the referrer
 * or our endorsement; anything else (never stored by the API) shows as text.
 */
export function FixLink({ url }: { url: string }) {
  if (!isHttpUrl(url)) return <span className="break-all">{url}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="link break-all">
      {url}
    </a>
  );
}

/** A report's files by kind, each a download (the API serves them as attachments, never inline). */
export function ReportFiles({
  attachments,
  href,
  Heading,
}: {
  attachments: readonly ReportAttachment[];
  href: (attachmentId: string) => string;
  Heading: "h3" | "h4";
}) {
  // Token mode: the link alone carries no token, so the download is fetched with it.
  const download = useTokenDownload();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="mt-3 space-y-4">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {GROUPS.map(({ kind, title }) => {
        const files = attachments.filter((file) => file.kind === kind);
        if (files.length === 0) return null;
        const headingId = `report-files-${kind}`;
        return (
          <section key={kind} aria-labelledby={headingId}>
            <Heading id={headingId} className="text-sm font-semibold text-slate-700">
              {title}
            </Heading>
            <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
              {files.map((file) => (
                <li key={file.id} className="flex items-center gap-3 px-4 py-2 text-sm">
                  <a
                    href={href(file.id)}
                    download
                    className="link min-w-0 flex-1 break-all"
                    onClick={(event) => download(event, file.filename, setError)}
                  >
                    {file.filename}
                  </a>
                  <span className="shrink-0 text-slate-500">{formatFileSize(file.size)}</span>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
