import { z } from "zod";
import { FORWARD_EVENT_TYPES } from "./forwarding-events.ts";

/** The body formats of a webhook target (issue 8): a signed Pressguard event, or a Slack or Discord message. */
export const FORWARD_FORMATS = [
  { value: "json", label: "JSON (signed Pressguard event)" },
  { value: "slack", label: "Slack incoming webhook" },
  { value: "discord", label: "Discord webhook" },
] as const;

export type ForwardFormat = (typeof FORWARD_FORMATS)[number]["value"];
export const ForwardFormat = z.enum(["json", "slack", "discord"], {
  error: "Format must be json, slack or discord.",
});

const SUBSCRIBABLE = FORWARD_EVENT_TYPES.map((type) => type.value) as [
  (typeof FORWARD_EVENT_TYPES)[number]["value"],
  ...(typeof FORWARD_EVENT_TYPES)[number]["value"][],
];

/** The event types a target receives; empty means every type. */
export const ForwardEventSubscription = z
  .array(z.enum(SUBSCRIBABLE, { error: "Choose events from the list." }))
  .max(SUBSCRIBABLE.length)
  .transform((events) => [...new Set(events)]);

export const ForwardEmailTargetInput = z.object({
  email: z
    .string({ error: "Enter an e-mail address." })
    .trim()
    .toLowerCase()
    .max(254, "The e-mail address must be at most 254 characters.")
    .pipe(z.email({ error: "Enter a valid e-mail address." })),
  events: ForwardEventSubscription.default([]),
});
export type ForwardEmailTargetInput = z.input<typeof ForwardEmailTargetInput>;

/** Shape only; the server also refuses private, loopback and link-local hosts (resolved on save and send). */
export const ForwardWebhookUrl = z
  .string({ error: "Enter the webhook URL." })
  .trim()
  .min(1, "Enter the webhook URL.")
  .max(2000, "The URL must be at most 2,000 characters.")
  .refine((value) => URL.canParse(value), "Enter a full URL, such as https://example.com/hooks/pressguard.")
  .refine((value) => !URL.canParse(value) || /^https?:$/.test(new URL(value).protocol), {
    message: "The URL must start with https:// or http://.",
  })
  .refine((value) => !URL.canParse(value) || (!new URL(value).username && !new URL(value).password), {
    message: "The URL may not contain a user name or password.",
  });

export const ForwardWebhookTargetInput = z.object({
  url: ForwardWebhookUrl,
  format: ForwardFormat.default("json"),
  events: ForwardEventSubscription.default([]),
});
export type ForwardWebhookTargetInput = z.input<typeof ForwardWebhookTargetInput>;

export const ForwardTargetUpdate = z.object({
  events: ForwardEventSubscription.optional(),
  format: ForwardFormat.optional(),
});
export type ForwardTargetUpdate = z.input<typeof ForwardTargetUpdate>;

export const ForwardConfirmInput = z.object({
  token: z.string().trim().min(1, "The link is incomplete.").max(200, "The link is not valid."),
});

/** The signature header of a webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export const FORWARD_SIGNATURE_HEADER = "X-Pressguard-Signature";
