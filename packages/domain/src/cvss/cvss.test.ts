import { describe, expect, it } from "vitest";
import { cvssBaseScore, parseCvssVector, roundUp30, roundUp31 } from "./cvss.ts";
import { CvssVector } from "./cvss-vector.ts";

describe("parseCvssVector", () => {
  it.each([
    ["CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N", 5.4, "medium"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8, "critical"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1, "medium"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10, "critical"],
    ["CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:C/C:L/I:L/A:N", 5.5, "medium"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N", 4.3, "medium"],
    ["CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H", 7.2, "high"],
    ["CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 8.8, "high"],
    ["CVSS:3.1/AV:N/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N", 2, "low"],
    ["CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:L", 1.6, "low"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0, "none"],
    ["CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H", 8.8, "high"],
    ["CVSS:3.0/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1, "medium"],
    ["CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8, "critical"],
  ] as const)("scores %s as %s (%s)", (vector, score, severity) => {
    const result = parseCvssVector(vector);
    expect(result).toMatchObject({ ok: true, baseScore: score, severity });
  });

  it("reads the version and the base metrics", () => {
    const result = parseCvssVector("CVSS:3.0/AV:A/AC:H/PR:L/UI:N/S:U/C:H/I:N/A:N");
    expect(result).toMatchObject({
      ok: true,
      version: "3.0",
      metrics: { AV: "A", AC: "H", PR: "L", UI: "N", S: "U", C: "H", I: "N", A: "N" },
      baseScore: 4.8,
    });
  });

  it("accepts metrics in any order and ignores valid temporal and environmental metrics", () => {
    expect(cvssBaseScore("CVSS:3.1/S:U/AV:N/AC:L/PR:N/UI:N/C:H/I:H/A:H")).toBe(9.8);
    expect(cvssBaseScore("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:U/RL:O/RC:C/MAV:L")).toBe(9.8);
  });

  it.each([
    ["", "must start with"],
    ["AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "must start with"],
    ["CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P", "must start with"],
    ["CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", "must start with"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H", "Missing base metrics: A"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:X", "Invalid value X for metric A"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/A:H", "more than once"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:H", "Unknown metric ZZ"],
    ["CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/", "Malformed metric"],
    ["CVSS:3.1/AV:N:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "Malformed metric"],
    ["CVSS:3.1/AV:n/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "Invalid value n"],
  ])("rejects %j", (vector, error) => {
    const result = parseCvssVector(vector);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(error);
    expect(cvssBaseScore(vector)).toBeNull();
  });
});

describe("roundUp", () => {
  it("rounds up to one decimal without floating-point noise in 3.1", () => {
    expect(roundUp31(4.000000000000001)).toBe(4);
    expect(roundUp31(4.02)).toBe(4.1);
    expect(roundUp31(4)).toBe(4);
    expect(roundUp31(0)).toBe(0);
  });

  it("uses the plain ceiling in 3.0", () => {
    expect(roundUp30(4.02)).toBe(4.1);
    expect(roundUp30(4)).toBe(4);
  });
});

describe("CvssVector schema", () => {
  it("accepts a valid vector and trims it", () => {
    expect(CvssVector.parse(" CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H ")).toBe(
      "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    );
  });

  it("rejects an invalid vector with a message", () => {
    const result = CvssVector.safeParse("CVSS:3.1/AV:N");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Must be a valid CVSS 3.0 or 3.1 vector.");
  });
});
