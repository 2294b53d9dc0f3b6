/**
 * What other modules use of `rankings` besides its service (issue 36: modules meet only through
 * services; its queries stay its own): the points rule, which a researcher's standing on the public
 * record (`vulnerabilities`) sums as the leaderboards do.
 */

/**
 * PRODUCT.md §5 points of one credited vulnerability `v` on its product `p` (critical 10, high 7,
 * medium 4, low and unknown 1; doubled when the product has an active program). A withdrawn record
 * (decision 035) earns nothing: every query summing them leaves those out.
 */
export const CREDIT_POINTS_SQL = `(case v.severity when 'critical' then 10 when 'high' then 7 when 'medium' then 4 else 1 end
  * case when p.is_active then 2 else 1 end)`;
