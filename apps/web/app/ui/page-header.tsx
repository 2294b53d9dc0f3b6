import type { ReactNode } from "react";

interface PageHeaderProps {
  title: string;
  /** One sentence under the heading. */
  lead?: ReactNode;
  /** Small text above the heading (area or breadcrumb). */
  eyebrow?: ReactNode;
  actions?: ReactNode;
}

/** The h1 of a page with its lead sentence. */
export function PageHeader({ title, lead, eyebrow, actions }: PageHeaderProps) {
  return (
    <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
      <div className="max-w-3xl">
        {eyebrow && (
          <p className="mb-2 text-sm font-semibold tracking-wide text-lime-800 uppercase">{eyebrow}</p>
        )}
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        {lead && <p className="mt-3 text-lg text-slate-600">{lead}</p>}
      </div>
      {actions && <div className="flex gap-3">{actions}</div>}
    </header>
  );
}

/** A short block telling what a section of the page holds. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 text-slate-600">{children}</div>
    </section>
  );
}

/** A plain white panel for the body of a page or a tab. */
export function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">{children}</div>
  );
}
