// The part of the Sentry browser SDK the app uses, loaded on the first error (error-reporting.ts): a
// chunk of its own, and named imports so the bundler leaves out session replay and the feedback widget.
export { captureException, init } from "@sentry/browser";
