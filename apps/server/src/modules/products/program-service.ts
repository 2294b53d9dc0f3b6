import {
  type ActivationAnswer,
  type CsvImportAnswer,
  type LobbyPage,
  PROGRAM_FIELDS,
  type ProductClaim,
  type ProductDetails,
  Program,
  type ProgramDetail,
  type ProgramFilter,
  type ProgramFormValues,
  type ProgramPage,
  type VendorProgram,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { idOrNotFound } from "../../http/ids.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { SessionUserBody } from "../auth/service.ts";
import { emailDomainOf, hostMatches, hostOf, ownDomains } from "./claim-domains.ts";
import { CSV_MAX_ROWS, CsvFormatError, readCsv, writeCsv } from "./csv.ts";
import { createProgramQueries, type OwnershipRow, type ProgramRow } from "./program-queries.ts";

const PROGRAM_NOT_FOUND = "Program not found.";

export const MESSAGES = {
  activated: "The program is now active: researchers can report vulnerabilities in it to you.",
  alreadyActive: "The program is already active.",
  claimed: "The product is now yours and its program is active.",
  claimPending:
    "Your claim was sent to our team for review, because the product's URL domain does not match your website or a verified e-mail address. We will e-mail you once it is decided.",
  claimedByOther: "This product is already claimed by another vendor.",
  verifyFirst: "Verify your e-mail address before activating a program.",
  slugOwn: "You already have a program with this slug.",
  slugLobby: "This product is already in the public database: claim it from the lobby instead.",
  slugOther: "This product belongs to another vendor.",
  activeSlug: "The slug of an active program cannot change.",
  activeKind: "The kind of an active program cannot change.",
  claimNotPending: "This claim was already decided.",
} as const;

/** The caller's vendor organisation; the access level "vendor" guarantees one. */
export function vendorOf(user: SessionUserBody): { id: number; role: string } {
  if (!user.vendor) throw new AppError("forbidden");
  return { id: user.vendor.id, role: user.vendor.role };
}

function programOf(row: ProgramRow): VendorProgram {
  return {
    ...row,
    activated_at: isoOrNull(row.activated_at),
    created_at: isoOrNull(row.created_at) ?? "",
    public_path: `/database/${row.platform}/${row.kind}/${encodeURIComponent(row.slug)}/security-policy/vdp`,
  };
}

/** A product id in a path: digits only; anything else names no program (spec §2). */
export function programIdOf(value: string): number {
  return idOrNotFound(value, PROGRAM_NOT_FOUND);
}

function parseProgram(input: unknown): Program {
  const result = Program.safeParse(input);
  if (!result.success) throw validationErrorOf(result.error.issues);
  return result.data;
}

/** Why `slug` cannot be used by this vendor, or null when it is free (or already this program). */
function slugConflict(existing: OwnershipRow | null, vendorId: number, programId?: number): string | null {
  if (!existing || existing.id === programId) return null;
  if (existing.vendor_id === vendorId) return MESSAGES.slugOwn;
  if (existing.vendor_id === null) return MESSAGES.slugLobby;
  return MESSAGES.slugOther;
}

export interface ProgramServiceOptions {
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
  mailer?: Mailer;
  appUrl?: string;
}

export function createProgramService(database: Database, options: ProgramServiceOptions = {}) {
  const queries = createProgramQueries(database.sql);

  /** Public pages changed (directory, footer count, security policy): every cache learns it. */
  async function publicDataChanged(tx: SqlRunner) {
    await bumpDataVersion(tx);
  }

  async function requireProgram(vendorId: number, id: number, tx?: SqlRunner) {
    const row = await queries.findProgram(vendorId, id, tx);
    if (!row) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
    return row;
  }

  async function vendorDomains(vendorId: number, tx?: SqlRunner) {
    const sources = await queries.vendorDomainSources(vendorId, tx);
    return ownDomains([hostOf(sources.url), ...sources.emails.map(emailDomainOf)]);
  }

  async function detail(vendorId: number, id: number): Promise<ProgramDetail> {
    const row = await requireProgram(vendorId, id);
    const counts = await queries.reportCounts(vendorId, id);
    return {
      ...programOf(row),
      counters: {
        reports: counts.reports,
        open: counts.open,
        fixed: counts.fixed,
        fixedOnTime: counts.fixed_on_time,
      },
    };
  }

  return {
    async listPrograms(vendorId: number, filter: ProgramFilter, page: PageRequest): Promise<ProgramPage> {
      const offset = (page.page - 1) * page.perPage;
      const { rows, total } = await queries.listPrograms(vendorId, filter, page.perPage, offset);
      return {
        data: rows.map(programOf),
        pagination: paginationOf(page.path, page.query, page.page, page.perPage, total),
      };
    },

    async details(vendorId: number): Promise<ProductDetails> {
      const [programs, reports] = await Promise.all([
        queries.programCounts(vendorId),
        queries.reportCounts(vendorId),
      ]);
      return {
        active: programs.active,
        fixed: reports.fixed,
        fixedOnTime: reports.fixed_on_time,
        open: programs.open,
        pending: programs.pending,
        reports: reports.reports,
      };
    },

    getProgram: detail,

    async getProgramForm(vendorId: number, id: number): Promise<ProgramFormValues> {
      const row = await requireProgram(vendorId, id);
      return Object.fromEntries(PROGRAM_FIELDS.map((field) => [field, row[field]])) as ProgramFormValues;
    },

    async createProgram(vendorId: number, input: unknown): Promise<VendorProgram> {
      const program = parseProgram(input);
      const id = await database.sql.transaction(async (tx) => {
        const conflict = slugConflict(await queries.findBySlug(program.kind, program.slug, tx), vendorId);
        if (conflict) throw new AppError("validation", { fieldErrors: { slug: [conflict] } });
        return queries.insertProgram(vendorId, program, tx);
      });
      // A concurrent insert of the same slug won the race.
      if (id === null) throw new AppError("validation", { fieldErrors: { slug: [MESSAGES.slugOwn] } });
      return programOf(await requireProgram(vendorId, id));
    },

    async updateProgram(vendorId: number, id: number, input: unknown): Promise<VendorProgram> {
      const program = parseProgram(input);
      await database.sql.transaction(async (tx) => {
        const current = await requireProgram(vendorId, id, tx);
        const errors: Record<string, string[]> = {};
        if (current.is_active && current.slug !== program.slug) errors.slug = [MESSAGES.activeSlug];
        if (current.is_active && current.kind !== program.kind) errors.kind = [MESSAGES.activeKind];
        if (!errors.slug) {
          const conflict = slugConflict(
            await queries.findBySlug(program.kind, program.slug, tx),
            vendorId,
            id,
          );
          if (conflict) errors.slug = [conflict];
        }
        if (Object.keys(errors).length > 0) throw new AppError("validation", { fieldErrors: errors });
        await queries.updateProgram(vendorId, id, program, tx);
        if (current.is_active) await publicDataChanged(tx);
      });
      await options.onPublicChange?.();
      return programOf(await requireProgram(vendorId, id));
    },

    /**
     * Spec §7 `activate-product`: the vendor's own pending program becomes active; a lobby product is
     * claimed — at once when its URL domain is the vendor's, otherwise after staff review.
     */
    async activate(user: SessionUserBody, id: number, isLobbyProduct: boolean): Promise<ActivationAnswer> {
      const vendor = vendorOf(user);
      const requireVerified = () => {
        if (!user.email_verified) throw new AppError("forbidden", { message: MESSAGES.verifyFirst });
      };
      const answer = await database.sql.transaction(async (tx): Promise<ActivationAnswer> => {
        const product = await queries.findOwnership(id, tx);
        if (product?.vendor_id === vendor.id) {
          if (product.is_active) return { status: "success", message: MESSAGES.alreadyActive };
          requireVerified();
          await queries.activate(vendor.id, id, tx);
          await publicDataChanged(tx);
          return { status: "success", message: MESSAGES.activated };
        }
        // Only a lobby claim may name a product the vendor does not own; for anything else it does not exist.
        if (!product || !isLobbyProduct) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
        if (product.vendor_id !== null) throw new AppError("conflict", { message: MESSAGES.claimedByOther });
        if (!["plugin", "theme"].includes(product.kind))
          throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
        requireVerified();
        const domains = await vendorDomains(vendor.id, tx);
        if (hostMatches(product.website_host, domains) || hostMatches(product.product_host, domains)) {
          if (!(await queries.takeLobbyProduct(vendor.id, id, tx)))
            throw new AppError("conflict", { message: MESSAGES.claimedByOther });
          await queries.closeOtherClaims(id, "Another vendor's claim was accepted.", null, tx);
          await publicDataChanged(tx);
          return { status: "success", message: MESSAGES.claimed };
        }
        await queries.upsertPendingClaim(id, vendor.id, user.id, tx);
        return { status: "pending", message: MESSAGES.claimPending };
      });
      await options.onPublicChange?.();
      return answer;
    },

    async lobby(vendorId: number, text: string | undefined, page: PageRequest): Promise<LobbyPage> {
      const domains = await vendorDomains(vendorId);
      const offset = (page.page - 1) * page.perPage;
      const { rows, total } = await queries.lobby(vendorId, { domains, text }, page.perPage, offset);
      return {
        data: rows.map(({ website_host, product_host, claim_status, ...row }) => ({
          ...row,
          domain_match: hostMatches(website_host, domains) || hostMatches(product_host, domains),
          claim_status: claim_status === "pending" || claim_status === "rejected" ? claim_status : null,
        })),
        pagination: paginationOf(page.path, page.query, page.page, page.perPage, total),
      };
    },

    /** CSV import (decision 006): every row through the Program schema; valid rows created together. */
    async importCsv(vendorId: number, text: string): Promise<CsvImportAnswer> {
      let records: ReturnType<typeof readCsv>;
      try {
        records = readCsv(text);
      } catch (error) {
        if (error instanceof CsvFormatError) throw new AppError("validation", { message: error.message });
        throw error;
      }
      const [header, ...rows] = records;
      if (!header) throw new AppError("validation", { message: "The file is empty." });
      const columns = header.cells.map((cell) => cell.trim().toLowerCase());
      const unknown = columns.filter((column) => !(PROGRAM_FIELDS as readonly string[]).includes(column));
      if (unknown.length > 0 || !columns.includes("name") || !columns.includes("slug")) {
        throw new AppError("validation", {
          message: `The first line must be the template's header: ${PROGRAM_FIELDS.join(",")}${
            unknown.length > 0
              ? ` (unknown column${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")})`
              : ""
          }.`,
        });
      }
      if (rows.length > CSV_MAX_ROWS) {
        throw new AppError("validation", {
          message: `The file has ${rows.length.toLocaleString("en")} rows; at most ${CSV_MAX_ROWS.toLocaleString("en")} can be imported at once. Split it into smaller files.`,
        });
      }
      if (rows.length === 0)
        throw new AppError("validation", { message: "The file has no rows under its header." });

      const errors: CsvImportAnswer["errors"] = [];
      const seen = new Map<string, number>();
      let created = 0;
      await database.sql.transaction(async (tx) => {
        for (const row of rows) {
          // A blank cell is a field not given: required ones get their message, the plan its default.
          const values = Object.fromEntries(
            columns.flatMap((column, index) => {
              const cell = row.cells[index]?.trim() ?? "";
              return cell === "" ? [] : [[column, cell]];
            }),
          );
          const result = Program.safeParse(values);
          if (!result.success) {
            errors.push({
              line: row.line,
              messages: result.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`),
            });
            continue;
          }
          const program = result.data;
          const key = `${program.kind}/${program.slug}`;
          const earlier = seen.get(key);
          if (earlier !== undefined) {
            errors.push({
              line: row.line,
              messages: [`slug: The slug ${program.slug} is already on line ${earlier}.`],
            });
            continue;
          }
          seen.set(key, row.line);
          const conflict = slugConflict(await queries.findBySlug(program.kind, program.slug, tx), vendorId);
          if (conflict) {
            errors.push({ line: row.line, messages: [`slug: ${conflict}`] });
            continue;
          }
          if ((await queries.insertProgram(vendorId, program, tx)) === null) {
            errors.push({ line: row.line, messages: [`slug: ${MESSAGES.slugOwn}`] });
            continue;
          }
          created += 1;
        }
      });
      return { rows: rows.length, created, errors };
    },

    csvTemplate(): string {
      return writeCsv([
        PROGRAM_FIELDS,
        [
          "plugin",
          "1.0.0",
          "My Plugin",
          "https://wordpress.org/plugins/my-plugin/",
          "What the plugin does, in one sentence.",
          "WooCommerce",
          "security@example.com",
          "my-plugin",
          "https://example.com",
          "free",
        ],
      ]);
    },

    async listClaims(status: string, page: PageRequest) {
      const offset = (page.page - 1) * page.perPage;
      const { rows, total } = await queries.listClaims(status, page.perPage, offset);
      const data: ProductClaim[] = rows.map((row) => ({
        id: row.id,
        status: row.status,
        reason: row.reason,
        created_at: isoOrNull(row.created_at) ?? "",
        decided_at: isoOrNull(row.decided_at),
        product: {
          id: row.product_id,
          platform: row.platform,
          kind: row.kind,
          slug: row.slug,
          name: row.name,
          product_url: row.product_url,
          vendor_website_url: row.vendor_website_url,
          vendor_id: row.product_vendor_id,
        },
        vendor: {
          id: row.vendor_id,
          vendor_name: row.vendor_name,
          url: row.vendor_url,
          contact_email: row.vendor_contact_email,
        },
        requested_by:
          row.requester_id === null
            ? null
            : { id: row.requester_id, name: row.requester_name ?? "", email: row.requester_email ?? "" },
      }));
      return { data, pagination: paginationOf(page.path, page.query, page.page, page.perPage, total) };
    },

    /** Staff decide a pending claim; approving makes the product the vendor's active program. */
    async decideClaim(
      staffId: number,
      claimId: number,
      decision: { approve: true } | { approve: false; reason: string },
    ) {
      const claim = await database.sql.transaction(async (tx) => {
        const claim = await queries.findClaimForUpdate(claimId, tx);
        if (!claim) throw new AppError("not_found", { message: "Claim not found." });
        if (claim.status !== "pending") throw new AppError("conflict", { message: MESSAGES.claimNotPending });
        if (!decision.approve) {
          await queries.decideClaim(
            claimId,
            { status: "rejected", reason: decision.reason, deciderId: staffId },
            tx,
          );
          return claim;
        }
        if (!(await queries.takeLobbyProduct(claim.vendor_id, claim.product_id, tx)))
          throw new AppError("conflict", { message: MESSAGES.claimedByOther });
        await queries.decideClaim(claimId, { status: "approved", reason: null, deciderId: staffId }, tx);
        await queries.closeOtherClaims(claim.product_id, "Another vendor's claim was accepted.", staffId, tx);
        await publicDataChanged(tx);
        return claim;
      });
      await options.onPublicChange?.();
      if (options.mailer && claim.requester_email) {
        const path = decision.approve ? `/vdp/programs/${claim.product_id}` : "/vdp/start-program";
        await options.mailer.enqueue(claim.requester_email, {
          template: "product_claim_decided",
          name: claim.requester_name ?? "",
          productName: claim.product_name,
          approved: decision.approve,
          reason: decision.approve ? null : decision.reason,
          url: `${options.appUrl ?? ""}${path}`,
        });
      }
      return { status: "success" as const };
    },
  };
}

export type ProgramService = ReturnType<typeof createProgramService>;
