import {
  DEFIANT_LICENSE,
  MITRE_ATTRIBUTION,
  MITRE_CVE_LICENSE,
  MITRE_TERMS_URL,
  type VulnerabilityDetail,
  WORDFENCE_ATTRIBUTION,
  WORDFENCE_LICENSE_URL,
  WORDFENCE_TRADEMARK_NOTICE,
} from "@pressguard/domain";
import { formatDay } from "../../lib/dates.ts";
import { Link } from "../../ui/link.tsx";

/** The source of the bundled records and of the Wordfence Intelligence feed's (decision 035). */
const WORDFENCE_SOURCE = "wordfence-intelligence";

type RecordSource = Pick<VulnerabilityDetail, "source" | "source_url" | "attribution" | "cve">;

/** A notice the record page shows: its text, and the page of its licence. */
interface Notice {
  heading: string;
  text: string;
  url?: string;
}

/**
 * What the licences of a record ask its page to show (data README §1.2): the record's own
 * attribution as its source wrote it (a feed record carries Defiant's copyright notice, its licence
 * and link, and MITRE's for CVE data), then the notices it lacks — Defiant's copyright designation and
 * licence for a Wordfence-derived record, MITRE's for a record with a CVE id.
 */
export function licenceNoticesOf(record: RecordSource): Notice[] {
  const attribution = record.attribution?.trim() ?? "";
  const notices: Notice[] = attribution ? [{ heading: "Attribution", text: attribution }] : [];
  if (record.source === WORDFENCE_SOURCE) {
    if (!attribution.includes(DEFIANT_LICENSE))
      notices.push({
        heading: "Wordfence Intelligence licence",
        text: `${WORDFENCE_ATTRIBUTION}. ${DEFIANT_LICENSE}`,
        url: WORDFENCE_LICENSE_URL,
      });
    notices.push({ heading: "Trademarks", text: WORDFENCE_TRADEMARK_NOTICE });
  }
  if (record.cve && !attribution.includes(MITRE_CVE_LICENSE))
    notices.push({
      heading: "CVE licence",
      text: `${MITRE_ATTRIBUTION}. ${MITRE_CVE_LICENSE}`,
      url: MITRE_TERMS_URL,
    });
  return notices;
}

/**
 * The record's source: the link to its upstream record (which the Wordfence licence asks every copy
 * to carry) and the copyright notices and licences of its data.
 */
export function RecordSource({ record }: { record: RecordSource }) {
  const wordfence = record.source === WORDFENCE_SOURCE;
  return (
    <>
      {record.source_url && (
        <p className="mt-2 break-all">
          {wordfence ? "This record on Wordfence Intelligence: " : "Source record: "}
          <a href={record.source_url} className="link" data-testid="upstream-record">
            {record.source_url}
          </a>
        </p>
      )}
      {licenceNoticesOf(record).map((notice) => (
        <div key={notice.heading} className="mt-3">
          <h3 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">{notice.heading}</h3>
          <p className="mt-1 text-xs whitespace-pre-line text-slate-600">{notice.text}</p>
          {notice.url && (
            <p className="mt-1 text-xs break-all">
              <a href={notice.url} className="link">
                {notice.url}
              </a>
            </p>
          )}
        </div>
      ))}
    </>
  );
}

/** A withdrawn record (decision 035): kept and reachable, and said plainly at the top of its page. */
export function WithdrawnNotice({ withdrawnAt }: { withdrawnAt: string | null }) {
  if (!withdrawnAt) return null;
  return (
    <div
      role="note"
      className="mb-6 rounded-lg border border-amber-500 bg-amber-50 p-4 text-amber-950"
      data-testid="withdrawn-notice"
    >
      <p className="font-semibold">Withdrawn on {formatDay(withdrawnAt) ?? withdrawnAt}</p>
      <p className="mt-1 text-sm">
        Its source no longer lists this vulnerability. The record is kept for reference, and left out of the
        lists, feeds, site checks and watchlist alerts.{" "}
        <Link to="/database/about-data" className="link">
          About the data
        </Link>
      </p>
    </div>
  );
}
