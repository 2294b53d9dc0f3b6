/**
 * One request per operation of the OpenAPI document, path parameters filled with real values from
 * the seeded data where the smoke suite knows them and plausible values otherwise, required query
 * parameters with a value their schema admits.
 */

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema?: SchemaObject;
}

interface SchemaObject {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  default?: unknown;
  minimum?: number;
  pattern?: string;
}

interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
}

export interface ApiRequest {
  method: string;
  /** The document's path template, for messages. */
  operation: string;
  url: string;
  /** A JSON body for operations that declare one: `{}`, which must meet a 4xx, never a 5xx. */
  body?: string;
}

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);
const PLACEHOLDER_UUID = "4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77";

/** A value the parameter's schema admits: its default, its first enum value, or one of its type. */
function plausibleValue(parameter: ParameterObject, known: Record<string, string>): string {
  const knownValue = known[parameter.name];
  if (knownValue !== undefined) return knownValue;
  const schema = parameter.schema ?? {};
  if (schema.default !== undefined) return String(schema.default);
  if (schema.enum?.length) return String(schema.enum[0]);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("integer") || types.includes("number")) return String(Math.max(1, schema.minimum ?? 1));
  if (types.includes("boolean")) return "true";
  if (schema.format === "uuid") return PLACEHOLDER_UUID;
  return "smoke";
}

export function apiRequestsOf(document: OpenApiDocument, known: Record<string, string>): ApiRequest[] {
  const requests: ApiRequest[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue;
      const parameters = operation.parameters ?? [];
      let path = template;
      for (const parameter of parameters.filter((item) => item.in === "path")) {
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(plausibleValue(parameter, known)));
      }
      const query = new URLSearchParams();
      for (const parameter of parameters.filter((item) => item.in === "query" && item.required)) {
        query.set(parameter.name, plausibleValue(parameter, known));
      }
      const search = query.size > 0 ? `?${query}` : "";
      requests.push({
        method: method.toUpperCase(),
        operation: `${method.toUpperCase()} ${template}`,
        url: `${path}${search}`,
        ...(operation.requestBody !== undefined && { body: "{}" }),
      });
    }
  }
  return requests;
}
