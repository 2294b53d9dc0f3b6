import { parseArgs } from "node:util";
import type { SessionUser } from "@pressguard/domain";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { createMailer } from "../../mail/outbox.ts";
import { createAuthService } from "../auth/service.ts";

export const CREATE_USER_USAGE =
  "Usage: npm run user:create -- --email <address> --name <name> --password <password> [--staff] [--researcher] [--vendor]";

const Arguments = z.object({
  email: z.email({ message: "--email must be a valid e-mail address" }),
  name: z.string({ error: "--name is required" }).trim().min(1, "--name is required"),
  password: z.string({ error: "--password is required" }).min(8, "--password must be at least 8 characters"),
  staff: z.boolean(),
  researcher: z.boolean(),
  vendor: z.boolean(),
});

/** Parses the command line; throws an Error whose message says what is wrong. */
export function parseCreateUserArguments(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      staff: { type: "boolean", default: false },
      researcher: { type: "boolean", default: false },
      vendor: { type: "boolean", default: false },
    },
    strict: true,
  });
  const parsed = Arguments.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("\n"));
  return parsed.data;
}

/**
 * Creates a verified account: the only way to create staff (PRODUCT.md §1). No mail is sent.
 */
export async function createUserFromArguments(database: Database, argv: string[]): Promise<SessionUser> {
  const input = parseCreateUserArguments(argv);
  const mailer = createMailer({
    database,
    smtpUrl: undefined,
    from: "cli@localhost",
    siteName: "Pressguard",
  });
  const auth = createAuthService({ database, mailer, appUrl: "http://localhost" });
  const roles = [
    ...(input.researcher ? (["researcher"] as const) : []),
    ...(input.vendor ? (["vendor"] as const) : []),
  ];
  return auth.createUser({ ...input, roles });
}
