import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation, useMatches } from "react-router";
import { SOLUTIONS_MENU } from "../lib/navigation.ts";
import { isStaticPage } from "../lib/route-handle.ts";
import { MenuLink } from "./menu-link.tsx";

/**
 * The Solutions dropdown of the public header (spec §2): a disclosure button and a list of links.
 * Enter/Space/ArrowDown open it, arrows move between entries, Escape closes it and returns focus
 * to the button, leaving it (Tab, click outside, a navigation) closes it.
 */
export function SolutionsMenu() {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const { pathname } = useLocation();
  const staticPage = isStaticPage(useMatches().map((match) => match.handle));

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation closes the menu.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function links(): HTMLAnchorElement[] {
    return Array.from(
      containerRef.current?.querySelectorAll<HTMLAnchorElement>(`#${CSS.escape(listId)} a`) ?? [],
    );
  }

  function focusLink(index: number) {
    const all = links();
    all[(index + all.length) % all.length]?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp" && event.key !== "Home" && event.key !== "End")
      return;
    const all = links();
    const current = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (!open) {
      if (event.target !== buttonRef.current || (event.key !== "ArrowDown" && event.key !== "ArrowUp"))
        return;
      event.preventDefault();
      setOpen(true);
      const first = event.key === "ArrowDown";
      requestAnimationFrame(() => focusLink(first ? 0 : -1));
      return;
    }
    event.preventDefault();
    if (event.key === "Home") focusLink(0);
    else if (event.key === "End") focusLink(-1);
    else if (current < 0) focusLink(event.key === "ArrowDown" ? 0 : -1);
    else focusLink(current + (event.key === "ArrowDown" ? 1 : -1));
  }

  if (staticPage) return <StaticSolutionsMenu />;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the container only routes keys of the button and links inside it.
    <div
      ref={containerRef}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className={TRIGGER_CLASS}
      >
        Solutions
        <Chevron className={`h-4 w-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <ul id={listId} hidden={!open} data-theme="light" className={LIST_CLASS}>
        {SOLUTIONS_MENU.map((item) => (
          <li key={item.label}>
            <MenuLink item={item} onNavigate={() => setOpen(false)} className={ITEM_CLASS} />
          </li>
        ))}
      </ul>
    </div>
  );
}

const TRIGGER_CLASS =
  "inline-flex items-center gap-1 rounded-md px-2 py-2 text-sm font-medium text-slate-200 hover:text-white sm:px-3";
const LIST_CLASS =
  "absolute right-0 z-40 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-2 text-slate-900 shadow-xl sm:left-0 sm:right-auto";
const ITEM_CLASS = "block rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100";

/** On a page sent without JavaScript (decision 007): the browser's own disclosure widget. */
function StaticSolutionsMenu() {
  return (
    <details className="group relative">
      <summary className={`${TRIGGER_CLASS} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        Solutions
        <Chevron className="h-4 w-4 group-open:rotate-180" />
      </summary>
      <ul data-theme="light" className={LIST_CLASS}>
        {SOLUTIONS_MENU.map((item) => (
          <li key={item.label}>
            <MenuLink item={item} className={ITEM_CLASS} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function Chevron({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="currentColor">
      <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
    </svg>
  );
}
