import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "apps/web/app",
  buildDirectory: "build",
  ssr: true,
} satisfies Config;
