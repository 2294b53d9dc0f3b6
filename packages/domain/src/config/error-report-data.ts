/**
 * What an error report may carry beyond the error and its stack, for the Sentry SDKs of the server
 * and the browser (their `dataCollection` option): nothing. Cookies, headers, query strings and
 * bodies carry session tokens, link grants, PINs and unpublished report text; stack frame variables
 * may hold any of them.
 */
export const ERROR_REPORT_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [] as never[],
  urlQueryParams: false,
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
};
