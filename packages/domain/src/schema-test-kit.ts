import type { z } from "zod";

/** A schema's messages for `input`, by dotted field path ({} when it passes): for the schemas' tests. */
export function messagesOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const messages: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".");
    messages[key] = [...(messages[key] ?? []), issue.message];
  }
  return messages;
}
