/** One application error type; the error handler maps its code to the HTTP status. */
const ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  csrf_mismatch: 419,
  validation: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  bad_request: "The request is malformed.",
  unauthenticated: "Unauthenticated.",
  forbidden: "This action is unauthorized.",
  not_found: "Not found.",
  conflict: "The resource changed or already exists.",
  gone: "This resource is no longer available.",
  payload_too_large: "The request is too large.",
  unsupported_media_type: "This type of content is not accepted.",
  csrf_mismatch: "CSRF token mismatch.",
  validation: "The given data was invalid.",
  rate_limited: "Too many requests. Please try again later.",
  internal: "Server error.",
  unavailable: "The service is temporarily unavailable.",
};

export class AppError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string[]> | undefined;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      fieldErrors?: Record<string, string[]>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(options.message ?? DEFAULT_MESSAGES[code], { cause: options.cause });
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}

export function defaultMessageFor(status: number): string {
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((key) => ERROR_STATUS[key] === status);
  return code
    ? DEFAULT_MESSAGES[code]
    : status >= 500
      ? DEFAULT_MESSAGES.internal
      : DEFAULT_MESSAGES.bad_request;
}

/** A 422 whose `errors` object lists a schema's issues by top-level field, in order. */
export function validationErrorOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "body");
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return new AppError("validation", { fieldErrors: errors });
}
