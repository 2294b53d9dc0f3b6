import type { MouseEvent } from "react";
import { usePublicConfig } from "../public-config.ts";
import { readStoredToken } from "./token-storage.ts";

/**
 * A download link (a report's attachment, the CSV template of programs) in token mode. Following a link sends no
 * `Authorization` header, and the API reads the token only from that header (decision 021), so
 * the API answered 401 and the browser saved its JSON. In token mode, with a stored token, the
 * click is taken over: the file is fetched with the Bearer header and saved from a blob under the
 * file's own name. Without a token (a PIN's or an e-mailed link's cookie), and in cookie mode, the
 * plain link works and is followed.
 */
export function useTokenDownload() {
  const { auth } = usePublicConfig();
  return (event: MouseEvent<HTMLAnchorElement>, filename: string, onError: (message: string) => void) => {
    if (auth.mode !== "token" || event.defaultPrevented || event.button !== 0) return;
    const token = readStoredToken(auth.tokenStorage ?? "cookie", { cookieString: document.cookie });
    if (!token) return;
    event.preventDefault();
    const href = event.currentTarget.href;
    void (async () => {
      try {
        const response = await fetch(href, { headers: { Authorization: `Bearer ${token}` } });
        if (!response.ok) throw new Error(String(response.status));
        const url = URL.createObjectURL(await response.blob());
        const link = document.createElement("a");
        link.href = url;
        link.download = filename;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch {
        onError(`${filename} could not be downloaded. Reload the page and try again.`);
      }
    })();
  };
}
