import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useLoaderSeed } from "./loader-seed.ts";

const KEY = ["vendor-programs", "details"];

function Counters({ seed }: { seed: { open: number } | null }) {
  useLoaderSeed(KEY, seed);
  const query = useQuery({ queryKey: KEY, queryFn: () => new Promise<{ open: number }>(() => {}) });
  return <p>{query.data ? `open ${query.data.open}` : "loading"}</p>;
}

const render = (client: QueryClient, seed: { open: number } | null) =>
  renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <Counters seed={seed} />
    </QueryClientProvider>,
  );

describe("a loader's answer seeding the query cache", () => {
  it("renders with the loader's answer when the query was never made", () => {
    expect(render(new QueryClient(), { open: 3 })).toBe("<p>open 3</p>");
  });

  it("leaves a query that exists alone: its own data, or its reset state after a change", async () => {
    const client = new QueryClient();
    client.setQueryData(KEY, { open: 5 });
    expect(render(client, { open: 3 })).toBe("<p>open 5</p>");
    // A reset (a program was added): the loader's older answer must not come back.
    await client.resetQueries({ queryKey: KEY });
    expect(render(client, { open: 3 })).toBe("<p>loading</p>");
  });

  it("does nothing without an answer (anonymous, a token the server cannot see, a failed read)", () => {
    expect(render(new QueryClient(), null)).toBe("<p>loading</p>");
  });
});
