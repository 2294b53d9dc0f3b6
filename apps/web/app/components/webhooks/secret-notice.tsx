import { CopyButton } from "../../ui/copy-button.tsx";

/** A webhook's signing secret, shown once after creating or rotating; it cannot be shown again. */
export function SecretNotice({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <section
      aria-labelledby="forward-secret-title"
      className="rounded-md border border-amber-300 bg-amber-50 px-4 py-4 text-sm text-slate-800"
    >
      <h3 id="forward-secret-title" className="font-semibold text-slate-900">
        Store the signing secret now
      </h3>
      <p className="mt-1">
        It signs every request to <span className="break-all">{url}</span>. It is shown only this once; rotate
        it if it is lost.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          data-testid="forward-secret"
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-3 py-2 font-mono text-xs break-all"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" />
      </div>
      <button type="button" className="btn-primary mt-3" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
