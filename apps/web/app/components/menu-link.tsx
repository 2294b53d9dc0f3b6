import { useLocation } from "react-router";
import { isCurrent, type NavItem } from "../lib/navigation.ts";
import { Link } from "../ui/link.tsx";
import { Badge } from "../ui/tab-nav.tsx";

interface MenuLinkProps {
  item: NavItem;
  className?: string;
  /** Classes added when the entry is the current page. */
  currentClassName?: string;
  onNavigate?: () => void;
}

/** A menu entry: a router link inside the app, a plain link (marked as such) when it leaves it. */
export function MenuLink({ item, className = "", currentClassName = "", onNavigate }: MenuLinkProps) {
  const { pathname } = useLocation();
  if (item.external) {
    return (
      <a href={item.to} className={className} onClick={onNavigate}>
        {item.label}
        <span className="sr-only"> (external site)</span>
      </a>
    );
  }
  const current = isCurrent(item, pathname);
  return (
    <Link
      to={item.to}
      prefetch="intent"
      aria-current={current ? "page" : undefined}
      className={`${className} ${current ? currentClassName : ""}`}
      onClick={onNavigate}
    >
      {item.label}
      {item.badge && (
        <>
          {" "}
          <Badge>{item.badge}</Badge>
        </>
      )}
    </Link>
  );
}
