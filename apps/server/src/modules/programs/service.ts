import {
  PROGRAM_FIELDS,
  type ProductDetails,
  type ProgramDetail,
  type ProgramFilter,
  type ProgramFormValues,
  type ProgramPage,
  type VendorProgram,
} from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { updateInferredFixes } from "../../db/infer-fixed.ts";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import { createLobbyClaims } from "./claims.ts";
import { createCsvImport } from "./csv-import.ts";
import { createProgramPolicy } from "./policy.ts";
import { createProgramQueries } from "./queries.ts";
import {
  MESSAGES,
  PROGRAM_NOT_FOUND,
  type ProgramParts,
  parseProgram,
  programOf,
  slugConflict,
} from "./rules.ts";

/** The vendor's programs (spec §5, §7, decision 006): its own, the lobby claims and the CSV import. */
export function createProgramService(options: Omit<ProgramParts, "queries">) {
  const { database } = options;
  const queries = createProgramQueries(database.sql);

  async function requireProgram(vendorId: number, id: number, tx?: SqlRunner) {
    const row = await queries.findProgram(vendorId, id, tx);
    if (!row) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
    return row;
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
        // A new current version may move the product's records to or from "fixed in a later version".
        const inferred = await updateInferredFixes(tx, { productId: id });
        if (current.is_active || inferred > 0) await bumpDataVersion(tx);
      });
      await options.onPublicChange?.();
      return programOf(await requireProgram(vendorId, id));
    },

    ...createLobbyClaims({ ...options, queries }),
    ...createCsvImport({ database, queries }),
    ...createProgramPolicy(options),
  };
}

export type ProgramService = ReturnType<typeof createProgramService>;
