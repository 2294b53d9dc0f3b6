import {
  type ComponentKind,
  PROGRAM_OPEN_REPORT_STATES,
  type Program,
  type ProgramFilter,
  SOFTWARE_TYPES,
  VENDOR_REPORT_TABS,
  VENDOR_VISIBLE_REPORT_STATES,
} from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");
const OPEN = sqlList(PROGRAM_OPEN_REPORT_STATES);
/** Report states a vendor sees (decision 006): from validation on. */
const VISIBLE = sqlList(VENDOR_VISIBLE_REPORT_STATES);
const FIXED = sqlList(VENDOR_REPORT_TABS.fixed);
/** What a lobby product can be: a plugin or a theme (core has no vendor). */
const LOBBY_KINDS = sqlList(SOFTWARE_TYPES.map((type) => type.value));

export interface ProgramRow {
  id: number;
  platform: string;
  kind: ComponentKind;
  slug: string;
  name: string;
  version: string | null;
  product_url: string | null;
  description: string | null;
  dependencies: string | null;
  vendor_contact_email: string | null;
  vendor_website_url: string | null;
  plan: "free" | "premium" | "both";
  is_active: boolean;
  is_lobby_product: boolean;
  activated_at: Date | string | null;
  created_at: Date | string;
  fix_deadline_days: number;
  open_reports: number;
  vulnerabilities: number;
}

const PROGRAM_COLUMNS = `
  p.id, pl.slug as platform, p.kind, p.slug, p.name, p.version, p.product_url, p.description,
  p.dependencies, p.vendor_contact_email, p.vendor_website_url, p.plan, p.is_active, p.is_lobby_product,
  p.activated_at, p.created_at, p.fix_deadline_days,
  (select count(*)::int from reports r where r.product_id = p.id and r.status in (${OPEN})) as open_reports,
  (select count(distinct ar.vulnerability_id)::int from affected_ranges ar where ar.product_id = p.id)
    as vulnerabilities`;

const FILTERS: Record<ProgramFilter, { where: string; order: string }> = {
  "all-active": { where: "p.is_active", order: "lower(p.name), p.id" },
  // The program whose oldest open report waits longest comes first.
  "open-reports": {
    where: `exists (select 1 from reports r where r.product_id = p.id and r.status in (${OPEN}))`,
    order: `(select min(r.created_at) from reports r where r.product_id = p.id and r.status in (${OPEN})), p.id`,
  },
  "vdp-pending": { where: "not p.is_active", order: "p.created_at desc, p.id desc" },
};

export interface LobbyRow {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  product_url: string | null;
  vendor_website_url: string | null;
  author: string | null;
  active_installs: number | null;
  website_host: string | null;
  product_host: string | null;
  vulnerabilities: number;
  claim_status: "pending" | "approved" | "rejected" | null;
}

export interface OwnershipRow {
  id: number;
  vendor_id: number | null;
  is_active: boolean;
  kind: string;
  slug: string;
  website_host: string | null;
  product_host: string | null;
}

export interface ClaimRow {
  id: number;
  status: "pending" | "approved" | "rejected";
  reason: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
  product_id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  product_url: string | null;
  vendor_website_url: string | null;
  product_vendor_id: number | null;
  vendor_id: number;
  vendor_name: string;
  vendor_url: string | null;
  vendor_contact_email: string;
  requester_id: number | null;
  requester_name: string | null;
  requester_email: string | null;
}

/** A Program's values in column order for inserts and updates. */
function programValues(program: Program) {
  return [
    program.kind,
    program.slug,
    program.name,
    program.version,
    program.product_url,
    program.description,
    program.dependencies,
    program.vendor_contact_email,
    program.vendor_website_url,
    program.plan,
  ];
}

