import { z } from "zod";

/**
 * A whole number in a query string: strict about the value (a bad one is 422 naming the field), so
 * `?page=2x` is refused instead of read as 2.
 */
export const wholeNumberParameter = (field: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${field} must be a whole number.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `${field} must be at least ${min}.`)
        .max(max, `${field} must be at most ${max}.`),
    );

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

/** `?page=&per_page=` of every list of the API. */
export const PageQuery = z.object({
  page: wholeNumberParameter("page", 1, 100_000).default(1),
  per_page: wholeNumberParameter("per_page", 1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
});

/** The pagination every list of the API answers with (ARCHITECTURE.md "API conventions"). */
export const Pagination = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
  next_page_url: z.string().nullable(),
  prev_page_url: z.string().nullable(),
  total_capped: z
    .literal(true)
    .optional()
    .describe(
      "Present when more records matched than a search counts and orders (2 000): `total` is that " +
        "limit, the records come newest first and no page goes past it. Narrow the search to see the rest.",
    ),
});
export type Pagination = z.infer<typeof Pagination>;

/** One page of a list: `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}
