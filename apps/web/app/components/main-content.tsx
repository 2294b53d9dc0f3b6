import type { ReactNode } from "react";

/** The page's main landmark; the skip link of the root jumps here. */
export function MainContent({
  children,
  className = "page-container py-10",
}: {
  children: ReactNode;
  className?: string;
}) {
  return (
    <main id="main-content" tabIndex={-1} className={`flex-1 outline-none ${className}`}>
      {children}
    </main>
  );
}
