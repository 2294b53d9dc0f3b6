import { describe, expect, it } from "vitest";
import { classifyVulnerabilityType, requiredPrivilegeFromTitle } from "./classify.ts";

describe("classifyVulnerabilityType", () => {
  it.each([
    ["Authenticated (Contributor+) Stored Cross-Site Scripting via Shortcode", 2],
    ["Reflected Cross-Site Scripting", 2],
    ["Stored Cross-Site Scritping", 2],
    ["Unauthenticated SQL Injection", 1],
    ["Authenticated (Admin+) Time-Based Blind SQL Injection via orderby Parameter", 1],
    ["Missing Authorization", 3],
    ["Missing Authorization to Unauthenticated Arbitrary File Deletion", 3],
    ["Cross-Site Request Forgery", 6],
    ["Cross-Site Request Forgery to Stored Cross-Site Scripting", 6],
    ["Cross-Site Request Fogery", 6],
    ["Unauthenticated Arbitrary File Upload", 4],
    ["Authenticated (Contributor+) Local File Inclusion", 5],
    ["Unauthenticated Remote Code Execution", 7],
    ["Authenticated (Subscriber+) Privilege Escalation", 8],
    ["Unauthenticated Sensitive Information Exposure", 9],
    ["Open Redirect", 11],
    ["Unauthenticated Blind Server-Side Request Forgery", 12],
    ["Unauthenticated PHP Object Injection", 13],
    ["Authenticated (Admin+) Directory Traversal", 14],
    ["Unauthenticated Authentication Bypass", 15],
    ["Insecure Direct Object Reference to Privilege Escalation", 16],
    ["Authenticated (Subscriber+) Arbitrary File Deletion", 17],
    ["Unauthenticated Arbitrary File Download", 18],
    ["Unauthenticated Denial of Service", 19],
    ["XML External Entity (XXE) Injection", 20],
    ["Unauthenticated HTML Injection", 21],
    ["Missing Authentication to Unauthenticated Mailing Queue Trigger", 22],
    ["Authenticated (Admin+) CSV Injection", 23],
    ["Host Header Injection", 24],
    ["Authenticated (Administrator+) PHP Code Injection", 25],
    ["Authenticated (Admin+) OS Command Injection", 26],
    ["Unauthenticated Arbitrary Options Update", 27],
    ["Unauthenticated Arbitrary Post Deletion", 28],
    ["Server-Side Template Injection", 30],
    ["Unauthenticated Remote File Inclusion", 31],
    ["Unauthenticated Arbitrary Shortcode Execution", 32],
    ["Full Path Disclosure", 33],
    ["Clickjacking", 34],
    ["Unauthenticated Arbitrary User Password Reset", 35],
    ["Unauthenticated Arbitrary Email Sending", 36],
    ["CAPTCHA Bypass", 37],
    ["IP Spoofing to Protection Mechanism Bypass", 38],
    ["Unauthenticated Payment Bypass", 39],
    ["Authenticated (Admin+) Arbitrary File Write", 40],
    ["Backdoor", 41],
    ["Race Condition", 42],
    ["Multiple Vulnerabilities", 10],
  ])("classifies %s as %i", (label, code) => {
    expect(classifyVulnerabilityType(label)).toBe(code);
  });

  it("returns Unknown (10) for an empty or missing label", () => {
    expect(classifyVulnerabilityType("")).toBe(10);
    expect(classifyVulnerabilityType("   ")).toBe(10);
    expect(classifyVulnerabilityType(null)).toBe(10);
    expect(classifyVulnerabilityType(undefined)).toBe(10);
  });

  it("returns Other (29) when no rule matches", () => {
    expect(classifyVulnerabilityType("Improper Input Validation")).toBe(29);
    expect(classifyVulnerabilityType("Use of a Vulnerable Dependency")).toBe(29);
  });

  it("prefers the root cause named first over the impact named after it", () => {
    expect(classifyVulnerabilityType("Directory Traversal to Arbitrary File Read")).toBe(14);
    expect(classifyVulnerabilityType("Arbitrary File Read via Directory Traversal")).toBe(18);
    expect(classifyVulnerabilityType("Privilege Escalation via Missing Authorization")).toBe(8);
  });
});

describe("requiredPrivilegeFromTitle", () => {
  it.each([
    ["Plugin <= 1.0 - Unauthenticated SQL Injection", 1],
    ["Plugin <= 1.0 - Authenticated (Subscriber+) Arbitrary File Upload", 2],
    ["Plugin <= 1.0 - Authenticated (Contributor+) Stored Cross-Site Scripting", 3],
    ["Plugin <= 1.0 - Authenticated (Author+) Stored Cross-Site Scripting", 4],
    ["Plugin <= 1.0 - Authenticated (Editor+) SQL Injection", 5],
    ["Plugin <= 1.0 - Authenticated (Administrator+) Stored Cross-Site Scripting", 6],
    ["Plugin <= 1.0 - Authenticated (Admin+) SQL Injection", 6],
    ["Plugin <= 1.0 - Authenticated (Super Admin+) Remote Code Execution", 7],
    ["Plugin <= 1.0 - Authenticated (Shop Manager+) SQL Injection", 8],
    ["Plugin <= 1.0 - Authenticated (Customer+) Insecure Direct Object Reference", 9],
    ["Plugin <= 1.0 - Admin+ Stored Cross-Site Scripting", 6],
    ["Plugin <= 1.0 - Authenticated (Susbcriber+) Stored Cross-Site Scripting", 2],
    ["Plugin <= 1.0 - Authenticated (Contibutor+) Stored Cross-Site Scripting", 3],
    ["Plugin <= 1.0 - Missing Authorization to Unauthenticated Settings Update", 1],
    ["Plugin <= 1.0 - Authenticated (Instructor+) Privilege Escalation to Authenticated (Subscriber+)", 2],
  ])("reads %s as role %i", (title, code) => {
    expect(requiredPrivilegeFromTitle(title)).toBe(code);
  });

  it("returns null when the title names no WordPress role", () => {
    expect(requiredPrivilegeFromTitle("Plugin <= 1.0 - Cross-Site Request Forgery")).toBeNull();
    expect(
      requiredPrivilegeFromTitle("Plugin <= 1.0 - Authenticated Stored Cross-Site Scripting"),
    ).toBeNull();
    expect(requiredPrivilegeFromTitle("Plugin <= 1.0 - Authenticated (Custom+) Stored XSS")).toBeNull();
    expect(requiredPrivilegeFromTitle("")).toBeNull();
    expect(requiredPrivilegeFromTitle(null)).toBeNull();
  });
});
