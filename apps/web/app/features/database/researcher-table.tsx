import type { LeaderboardEntry } from "@pressguard/domain";
import { Link } from "../../ui/link.tsx";
import { databasePaths } from "./paths.ts";

/** Researchers ranked by points (leaderboards, statistics). */
export function ResearcherTable({ entries, caption }: { entries: LeaderboardEntry[]; caption: string }) {
  // Narrow cells on a phone, and a scroll of its own for a name longer than the screen (issue 19: the
  // table was 421 px wide on a 390 px screen).
  return (
    <div className="overflow-x-auto">
      <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm shadow-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-2 sm:px-4">
              Rank
            </th>
            <th scope="col" className="px-2 py-2 sm:px-4">
              Researcher
            </th>
            <th scope="col" className="px-2 py-2 sm:px-4 text-right">
              Vulnerabilities
            </th>
            <th scope="col" className="px-2 py-2 sm:px-4 text-right">
              Points
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {entries.map((entry) => (
            <tr key={entry.uuid}>
              <td className="px-2 py-2 sm:px-4">{entry.rank}</td>
              <td className="px-2 py-2 [overflow-wrap:anywhere] sm:px-4">
                <Link to={databasePaths.researcher(entry.uuid)} className="link">
                  {entry.display_name}
                </Link>
              </td>
              <td className="px-2 py-2 sm:px-4 text-right">{entry.vulnerabilities}</td>
              <td className="px-2 py-2 sm:px-4 text-right font-semibold">{entry.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
