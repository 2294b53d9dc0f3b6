/** What a record says about its fix: the fields of a vulnerability summary that decide it. */
export interface FixStatus {
  patched: boolean;
  fixed_in: string | null;
  inferred_fixed_from: string | null;
}

/**
 * A record's fix as people read it: "Fixed in 2.1", "Patched", "Fixed in a later version (inferred
 * from the current version 3.0)" or "No known fix". The one wording of list rows, record pages and
 * feeds (issue 17); `inline` starts it in lower case, for the middle of a sentence.
 */
export function describeFix(record: FixStatus, { inline = false }: { inline?: boolean } = {}): string {
  const text = record.fixed_in
    ? `Fixed in ${record.fixed_in}`
    : record.patched
      ? "Patched"
      : record.inferred_fixed_from
        ? `Fixed in a later version (inferred from the current version ${record.inferred_fixed_from})`
        : "No known fix";
  return inline ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}
