import type { ReactNode } from "react";
import { LoadError } from "./form-field.tsx";

/** What the shell reads of the record's query (a `useQuery` result). */
interface RecordQuery<T> {
  isError: boolean;
  data: T | undefined;
}

/**
 * A form that edits a record it loads first (the vendor account, the researcher profile, a program's
 * policy): the load's failure, a wait while it loads, then the form given the record.
 */
export function LoadThenEdit<T>({
  record,
  failure,
  className,
  children,
}: {
  record: RecordQuery<T>;
  /** The failed load's message (spec §8). */
  failure: string;
  /** Classes of the failure's and the wait's box, say its margin inside a section. */
  className?: string;
  children: (loaded: T) => ReactNode;
}) {
  if (record.isError) {
    const error = <LoadError message={failure} />;
    return className ? <div className={className}>{error}</div> : error;
  }
  if (record.data === undefined)
    return <p className={className ? `${className} text-slate-600` : "text-slate-600"}>Loading…</p>;
  return children(record.data);
}
