import ReactMarkdown, { defaultUrlTransform } from "react-markdown";

/**
 * Untrusted Markdown (report descriptions, steps, proofs of concept, comments, profiles) rendered
 * safely: raw HTML in the source is shown as the text it is, never rendered nor dropped (for an XSS
 * report the tags are the payload itself: react-markdown turns raw nodes into text unless `skipHtml`
 * is set), and link and image
 * URLs other than http(s), mailto and relative ones are dropped (`javascript:`, `data:`, `vbscript:`).
 * Links open as plain external links without the referrer.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className ?? "markdown"}>
      <ReactMarkdown
        urlTransform={safeUrl}
        components={{
          a: ({ node: _node, ...props }) => (
            <a {...props} rel="nofollow noopener noreferrer" target="_blank" />
          ),
          // Images would load third-party content when a staff member or vendor opens a report.
          img: ({ node: _node, alt }) => <span>{alt ? `[image: ${alt}]` : "[image]"}</span>,
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}

/** react-markdown's own rule (http, https, mailto, relative), plus: nothing that is not one of them. */
export function safeUrl(url: string): string {
  const transformed = defaultUrlTransform(url);
  return /^(https?:|mailto:|\/|#|\?|\.)/i.test(transformed) || !/^[a-z][a-z0-9+.-]*:/i.test(transformed)
    ? transformed
    : "";
}
