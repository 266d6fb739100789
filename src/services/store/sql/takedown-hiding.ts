/**
 * Which takedown requests keep their photo from the public (docs/contract.md, "Takedown
 * requests"): an open one filed hide-first, or a `remove` decision. A condition on a row of
 * `takedowns`, shared by the takedowns' own list (sql/takedowns.ts) and the catalogue's
 * `hidden` (sql/photo-catalogue.ts).
 */
export const HIDING_TAKEDOWN = "(decision IS NULL AND hides = TRUE) OR decision = 'remove'";
