import { describe, expect, it } from "vitest";
import { programSecurityPaths, readmeSecuritySection } from "./security-files.ts";

describe("the program's security files", () => {
  it("finds the program's security.txt, report form and policy by its path", () => {
    expect(programSecurityPaths({ platform: "wordpress", kind: "plugin", slug: "acme forms" })).toEqual({
      securityTxt: "/database/wordpress/plugin/acme%20forms/security.txt",
      report: "/database/report/wordpress/plugin/acme%20forms",
      policy: "/database/wordpress/plugin/acme%20forms/security-policy/vdp",
    });
  });

  it("writes a readme.txt Security section that links the report form and the policy", () => {
    const section = readmeSecuritySection({
      productName: "Acme Forms",
      siteName: "Pressguard",
      reportUrl: "https://site.example/database/report/wordpress/plugin/acme-forms",
      policyUrl: "https://site.example/database/wordpress/plugin/acme-forms/security-policy/vdp",
    });
    expect(section.split("\n")[0]).toBe("== Security ==");
    expect(section).toContain(
      "[our vulnerability disclosure program on Pressguard](https://site.example/database/report/wordpress/plugin/acme-forms)",
    );
    expect(section).toContain(
      "https://site.example/database/wordpress/plugin/acme-forms/security-policy/vdp",
    );
    expect(section).toContain("not in the support forums");
  });
});
