import { AUTH_CONFIG_MESSAGES, AuthClientConfig } from "@pressguard/domain";

/**
 * Validates the auth client configuration the browser receives (`publicConfig.auth`) and fails
 * with the specification's exact message for the first missing option (spec §5, §8).
 */
export class AuthConfigError extends Error {
  override readonly name = "AuthConfigError";
  /** Every problem found; the first one is the error's message. */
  readonly messages: readonly string[];

  constructor(messages: readonly string[]) {
    super(messages[0] ?? "The auth client configuration is invalid");
    this.messages = messages;
  }
}

/** Spec §5 lists the required options in this order; the first one missing is reported. */
const SPEC_ORDER: readonly string[] = [
  AUTH_CONFIG_MESSAGES.login,
  AUTH_CONFIG_MESSAGES.logout,
  AUTH_CONFIG_MESSAGES.onLogin,
  AUTH_CONFIG_MESSAGES.onLogout,
  AUTH_CONFIG_MESSAGES.tokenStorage,
];

/** A whole section missing means every required option in it is missing. */
const MESSAGES_FOR_MISSING_SECTION: Record<string, readonly string[]> = {
  endpoints: [AUTH_CONFIG_MESSAGES.login, AUTH_CONFIG_MESSAGES.logout],
  redirect: [AUTH_CONFIG_MESSAGES.onLogin, AUTH_CONFIG_MESSAGES.onLogout],
};

export function parseAuthClientConfig(input: unknown): AuthClientConfig {
  const result = AuthClientConfig.safeParse(input ?? {});
  if (result.success) return result.data;
  const messages = result.error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    const sectionMessages = MESSAGES_FOR_MISSING_SECTION[path];
    if (issue.code === "invalid_type" && sectionMessages) return sectionMessages;
    if (SPEC_ORDER.includes(issue.message)) return [issue.message];
    return [path ? `${path}: ${issue.message}` : issue.message];
  });
  const rank = (message: string) => {
    const index = SPEC_ORDER.indexOf(message);
    return index >= 0 ? index : SPEC_ORDER.length;
  };
  throw new AuthConfigError([...new Set(messages)].sort((a, b) => rank(a) - rank(b)));
}
