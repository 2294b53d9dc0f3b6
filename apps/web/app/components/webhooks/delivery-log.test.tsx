import type { ForwardDelivery } from "@pressguard/domain";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DeliveryLog, deliveryLogQuery } from "./delivery-log.tsx";

const delivery = (id: number, eventType: string): ForwardDelivery => ({
  id,
  event_id: `00000000-0000-4000-8000-00000000000${id}`,
  event_type: eventType,
  status: "succeeded",
  attempts: 1,
  manual: false,
  created_at: "2026-11-27T10:00:00Z",
  finished_at: "2026-11-27T10:00:01Z",
  next_attempt_at: null,
  last_status_code: 200,
  last_latency_ms: 12,
  last_response_excerpt: null,
  attempt_log: [],
});

describe("a webhook's delivery log", () => {
  it("names every kind of event in words: report events, watchlist alerts and notices, tests", () => {
    const deliveries = [
      delivery(1, "report.validated"),
      delivery(2, "watchlist.alert"),
      delivery(3, "watchlist.notice"),
      delivery(4, "watchlist.test"),
    ];
    const page = {
      data: deliveries,
      pagination: {
        current_page: 1,
        per_page: 20,
        total: deliveries.length,
        last_page: 1,
        next_page_url: null,
        prev_page_url: null,
      },
    };
    const client = new QueryClient();
    const query = (number: number) => deliveryLogQuery(["deliveries"], number, async () => page);
    client.setQueryData(query(1).queryKey, page);

    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <DeliveryLog query={query} />
      </QueryClientProvider>,
    );

    for (const label of ["New validated report", "Watchlist alert", "Notice from a vendor", "Test event"])
      expect(html).toContain(label);
    expect(html).not.toContain("watchlist.notice");
  });
});