export function createProgramQueries(sql: SqlRunner) {
  return {
    async listPrograms(vendorId: number, filter: ProgramFilter, limit: number, offset: number) {
      const { where, order } = FILTERS[filter];
      const { rows } = await sql.query<ProgramRow>(
        `select ${PROGRAM_COLUMNS}
         from products p join platforms pl on pl.id = p.platform_id
         where p.vendor_id = $1 and ${where}
         order by ${order}
         limit $2 offset $3`,
        [vendorId, limit, offset],
      );
      const counted = await sql.query<{ total: number }>(
        `select count(*)::int as total from products p where p.vendor_id = $1 and ${where}`,
        [vendorId],
      );
      return { rows, total: counted.rows[0]?.total ?? 0 };
    },

    async findProgram(vendorId: number, id: number, tx: SqlRunner = sql): Promise<ProgramRow | null> {
      const { rows } = await tx.query<ProgramRow>(
        `select ${PROGRAM_COLUMNS}
         from products p join platforms pl on pl.id = p.platform_id
         where p.id = $1 and p.vendor_id = $2`,
        [id, vendorId],
      );
      return rows[0] ?? null;
    },

    async programCounts(vendorId: number) {
      const { rows } = await sql.query<{ active: number; pending: number; open: number }>(
        `select count(*) filter (where p.is_active)::int as active,
                count(*) filter (where not p.is_active)::int as pending,
                count(*) filter (where exists (
                  select 1 from reports r where r.product_id = p.id and r.status in (${OPEN})))::int as open
         from products p where p.vendor_id = $1`,
        [vendorId],
      );
      return rows[0] ?? { active: 0, pending: 0, open: 0 };
    },

    /** Report counters over the vendor's programs, or over one program when `productId` is given. */
    async reportCounts(vendorId: number, productId?: number) {
      const { rows } = await sql.query<{
        reports: number;
        open: number;
        fixed: number;
        fixed_on_time: number;
      }>(
        `select count(*)::int as reports,
                count(*) filter (where r.status in (${OPEN}))::int as open,
                count(*) filter (where r.status in (${FIXED}) and r.fixed_at is not null)::int as fixed,
                count(*) filter (where r.status in (${FIXED}) and r.fixed_at is not null
                  and r.fix_deadline_at is not null and r.fixed_at <= r.fix_deadline_at)::int as fixed_on_time
         from reports r join products p on p.id = r.product_id
         where p.vendor_id = $1 and r.status in (${VISIBLE}) and ($2::int is null or p.id = $2)`,
        [vendorId, productId ?? null],
      );
      return rows[0] ?? { reports: 0, open: 0, fixed: 0, fixed_on_time: 0 };
    },

    /** Who owns the product at platform/kind/slug, if it exists. */
    async findBySlug(kind: string, slug: string, tx: SqlRunner = sql): Promise<OwnershipRow | null> {
      const { rows } = await tx.query<OwnershipRow>(
        `select p.id, p.vendor_id, p.is_active, p.kind, p.slug, p.website_host, p.product_host
         from products p join platforms pl on pl.id = p.platform_id
         where pl.slug = 'wordpress' and p.kind = $1 and p.slug = $2`,
        [kind, slug],
      );
      return rows[0] ?? null;
    },

    async findOwnership(id: number, tx: SqlRunner = sql): Promise<OwnershipRow | null> {
      const { rows } = await tx.query<OwnershipRow>(
        `select id, vendor_id, is_active, kind, slug, website_host, product_host
         from products where id = $1 for update`,
        [id],
      );
      return rows[0] ?? null;
    },

    /** Inserts a pending program; null when platform/kind/slug is taken (a concurrent insert). */
    async insertProgram(vendorId: number, program: Program, tx: SqlRunner = sql): Promise<number | null> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into products (platform_id, kind, slug, name, version, product_url, description, dependencies,
           vendor_contact_email, vendor_website_url, plan, vendor_id)
         select pl.id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 from platforms pl where pl.slug = 'wordpress'
         on conflict (platform_id, kind, slug) do nothing
         returning id`,
        [...programValues(program), vendorId],
      );
      return rows[0]?.id ?? null;
    },

    async updateProgram(vendorId: number, id: number, program: Program, tx: SqlRunner = sql) {
      await tx.query(
        `update products set kind = $1, slug = $2, name = $3, version = $4, product_url = $5, description = $6,
           dependencies = $7, vendor_contact_email = $8, vendor_website_url = $9, plan = $10, updated_at = now()
         where id = $11 and vendor_id = $12`,
        [...programValues(program), id, vendorId],
      );
    },

    async activate(vendorId: number, id: number, tx: SqlRunner = sql): Promise<void> {
      await tx.query(
        `update products set is_active = true, activated_at = coalesce(activated_at, now()), updated_at = now()
         where id = $1 and vendor_id = $2`,
        [id, vendorId],
      );
    },

    /** Makes a lobby product the vendor's active program; false when someone owns it already. */
    async takeLobbyProduct(vendorId: number, id: number, tx: SqlRunner = sql): Promise<boolean> {
      const { rows } = await tx.query(
        `update products set vendor_id = $2, is_active = true, is_lobby_product = true,
           activated_at = coalesce(activated_at, now()), updated_at = now()
         where id = $1 and vendor_id is null
         returning id`,
        [id, vendorId],
      );
      return rows.length > 0;
    },

    /** The hosts a vendor owns: its website and its members' verified e-mail addresses. */
    async vendorDomainSources(vendorId: number, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{ url: string | null; emails: string[] }>(
        `select v.url,
           coalesce(array_agg(u.email) filter (where u.email_verified_at is not null), '{}') as emails
         from vendors v
         left join vendor_members vm on vm.vendor_id = v.id
         left join users u on u.id = vm.user_id
         where v.id = $1
         group by v.id`,
        [vendorId],
      );
      return rows[0] ?? { url: null, emails: [] };
    },

    async lobby(
      vendorId: number,
      options: { domains: readonly string[]; text?: string | undefined },
      limit: number,
      offset: number,
    ) {
      const matches = (d: string) => `exists (select 1 from unnest(${d}::text[]) d where
          p.website_host = d or p.website_host like '%.' || d or p.product_host = d or p.product_host like '%.' || d)`;
      const base = `p.vendor_id is null and p.kind in (${LOBBY_KINDS})`;
      const textWhere = (t: string, prefix: string) =>
        `${base} and (p.search @@ websearch_to_tsquery('simple', ${t}) or lower(p.slug) like ${prefix})`;
      const text = options.text;
      const domains = [...options.domains];
      const search = text ? [text, `${text.toLowerCase()}%`] : [];
      const { rows } = await sql.query<LobbyRow>(
        `select p.id, pl.slug as platform, p.kind, p.slug, p.name, p.product_url, p.vendor_website_url, p.author,
           p.active_installs, p.website_host, p.product_host,
           (select count(distinct ar.vulnerability_id)::int from affected_ranges ar where ar.product_id = p.id)
             as vulnerabilities,
           (select c.status from product_claims c where c.product_id = p.id and c.vendor_id = $1) as claim_status
         from products p join platforms pl on pl.id = p.platform_id
         where ${text ? textWhere("$3", "$4") : `${base} and ${matches("$2")}`}
         order by ${matches("$2")} desc, p.active_installs desc nulls last, lower(p.name), p.id
         limit ${limit} offset ${offset}`,
        [vendorId, domains, ...search],
      );
      const counted = await sql.query<{ total: number }>(
        `select count(*)::int as total from products p
         where ${text ? textWhere("$1", "$2") : `${base} and ${matches("$1")}`}`,
        text ? search : [domains],
      );
      return { rows, total: counted.rows[0]?.total ?? 0 };
    },

    async upsertPendingClaim(productId: number, vendorId: number, userId: number, tx: SqlRunner = sql) {
      await tx.query(
        `insert into product_claims (product_id, vendor_id, requested_by) values ($1, $2, $3)
         on conflict (product_id, vendor_id) do update
           set status = 'pending', reason = null, decided_at = null, decided_by = null,
               requested_by = excluded.requested_by, created_at = now()
           where product_claims.status <> 'pending'`,
        [productId, vendorId, userId],
      );
    },

    /** Other vendors' pending claims on a product that now has an owner are closed. */
    async closeOtherClaims(productId: number, reason: string, deciderId: number | null, tx: SqlRunner = sql) {
      await tx.query(
        `update product_claims set status = 'rejected', reason = $2, decided_at = now(), decided_by = $3
         where product_id = $1 and status = 'pending'`,
        [productId, reason, deciderId],
      );
    },

    async listClaims(status: string, limit: number, offset: number) {
      const { rows } = await sql.query<ClaimRow>(
        `select c.id, c.status, c.reason, c.created_at, c.decided_at,
           p.id as product_id, pl.slug as platform, p.kind, p.slug, p.name, p.product_url, p.vendor_website_url,
           p.vendor_id as product_vendor_id,
           v.id as vendor_id, v.vendor_name, v.url as vendor_url, v.contact_email as vendor_contact_email,
           u.id as requester_id, u.name as requester_name, u.email as requester_email
         from product_claims c
         join products p on p.id = c.product_id
         join platforms pl on pl.id = p.platform_id
         join vendors v on v.id = c.vendor_id
         left join users u on u.id = c.requested_by
         where c.status = $1
         order by c.created_at, c.id
         limit $2 offset $3`,
        [status, limit, offset],
      );
      const counted = await sql.query<{ total: number }>(
        "select count(*)::int as total from product_claims where status = $1",
        [status],
      );
      return { rows, total: counted.rows[0]?.total ?? 0 };
    },

    async findClaimForUpdate(id: number, tx: SqlRunner) {
      const { rows } = await tx.query<{
        id: number;
        status: string;
        product_id: number;
        vendor_id: number;
        product_name: string;
        requester_name: string | null;
        requester_email: string | null;
      }>(
        `select c.id, c.status, c.product_id, c.vendor_id, p.name as product_name,
           u.name as requester_name, u.email as requester_email
         from product_claims c
         join products p on p.id = c.product_id
         left join users u on u.id = c.requested_by
         where c.id = $1 for update of c`,
        [id],
      );
      return rows[0] ?? null;
    },

    async decideClaim(
      id: number,
      decision: { status: "approved" | "rejected"; reason: string | null; deciderId: number },
      tx: SqlRunner,
    ) {
      await tx.query(
        `update product_claims set status = $2, reason = $3, decided_at = now(), decided_by = $4 where id = $1`,
        [id, decision.status, decision.reason, decision.deciderId],
      );
    },
  };
}

export type ProgramQueries = ReturnType<typeof createProgramQueries>;
