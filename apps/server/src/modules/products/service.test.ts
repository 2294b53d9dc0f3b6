import { describe, expect, it } from "vitest";
import { createFooterMetricsService } from "./service.ts";

describe("createFooterMetricsService", () => {
  it("asks the database once per period however many callers wait", async () => {
    let calls = 0;
    let clock = 0;
    const service = createFooterMetricsService({
      queries: {
        countActivePrograms: async () => {
          calls += 1;
          return 7 + calls;
        },
      },
      ttlMs: 1000,
      now: () => clock,
    });
    const answers = await Promise.all([
      service.getFooterMetrics(),
      service.getFooterMetrics(),
      service.getFooterMetrics(),
    ]);
    expect(answers).toEqual(Array(3).fill({ active_vdp_directory_count: 8 }));
    expect(calls).toBe(1);

    clock = 999;
    expect(await service.getFooterMetrics()).toEqual({ active_vdp_directory_count: 8 });
    clock = 1000;
    expect(await service.getFooterMetrics()).toEqual({ active_vdp_directory_count: 9 });
    expect(calls).toBe(2);
  });

  it("does not keep a failure: the next call asks again", async () => {
    let fail = true;
    const service = createFooterMetricsService({
      queries: {
        countActivePrograms: async () => {
          if (fail) throw new Error("database down");
          return 3;
        },
      },
    });
    await expect(service.getFooterMetrics()).rejects.toThrow("database down");
    fail = false;
    expect(await service.getFooterMetrics()).toEqual({ active_vdp_directory_count: 3 });
  });
});
