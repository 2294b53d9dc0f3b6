import { z } from "zod";

/** The password rule of every form that sets one: registration, reset, invitation, change. */
export const NewPassword = z
  .string({ error: "The password field is required." })
  .min(8, "The password must be at least 8 characters.")
  .max(200, "The password may not be greater than 200 characters.");

/**
 * `PUT /api/user/password`: the signed-in user's new password. `current_password` is required when
 * the account has a password; an account made by a magic link or a report has none and sets a first one.
 */
export const PasswordChange = z.strictObject({
  current_password: z.string().max(1000).optional(),
  password: NewPassword,
});
export type PasswordChange = z.infer<typeof PasswordChange>;

export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: "The current password field is required.",
  currentWrong: "The current password is not correct.",
  changed: "Your password has been changed. Your other sessions and API tokens have been signed out.",
  /** Setting a first password needs a recent sign-in (FIRST_PASSWORD_WINDOW_MINUTES). */
  signInAgain:
    "To set a first password, sign out, sign in again with a link from your e-mail, then set it within 30 minutes.",
} as const;

/**
 * An account without a password (magic link, signed-out report) sets its first one only this soon
 * after signing in: the fresh sign-in shows the mailbox is theirs now, and a session left open for
 * days cannot be turned into a lasting password by someone else at the keyboard.
 */
export const FIRST_PASSWORD_WINDOW_MINUTES = 30;
