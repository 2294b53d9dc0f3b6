import { describe, expect, it } from "vitest";
import { messagesOf } from "../schema-test-kit.ts";
import { URL_MESSAGE } from "./fields.ts";
import {
  BIO_LENGTH_MESSAGE,
  DISPLAY_NAME_LENGTH_MESSAGE,
  DISPLAY_NAME_REQUIRED_MESSAGE,
  GITHUB_MESSAGE,
  LINKEDIN_MESSAGE,
  MASTODON_MESSAGE,
  ResearcherProfile,
  socialProfileUrl,
  X_MESSAGE,
} from "./researcher-profile.ts";
import { COUNTRY_MESSAGE } from "./vendor-account.ts";

const EMPTY = {
  country: null,
  website: null,
  github: null,
  x: null,
  mastodon: null,
  linkedin: null,
  bio: null,
};

describe("ResearcherProfile schema (PRODUCT.md §5)", () => {
  it("needs only a display name and stores blanks as null", () => {
    expect(ResearcherProfile.parse({ display_name: "  Ada  " })).toEqual({ display_name: "Ada", ...EMPTY });
    expect(
      ResearcherProfile.parse({
        display_name: "Ada",
        country: "",
        website: "",
        github: " ",
        x: "",
        mastodon: "",
        linkedin: "",
        bio: "  ",
      }),
    ).toEqual({ display_name: "Ada", ...EMPTY });
  });

  it("says the display name is required, then that it must be 2 to 60 characters", () => {
    expect(messagesOf(ResearcherProfile, {})).toEqual({ display_name: [DISPLAY_NAME_REQUIRED_MESSAGE] });
    expect(messagesOf(ResearcherProfile, { display_name: "   " })).toEqual({
      display_name: [DISPLAY_NAME_REQUIRED_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "A" })).toEqual({
      display_name: [DISPLAY_NAME_LENGTH_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "A".repeat(61) })).toEqual({
      display_name: [DISPLAY_NAME_LENGTH_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "A".repeat(60) })).toEqual({});
  });

  it("takes a listed ISO country code and refuses anything else", () => {
    expect(ResearcherProfile.parse({ display_name: "Ada", country: "EE" }).country).toBe("EE");
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", country: "XX" })).toEqual({
      country: [COUNTRY_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", country: "ee" })).toEqual({
      country: [COUNTRY_MESSAGE],
    });
  });

  it("applies the URL rule to the website", () => {
    expect(ResearcherProfile.parse({ display_name: "Ada", website: "https://ada.example" }).website).toBe(
      "https://ada.example",
    );
    for (const website of ["ada.example", "javascript:alert(1)", "ftp://ada.example"])
      expect(messagesOf(ResearcherProfile, { display_name: "Ada", website })).toEqual({
        website: [URL_MESSAGE],
      });
  });

  it("normalises GitHub, X and LinkedIn handles given as names or profile URLs", () => {
    const parsed = ResearcherProfile.parse({
      display_name: "Ada",
      github: "https://github.com/octo-cat/",
      x: "@ada_sec",
      linkedin: "https://www.linkedin.com/in/ada-lovelace",
    });
    expect(parsed).toMatchObject({ github: "octo-cat", x: "ada_sec", linkedin: "ada-lovelace" });
    expect(ResearcherProfile.parse({ display_name: "Ada", x: "https://twitter.com/ada" }).x).toBe("ada");
    expect(ResearcherProfile.parse({ display_name: "Ada", github: "octocat" }).github).toBe("octocat");
  });

  it("refuses malformed handles with a message naming the expected shape", () => {
    expect(
      messagesOf(ResearcherProfile, {
        display_name: "Ada",
        github: "-bad-",
        x: "this_name_is_too_long",
        mastodon: "ada",
        linkedin: "https://evil.example/in/ada",
      }),
    ).toEqual({
      github: [GITHUB_MESSAGE],
      x: [X_MESSAGE],
      mastodon: [MASTODON_MESSAGE],
      linkedin: [LINKEDIN_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", github: "https://gitlab.com/ada" })).toEqual({
      github: [GITHUB_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", github: "a--b" })).toEqual({
      github: [GITHUB_MESSAGE],
    });
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", x: "javascript:alert(1)" })).toEqual({
      x: [X_MESSAGE],
    });
    expect(
      messagesOf(ResearcherProfile, { display_name: "Ada", mastodon: "http://mastodon.social/@ada" }),
    ).toEqual({
      mastodon: [MASTODON_MESSAGE],
    });
  });

  it("accepts a Mastodon handle as @user@host or as the profile URL", () => {
    expect(ResearcherProfile.parse({ display_name: "Ada", mastodon: "@ada@Infosec.Exchange" }).mastodon).toBe(
      "@ada@infosec.exchange",
    );
    expect(ResearcherProfile.parse({ display_name: "Ada", mastodon: "ada@mastodon.social" }).mastodon).toBe(
      "@ada@mastodon.social",
    );
    expect(
      ResearcherProfile.parse({ display_name: "Ada", mastodon: "https://mastodon.social/@ada" }).mastodon,
    ).toBe("@ada@mastodon.social");
  });

  it("limits the bio to 2,000 characters", () => {
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", bio: "b".repeat(2000) })).toEqual({});
    expect(messagesOf(ResearcherProfile, { display_name: "Ada", bio: "b".repeat(2001) })).toEqual({
      bio: [BIO_LENGTH_MESSAGE],
    });
  });

  it("builds each network's profile URL from a stored handle", () => {
    expect(socialProfileUrl.github("octocat")).toBe("https://github.com/octocat");
    expect(socialProfileUrl.x("ada")).toBe("https://x.com/ada");
    expect(socialProfileUrl.linkedin("ada-lovelace")).toBe("https://www.linkedin.com/in/ada-lovelace");
    expect(socialProfileUrl.mastodon("@ada@mastodon.social")).toBe("https://mastodon.social/@ada");
  });
});
