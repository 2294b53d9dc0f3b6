import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

/** Bodies declared with their real schema for the OpenAPI document, and checked by their service. */
const checkedByService = new WeakSet<object>();
/** What such a body must be before its service reads it: a JSON object. */
const AnyObject = z.record(z.string(), z.unknown());

/**
 * A request body whose rules depend on the caller (the report form signed in or out, a vendor
 * account's first save), so its service checks it with the domain schema and answers in that schema's
 * words. A body whose rules depend on one of its own fields is a zod union the route checks (a report
 * transition's fields by action). The OpenAPI document shows `schema` (issue 38:
 * nine bodies were free-form `{}` there); the route only checks that the body is an object.
 */
export function bodyCheckedByService(
  schema: z.ZodType,
  meta: { id: string; description?: string },
): z.ZodType<Record<string, unknown>> {
  const documented = schema.meta(meta);
  checkedByService.add(documented);
  return documented as unknown as z.ZodType<Record<string, unknown>>;
}

/** The zod validator of every route, except for the bodies above: those are only checked to be objects. */
export const routeValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === "body" && checkedByService.has(route.schema)
    ? validatorCompiler({ ...route, schema: AnyObject })
    : validatorCompiler(route);
