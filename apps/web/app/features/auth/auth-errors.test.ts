import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/api-error.ts";
import { DEFAULT_ERROR_MESSAGE } from "../../lib/errors.ts";
import { authErrorsOf } from "./auth-errors.ts";
import { errorMessageOf } from "./form-fields.tsx";

const refusal = (message: string, errors?: Record<string, string[]>) =>
  new ApiError(422, message, errors ? { errors } : {});

describe("authErrorsOf", () => {
  it("shows a refusal about fields the form does not show as one alert in the API's words", () => {
    const credentials = "These credentials do not match our records.";
    expect(authErrorsOf(refusal(credentials, { email: [credentials] }), [])).toEqual({
      _form: [credentials],
    });
    const code = "Enter the 6-digit code from your authenticator app.";
    expect(authErrorsOf(refusal(code, { code: [code] }), [])).toEqual({ _form: [code] });
    const link = "This password reset link is invalid or has expired. Ask for a new one.";
    expect(authErrorsOf(refusal(link, { token: [link] }), ["password"])).toEqual({ _form: [link] });
  });

  it("puts the messages about the fields it shows under them", () => {
    const error = refusal("The given data was invalid.", {
      email: ["Must be a valid email address."],
      password: ["The password must be at least 8 characters."],
    });
    expect(authErrorsOf(error, ["name", "email", "password"])).toEqual({
      email: ["Must be a valid email address."],
      password: ["The password must be at least 8 characters."],
    });
  });

  it("keeps the rest, without field names, next to the shown fields' messages", () => {
    const error = refusal("The given data was invalid.", { password: ["Too short."], token: ["Too long."] });
    expect(authErrorsOf(error, ["password"])).toEqual({ password: ["Too short."], _form: ["Too long."] });
  });

  it("shows any other failure by its message", () => {
    expect(authErrorsOf(new ApiError(429, "Too many attempts."), ["email"])).toEqual({
      _form: ["Too many attempts."],
    });
    expect(authErrorsOf(new Error("Network down"), [])).toEqual({ _form: ["Network down"] });
    expect(authErrorsOf("nope", [])).toEqual({ _form: [DEFAULT_ERROR_MESSAGE] });
  });
});

describe("errorMessageOf", () => {
  it("joins a 422's messages unless the API's message is one of them", () => {
    const error = refusal("The given data was invalid.", { email: ["A."], password: ["B."] });
    expect(errorMessageOf(error)).toBe("A. B.");
    expect(errorMessageOf(refusal("A.", { email: ["A."] }))).toBe("A.");
    expect(errorMessageOf(new ApiError(410, "Gone."))).toBe("Gone.");
  });
});
