import { createContext, useContext } from "react";
import { type LinkProps, Link as RouterLink } from "react-router";

/** True on a page sent without JavaScript (decision 007); the root layout provides it. */
export const StaticPageContext = createContext(false);

/**
 * A link within the site. On a page sent without JavaScript no router runs in the browser, so an
 * absolute path is rendered as a plain `<a href>`: the same markup without React Router's work per
 * link on the server (resolving the path against the route matches, the click handler, the prefetch
 * and discovery state), which a profile of a cold page's render put at 4 % (decision 038). On a
 * hydrated page, or with a relative or object `to`, it is React Router's `<Link>`.
 */
export function Link(props: LinkProps) {
  const staticPage = useContext(StaticPageContext);
  if (staticPage && typeof props.to === "string" && props.to.startsWith("/")) {
    const {
      to,
      discover: _discover,
      prefetch: _prefetch,
      reloadDocument: _reloadDocument,
      replace: _replace,
      state: _state,
      preventScrollReset: _preventScrollReset,
      relative: _relative,
      viewTransition: _viewTransition,
      ...anchor
    } = props;
    return <a href={to} {...anchor} />;
  }
  return <RouterLink {...props} />;
}
