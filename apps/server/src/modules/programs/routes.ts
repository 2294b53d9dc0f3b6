import fastifyMultipart from "@fastify/multipart";
import {
  ActivateProductBody,
  ActivationAnswer,
  ClaimListQuery,
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_TOO_LARGE_MESSAGE,
  CsvImportAnswer,
  DecisionTaken,
  LobbyPage,
  LobbyQuery,
  ProductClaimPage,
  ProductDetails,
  ProductIdParams,
  Program,
  ProgramDetail,
  ProgramFormValues,
  ProgramListQuery,
  ProgramPage,
  ProgramPolicy,
  ProgramPolicyBody,
  RejectClaimBody,
  VendorProgram,
} from "@pressguard/domain";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { signedInCaller } from "../../http/access.ts";
import { idOrNotFound } from "../../http/ids.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { pageRequest } from "../../http/pagination.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import { CsvTooLargeError, decodeText, readCsvUpload } from "./csv.ts";
import { programIdOf, vendorOf } from "./rules.ts";
import type { ProgramService } from "./service.ts";

const tags = ["vendor programs"];
const vendorOnly = { access: "vendor" } as const;
/** The Program body is validated by the shared domain schema in the service, with the §5 messages. */
const ProgramBody = bodyCheckedByService(Program, { id: "ProgramFields" });
/** Validated by the shared ProgramPolicyBody in the service. */
const PolicyBody = bodyCheckedByService(ProgramPolicyBody, { id: "ProgramPolicyFields" });

function signedInVendor(request: Pick<FastifyRequest, "auth">) {
  return vendorOf(signedInCaller(request).user);
}

const CSV_TYPES = new Set(["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"]);

