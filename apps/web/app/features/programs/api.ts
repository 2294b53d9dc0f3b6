import type {
  ActivationAnswer,
  Contributors,
  CsvImportAnswer,
  LobbyProduct,
  Page,
  ProductDetails,
  ProductUserNotice,
  ProductUserNoticeBody,
  ProductUserNoticeList,
  ProgramDetail,
  ProgramFilter,
  ProgramFormValues,
  ProgramInput,
  ProgramPolicy,
  ProgramPolicyBody,
  VendorProgram,
  VulnerabilitySummary,
} from "@pressguard/domain";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { pageFromUrl } from "../../lib/api/page.ts";
import type { ApiClient } from "../../lib/api/request.ts";

export { pageFromUrl };

/** Spec §8 store failures: what a page shows when the call behind one of its parts fails. */
export const FETCH_FAILURES = {
  products: "Error fetching products",
  productsDetails: "Error fetching products details",
  product: "Error fetching product",
  vulnerabilities: "Error fetching vulnerabilities",
  contributors: "Error fetching contributors",
} as const;

/** The path of the CSV template (decision 006), a plain download link. */
export const CSV_TEMPLATE_PATH = "/products/csv-template";

export const programsApi = {
  findPrograms: (client: ApiClient, filter: ProgramFilter, page: number) =>
    client.request<Page<VendorProgram>>("/products", { query: { filter, page } }),
  getDetails: (client: ApiClient) => client.request<ProductDetails>("/products/details"),
  getProgram: (client: ApiClient, id: string) => client.request<ProgramDetail>(`/products/${id}`),
  getProgramFields: (client: ApiClient, id: string) =>
    client.request<ProgramFormValues>(`/products/${id}/edit`),
  createProgram: (client: ApiClient, body: ProgramInput) =>
    client.request<VendorProgram>("/products", { method: "POST", body }),
  updateProgram: (client: ApiClient, id: string, body: ProgramInput) =>
    client.request<VendorProgram>(`/products/${id}`, { method: "POST", body }),
  activate: (client: ApiClient, id: number | string, isLobbyProduct: boolean) =>
    client.request<ActivationAnswer>(`/products/${id}/activate-product`, {
      method: "POST",
      body: { is_lobby_product: isLobbyProduct },
    }),
  findLobby: (client: ApiClient, q: string, page: number) =>
    client.request<Page<LobbyProduct>>("/products/lobby", { query: { q: q || undefined, page } }),
  /** Spec §7: a form body goes as multipart, never as JSON (the wrapper leaves FormData alone). */
  importCsv: (client: ApiClient, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return client.request<CsvImportAnswer>("/products/import-csv", { method: "POST", body: form });
  },
  findVulnerabilities: (client: ApiClient, id: string, tab: "present" | "fixed", page: number) =>
    client.request<Page<VulnerabilitySummary>>(`/products/${id}/vulnerabilities`, {
      query: { "filter[tab]": tab, page },
    }),
  getContributors: (client: ApiClient, id: string) =>
    client.request<Contributors>(`/products/${id}/contributors`),
  getPolicy: (client: ApiClient, id: string) => client.request<ProgramPolicy>(`/products/${id}/policy`),
  updatePolicy: (client: ApiClient, id: string, body: ProgramPolicyBody) =>
    client.request<ProgramPolicy>(`/products/${id}/policy`, { method: "POST", body }),
  getUserNotices: (client: ApiClient, id: string) =>
    client.request<ProductUserNoticeList>(`/products/${id}/user-notices`),
  sendUserNotice: (client: ApiClient, id: string, body: ProductUserNoticeBody) =>
    client.request<ProductUserNotice>(`/products/${id}/user-notices`, { method: "POST", body }),
};

/** Query keys: everything under `programKeys.all` is the vendor's "project data" (spec §4). */
export const programKeys = {
  all: ["vendor-programs"] as const,
  lists: () => [...programKeys.all, "list"] as const,
  list: (filter: ProgramFilter) => [...programKeys.lists(), filter] as const,
  details: () => [...programKeys.all, "details"] as const,
  program: (id: string) => [...programKeys.all, "program", id] as const,
  vulnerabilities: (id: string, tab: "present" | "fixed") =>
    [...programKeys.program(id), "vulnerabilities", tab] as const,
  contributors: (id: string) => [...programKeys.program(id), "contributors"] as const,
  securityTxt: (id: string) => [...programKeys.program(id), "security-txt"] as const,
  fields: (id: string) => [...programKeys.all, "fields", id] as const,
  policy: (id: string) => [...programKeys.all, "policy", id] as const,
  userNotices: (id: string) => [...programKeys.program(id), "user-notices"] as const,
  lobby: (q: string) => [...programKeys.all, "lobby", q] as const,
};

/** Lists are cached once loaded (spec §4): no refetch on their own; the reset rules clear them. */
const CACHED = { staleTime: Number.POSITIVE_INFINITY, retry: false } as const;

export function programListQuery(client: ApiClient, filter: ProgramFilter) {
  return infiniteQueryOptions({
    queryKey: programKeys.list(filter),
    queryFn: ({ pageParam }) => programsApi.findPrograms(client, filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<VendorProgram>) => pageFromUrl(last.pagination.next_page_url),
    ...CACHED,
  });
}

export function productDetailsQuery(client: ApiClient) {
  return queryOptions({
    queryKey: programKeys.details(),
    queryFn: () => programsApi.getDetails(client),
    ...CACHED,
  });
}

export function programQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: programKeys.program(id),
    queryFn: () => programsApi.getProgram(client, id),
    ...CACHED,
  });
}

export function programVulnerabilitiesQuery(client: ApiClient, id: string, tab: "present" | "fixed") {
  return infiniteQueryOptions({
    queryKey: programKeys.vulnerabilities(id, tab),
    queryFn: ({ pageParam }) => programsApi.findVulnerabilities(client, id, tab, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<VulnerabilitySummary>) => pageFromUrl(last.pagination.next_page_url),
    ...CACHED,
  });
}

export function programContributorsQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: programKeys.contributors(id),
    queryFn: () => programsApi.getContributors(client, id),
    ...CACHED,
  });
}

/**
 * The program's public security.txt as its URL serves it (decision 026): a plain file of the site,
 * not an API answer, revalidated so that a renamed product shows at once.
 */
export function programSecurityTxtQuery(id: string, path: string) {
  return queryOptions({
    queryKey: programKeys.securityTxt(id),
    queryFn: async ({ signal }) => {
      const response = await fetch(path, { cache: "no-cache", signal });
      if (!response.ok) throw new Error(`security.txt: ${response.status}`);
      return response.text();
    },
    ...CACHED,
  });
}

export function programFieldsQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: programKeys.fields(id),
    queryFn: () => programsApi.getProgramFields(client, id),
    staleTime: 0,
    retry: false,
  });
}

export function lobbyQuery(client: ApiClient, q: string) {
  return infiniteQueryOptions({
    queryKey: programKeys.lobby(q),
    queryFn: ({ pageParam }) => programsApi.findLobby(client, q, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<LobbyProduct>) => pageFromUrl(last.pagination.next_page_url),
    ...CACHED,
  });
}

export function programPolicyQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: programKeys.policy(id),
    queryFn: () => programsApi.getPolicy(client, id),
    staleTime: 0,
    retry: false,
  });
}

export function userNoticesQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: programKeys.userNotices(id),
    queryFn: () => programsApi.getUserNotices(client, id),
    staleTime: 0,
    retry: false,
  });
}
