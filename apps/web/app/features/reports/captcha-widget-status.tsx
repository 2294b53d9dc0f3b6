/** What every captcha widget shows while its script loads, and when it cannot. */
export function CaptchaLoading() {
  return (
    <p className="rounded-md border border-slate-200 bg-white px-3 py-3 text-sm text-slate-600">
      Loading the verification… It needs JavaScript.
    </p>
  );
}

export function CaptchaLoadFailed() {
  return (
    <p role="alert" className="text-sm text-red-700">
      The verification could not be loaded. Reload the page to try again.
    </p>
  );
}