/** The vendor's product API (spec §7, decision 006); every read scoped to the caller's organisation. */
export const programRoutes: FastifyPluginAsyncZod<{
  programs: ProgramService;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { programs, reads }) => {
  await app.register(fastifyMultipart, {
    // One byte over the limit is enough to refuse; readCsvUpload counts the bytes itself.
    limits: { fileSize: CSV_IMPORT_MAX_BYTES + 1, files: 1, fields: 0, parts: 2 },
  });

  reads.get(
    app,
    "/products",
    {
      schema: {
        tags,
        summary: "The vendor's programs: all active, with open reports, or pending",
        querystring: ProgramListQuery,
        response: { 200: ProgramPage },
      },
      config: vendorOnly,
    },
    (request) =>
      programs.listPrograms(
        signedInVendor(request).id,
        request.query.filter,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  reads.get(
    app,
    "/products/details",
    {
      schema: { tags, summary: "Counters over the vendor's programs", response: { 200: ProductDetails } },
      config: vendorOnly,
    },
    (request) => programs.details(signedInVendor(request).id),
  );

  app.get(
    "/products/lobby",
    {
      schema: {
        tags,
        summary: "Products in the database with no vendor: those matching the vendor's domains, or a search",
        querystring: LobbyQuery,
        response: { 200: LobbyPage },
      },
      config: vendorOnly,
    },
    (request) =>
      programs.lobby(
        signedInVendor(request).id,
        request.query.q || undefined,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/products/csv-template",
    {
      schema: {
        tags,
        summary: "A CSV file whose header is the Program fields, with one example row",
        response: {
          200: {
            description: "The template, as an attachment (programs-template.csv).",
            content: { "text/csv": { schema: z.string() } },
          },
        },
      },
      config: vendorOnly,
    },
    (_request, reply) => {
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="programs-template.csv"')
        .header("cache-control", "private, max-age=3600")
        .send(programs.csvTemplate());
    },
  );

  app.post(
    "/products/import-csv",
    {
      schema: {
        tags,
        summary: "Creates programs from a CSV file (multipart field `file`; 1 MB, 1,000 rows at most)",
        consumes: ["multipart/form-data"],
        response: { 200: CsvImportAnswer },
      },
      config: vendorOnly,
    },
    async (request) => {
      const vendor = signedInVendor(request);
      if (!request.isMultipart())
        throw new AppError("unsupported_media_type", {
          message: "Send the CSV file as multipart/form-data in a field named file.",
        });
      const part = await request.file().catch((error: unknown) => {
        throw multipartError(error);
      });
      if (part?.fieldname !== "file")
        throw new AppError("validation", { message: "Choose a CSV file to import (field file)." });
      const bytes = await readCsvUpload(part.file).catch((error: unknown) => {
        throw multipartError(error);
      });
      const named = part.filename.toLowerCase().endsWith(".csv");
      const text = decodeText(bytes);
      if (!named || !CSV_TYPES.has(part.mimetype.split(";")[0]?.trim().toLowerCase() ?? "") || text === null)
        throw new AppError("unsupported_media_type", {
          message: "The file must be a UTF-8 encoded CSV file (.csv); save spreadsheets as CSV first.",
        });
      return programs.importCsv(vendor.id, text);
    },
  );

  reads.get(
    app,
    "/products/:id",
    {
      schema: {
        tags,
        summary: "One of the vendor's programs with its report counters",
        params: ProductIdParams,
        response: { 200: ProgramDetail },
      },
      config: vendorOnly,
    },
    (request) => programs.getProgram(signedInVendor(request).id, programIdOf(request.params.id)),
  );

  app.get(
    "/products/:id/edit",
    {
      schema: {
        tags,
        summary: "A program's form values",
        params: ProductIdParams,
        response: { 200: ProgramFormValues },
      },
      config: vendorOnly,
    },
    (request) => programs.getProgramForm(signedInVendor(request).id, programIdOf(request.params.id)),
  );

  app.get(
    "/products/:id/policy",
    {
      schema: {
        tags,
        summary: "A program's disclosure policy, single point of contact and support period",
        description:
          "policy_markdown is the vendor's text, or null when the generated policy (template) is published.",
        params: ProductIdParams,
        response: { 200: ProgramPolicy },
      },
      config: vendorOnly,
    },
    (request) => programs.getPolicy(signedInVendor(request).id, programIdOf(request.params.id)),
  );

  app.post(
    "/products/:id/policy",
    {
      schema: {
        tags,
        summary: "Updates a program's disclosure policy, single point of contact and support period",
        description:
          "A blank policy_markdown (or the template unchanged) publishes the generated policy; a blank " +
          "security_contact_email uses the program's contact e-mail; support_ends_on is YYYY-MM-DD or blank.",
        params: ProductIdParams,
        body: PolicyBody,
        response: { 200: ProgramPolicy },
      },
      config: vendorOnly,
    },
    (request) =>
      programs.updatePolicy(signedInVendor(request).id, programIdOf(request.params.id), request.body),
  );

  app.post(
    "/products",
    {
      schema: {
        tags,
        summary: "Creates a pending program",
        body: ProgramBody,
        response: { 201: VendorProgram },
      },
      config: vendorOnly,
    },
    async (request, reply) =>
      reply.status(201).send(await programs.createProgram(signedInVendor(request).id, request.body)),
  );

  app.post(
    "/products/:id",
    {
      schema: {
        tags,
        summary: "Updates a program",
        params: ProductIdParams,
        body: ProgramBody,
        response: { 200: VendorProgram },
      },
      config: vendorOnly,
    },
    (request) =>
      programs.updateProgram(signedInVendor(request).id, programIdOf(request.params.id), request.body),
  );

  app.post(
    "/products/:id/activate-product",
    {
      schema: {
        tags,
        summary: "Activates a pending program, or claims a lobby product (is_lobby_product: true)",
        params: ProductIdParams,
        body: ActivateProductBody,
        response: { 200: ActivationAnswer },
      },
      config: vendorOnly,
    },
    (request) => {
      return programs.activate(
        signedInCaller(request).user,
        programIdOf(request.params.id),
        request.body.is_lobby_product,
      );
    },
  );
};

function multipartError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (error instanceof CsvTooLargeError || code === "FST_REQ_FILE_TOO_LARGE")
    return new AppError("payload_too_large", { message: CSV_IMPORT_TOO_LARGE_MESSAGE });
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return new AppError("validation", {
      message: "Send one CSV file in a field named file, and nothing else.",
    });
  return new AppError("bad_request", { message: "The upload could not be read as multipart/form-data." });
}

/** Staff review of lobby claims whose domain did not match (decision 006). */
export const productClaimRoutes: FastifyPluginAsyncZod<{ programs: ProgramService }> = async (
  app,
  { programs },
) => {
  const staffTags = ["staff"];
  app.get(
    "/staff/product-claims",
    {
      schema: {
        tags: staffTags,
        summary: "Lobby claims by status (pending first in, first out)",
        querystring: ClaimListQuery,
        response: { 200: ProductClaimPage },
      },
      config: { access: "staff" },
    },
    (request) =>
      programs.listClaims(
        request.query.status,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  const ClaimParams = z.object({ id: z.string() });
  const claimIdOf = (value: string) => idOrNotFound(value, "Claim not found.");

  app.post(
    "/staff/product-claims/:id/approve",
    {
      schema: {
        tags: staffTags,
        summary: "Approves a claim: the product becomes the vendor's active program",
        params: ClaimParams,
        response: { 200: DecisionTaken },
      },
      config: { access: "staff" },
    },
    (request) =>
      programs.decideClaim(request.auth?.user.id ?? 0, claimIdOf(request.params.id), { approve: true }),
  );

  app.post(
    "/staff/product-claims/:id/reject",
    {
      schema: {
        tags: staffTags,
        summary: "Rejects a claim with a reason shown to the vendor",
        params: ClaimParams,
        body: RejectClaimBody,
        response: { 200: DecisionTaken },
      },
      config: { access: "staff" },
    },
    (request) =>
      programs.decideClaim(request.auth?.user.id ?? 0, claimIdOf(request.params.id), {
        approve: false,
        reason: request.body.reason,
      }),
  );
};
