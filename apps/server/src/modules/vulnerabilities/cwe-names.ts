import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The names of CWE entries as MITRE's CWE list gives them (a CSAF advisory's `cwe` needs the id and
 * its name, and CSAF's mandatory test 6.1.11 checks the name against the list). Read from the
 * catalogue the cwe-sdk package ships (`raw/cwe-archive.json`, CWE 4.15: weaknesses and categories,
 * which CVE records also name, e.g. CWE-264), once, on first use; only the names are kept (~1,400).
 * Decision 029.
 */

interface Entry {
  attr?: { "@_ID"?: string; "@_Name"?: string };
}

interface Catalogue {
  Weakness_Catalog: {
    Weaknesses: { Weakness: Entry | Entry[] };
    Categories: { Category: Entry | Entry[] };
  };
}

let names: ReadonlyMap<string, string> | null = null;

const require = createRequire(import.meta.url);

function loadNames(): ReadonlyMap<string, string> {
  const path = require.resolve("cwe-sdk/raw/cwe-archive.json");
  const { Weakness_Catalog: catalogue } = JSON.parse(readFileSync(path, "utf8")) as Catalogue;
  const entries = [catalogue.Weaknesses.Weakness, catalogue.Categories.Category].flat();
  const loaded = new Map<string, string>();
  for (const entry of entries) {
    const id = entry.attr?.["@_ID"];
    const name = entry.attr?.["@_Name"];
    if (id && name) loaded.set(`CWE-${id}`, name);
  }
  return loaded;
}

/** The name of a CWE id (`CWE-79`), or null when the list has no such entry. */
export function cweNameOf(id: string): string | null {
  names ??= loadNames();
  return names.get(id.toUpperCase()) ?? null;
}
