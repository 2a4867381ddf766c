/**
 * Escaping for the markup writers. Everything a report shows came from a target no one here
 * controls (bodies, headers, error messages), so every string passes through one of these.
 */

const HTML: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Control characters a browser would draw as boxes or drop: shown as `\uXXXX` instead. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Text and attribute values in HTML, with control characters made visible. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(CONTROL, visible).replace(/[&<>"']/g, (c) => HTML[c]);
}

/**
 * Characters XML 1.0 forbids outright (most C0 controls, lone surrogates, U+FFFE/U+FFFF).
 * A response body may hold any of them, and one of them would make the whole JUnit file
 * unreadable to CI, so they are shown as `\uXXXX` instead.
 */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text and attribute values in XML, with forbidden characters made visible. */
export function escapeXml(value: unknown): string {
  return String(value)
    .replace(XML_INVALID, visible)
    .replace(/[&<>"']/g, (c) => (c === "'" ? "&apos;" : HTML[c]));
}
