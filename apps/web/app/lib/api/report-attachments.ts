/** An attachment's download link under `apiBase`, with the e-mailed link's token when there is one. */
export function attachmentUrl(
  apiBase: string,
  reportId: string,
  attachmentId: string,
  token?: string | null,
) {
  const path = `${apiBase.replace(/\/+$/, "")}/reports/${encodeURIComponent(reportId)}/attachments/${encodeURIComponent(attachmentId)}`;
  return token ? `${path}?${new URLSearchParams({ token })}` : path;
}
