import { z } from "zod";

/** An answer that only says what happened, in words for the user (sign-up, links sent, password changed). */
export const MessageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswer>;

/** A staff decision taken (a product claim approved or rejected). */
export const DecisionTaken = z.object({ status: z.literal("success") });
export type DecisionTaken = z.infer<typeof DecisionTaken>;
