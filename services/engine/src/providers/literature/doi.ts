/**
 * DOI handling for verification (reference notes section 2.3). Pure.
 */

/**
 * Crossref's published pattern for modern DOIs. Older DOIs outside it exist (SICI-style
 * ones with angle brackets); they are not verified, so they are never shown as sources.
 */
const MODERN_DOI = /^10\.\d{4,9}\/[-._;()/:a-z0-9]+$/i;
const DOI_MAX_CHARS = 300;

function unbalancedClosingParenthesis(doi: string): boolean {
  return doi.endsWith(")") && (doi.match(/\(/g)?.length ?? 0) < (doi.match(/\)/g)?.length ?? 0);
}

/**
 * "https://doi.org/10.X/Y." -> "10.x/y": strips the resolver prefix or "doi:", trailing
 * punctuation picked up from prose (a ")" only when it closes nothing), and lower-cases
 * (DOIs are case-insensitive).
 */
export function normaliseDoi(raw: string): string {
  let doi = raw
    .trim()
    .replace(/^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i, "")
    .replace(/^doi:\s*/i, "");
  for (;;) {
    if (/[.,;]$/.test(doi) || unbalancedClosingParenthesis(doi)) doi = doi.slice(0, -1);
    else break;
  }
  return doi.toLowerCase();
}

export function isWellFormedDoi(doi: string): boolean {
  return doi.length <= DOI_MAX_CHARS && MODERN_DOI.test(doi);
}

/** The DOI as a URL path: each segment percent-encoded, its slashes kept (as resolvers expect). */
export function doiUrlPath(doi: string): string {
  return doi.split("/").map(encodeURIComponent).join("/");
}
