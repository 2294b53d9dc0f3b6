import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProgramTestApp, type Harness, programHelpers } from "./program-test-kit.ts";

/** A program's disclosure policy, point of contact and support period (issue 20, CRA Art. 13). */

let harness: Harness;
const { vendor, create } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

async function activeProgram(overrides: Record<string, unknown> = {}) {
  const owner = await vendor();
  const created = await create(owner.caller, { name: "Acme Forms", version: "2.1.0", ...overrides });
  const activated = await owner.caller.post(`/api/products/${created.id}/activate-product`, {
    is_lobby_product: false,
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return { ...owner, ...created };
}

const publicProgram = async (slug: string) => {
  const response = await harness.app.inject({
    method: "GET",
    url: `/api/v1/products/wordpress/plugin/${slug}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().program;
};

describe("GET /api/products/:id/policy", () => {
  it("starts from the generated template, with the program's contact e-mail as the default", async () => {
    const program = await activeProgram();
    const response = await program.caller.get(`/api/products/${program.id}/policy`);
    expect(response.statusCode, response.body).toBe(200);
    const policy = response.json();
    expect(policy).toMatchObject({
      policy_markdown: null,
      policy_updated_at: null,
      security_contact_email: null,
      default_contact_email: "security@acme.example",
      support_ends_on: null,
    });
    expect(policy.template).toContain("## Scope");
    expect(policy.template).toContain(`**Acme Forms** (slug \`${program.slug}\`)`);
    expect(policy.template).toContain("current release (2.1.0)");
    expect(policy.template).toContain("within **30 days**");
  });

  it("is not found for another vendor's program", async () => {
    const program = await activeProgram();
    const other = await vendor();
    expect((await other.caller.get(`/api/products/${program.id}/policy`)).statusCode).toBe(404);
    const update = await other.caller.post(`/api/products/${program.id}/policy`, { policy_markdown: "Mine" });
    expect(update.statusCode).toBe(404);
  });
});

describe("POST /api/products/:id/policy", () => {
  it("saves the policy, the point of contact and the support period, and publishes them", async () => {
    const program = await activeProgram();
    const before = await publicProgram(program.slug);
    expect(before.policy_markdown).toContain("## Safe harbour");
    expect(before.security_contact_email).toBe("security@acme.example");
    expect(before.support_ends_on).toBeNull();

    const response = await program.caller.post(`/api/products/${program.id}/policy`, {
      policy_markdown: "## Scope\n\nAll versions of Acme Forms.\n",
      security_contact_email: " PSIRT@acme.example ",
      support_ends_on: "2028-12-31",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      policy_markdown: "## Scope\n\nAll versions of Acme Forms.",
      security_contact_email: "PSIRT@acme.example",
      support_ends_on: "2028-12-31",
    });
    expect(response.json().policy_updated_at).toEqual(expect.any(String));

    expect(await publicProgram(program.slug)).toMatchObject({
      policy_markdown: "## Scope\n\nAll versions of Acme Forms.",
      security_contact_email: "PSIRT@acme.example",
      support_ends_on: "2028-12-31",
    });
  });

  it("keeps the generated policy when the template is saved unchanged or the text is blank", async () => {
    const program = await activeProgram();
    const { template } = (await program.caller.get(`/api/products/${program.id}/policy`)).json();
    const saved = await program.caller.post(`/api/products/${program.id}/policy`, {
      policy_markdown: template,
    });
    expect(saved.json()).toMatchObject({ policy_markdown: null, policy_updated_at: null });
    await program.caller.post(`/api/products/${program.id}/policy`, { policy_markdown: "Our own policy." });
    // "Reset to the template": a blank text publishes the generated policy again.
    const reset = await program.caller.post(`/api/products/${program.id}/policy`, { policy_markdown: "" });
    expect(reset.json().policy_markdown).toBeNull();
    expect((await publicProgram(program.slug)).policy_markdown).toBe(template);
  });

  it("refuses a malformed e-mail, an impossible date and an over-long policy, with what to do", async () => {
    const program = await activeProgram();
    const response = await program.caller.post(`/api/products/${program.id}/policy`, {
      policy_markdown: "x".repeat(20_001),
      security_contact_email: "not-an-email",
      support_ends_on: "2028-02-30",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      policy_markdown: ["The policy must be at most 20,000 characters."],
      security_contact_email: ["Must be a valid email address."],
      support_ends_on: ["Enter the date as YYYY-MM-DD, for example 2028-12-31."],
    });
  });
});

describe("the program's security.txt", () => {
  it("names the single point of contact first, the policy page, and the support period", async () => {
    const program = await activeProgram();
    await program.caller.post(`/api/products/${program.id}/policy`, {
      security_contact_email: "psirt@acme.example",
      support_ends_on: "2028-12-31",
    });
    const response = await harness.app.inject({
      method: "GET",
      url: `/database/wordpress/plugin/${program.slug}/security.txt`,
    });
    expect(response.statusCode).toBe(200);
    const lines = response.body.split("\n");
    const contacts = lines.filter((line) => line.startsWith("Contact: "));
    expect(contacts[0]).toBe("Contact: mailto:psirt@acme.example");
    expect(contacts[1]).toMatch(new RegExp(`/database/report/wordpress/plugin/${program.slug}$`));
    expect(lines.find((line) => line.startsWith("Policy: "))).toMatch(
      new RegExp(`/database/wordpress/plugin/${program.slug}/security-policy/vdp$`),
    );
    expect(lines.filter((line) => line.startsWith("Expires: "))).toHaveLength(1);
    expect(response.body).toContain("# Security updates until 31 December 2028.");
  });
});
