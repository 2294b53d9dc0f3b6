import { z } from "zod";
import { EMAIL_MESSAGE } from "../schemas/fields.ts";
import { NewPassword } from "../schemas/password.ts";
import { ACCOUNT_ROLES, REGISTRATION_ROLES } from "./account-roles.ts";

// The role lists live apart from the schemas, so the registration page renders them without zod (issue 35).
export { ACCOUNT_ROLES, REGISTRATION_ROLES } from "./account-roles.ts";

/**
 * The bodies of the auth calls (spec §4), declared by the server's routes and checked by the sign-in,
 * registration, password reset and two-factor forms with the same rules and messages (decision 023).
 * The change-password body is `PasswordChange` (schemas/password.ts).
 */

/** An account's e-mail address as the auth calls take it (the server normalises its case). */
export const AccountEmail = z.email({ error: EMAIL_MESSAGE }).max(254);

/** The two roles an account may have; staff is no role one picks. */
export const AccountRole = z.enum(ACCOUNT_ROLES);
export type AccountRole = z.infer<typeof AccountRole>;

/**
 * What a new account signs up as: one of the roles, or a site owner (issue 20), an account with no
 * role that keeps watchlists (any signed-in user may).
 */
export const RegistrationRole = z.enum(REGISTRATION_ROLES);
export type RegistrationRole = z.infer<typeof RegistrationRole>;

/** `POST /register`: a researcher, vendor or site owner account, confirmed by a mailed link. */
export const Registration = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "The name field is required.")
    .max(100)
    // PostgreSQL refuses a NUL byte in text (a 500): control characters never belong in a name.
    .regex(/^\P{Cc}*$/u, "The name may not contain control characters."),
  email: AccountEmail,
  password: NewPassword,
  role: RegistrationRole,
  /** Accepted for older clients; registration signs nobody in, so it issues no token either. */
  token: z.boolean().optional(),
});

/** `POST /login`: e-mail and password, and the TOTP code for an account with two-factor authentication. */
export const PasswordSignIn = z.strictObject({
  email: AccountEmail,
  password: z.string().min(1, "The password field is required.").max(1000),
  token: z.boolean().optional(),
  device_name: z.string().max(200).optional(),
  /** The TOTP code, for an account with two-factor authentication. */
  code: z.string().max(10).optional(),
});

/** `POST /user/two-factor/confirm` and `/disable`: a current code from the authenticator app. */
export const TwoFactorCode = z.strictObject({
  code: z.string().min(1, "The code field is required.").max(10),
});

/** `POST /magic-link/{uuid}`: `token: true` asks for a personal access token (token mode, decision 021). */
export const SignInTokenChoice = z.strictObject({ token: z.boolean().optional() }).nullish();

/** `POST /magic-link` and `POST /password/forgot`: the address to mail a sign-in or reset link to. */
export const EmailedLinkRequest = z.strictObject({ email: AccountEmail });

/** `POST /password/reset`: the reset link's token and the new password. */
export const PasswordReset = z.strictObject({ token: z.string().min(1).max(100), password: NewPassword });

/** `POST /user/roles`: the role the signed-in user adds. */
export const RoleAddition = z.strictObject({ role: AccountRole });
