// The request target as the transport reads it: origin-form paths, query strings, and hosts in URLs.

/** Query strings as strings; the first value of a repeated key wins. A null-prototype object, so no key is special. */
export function parseQuery(search: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(search)) if (!(k in out)) out[k] = v;
  return out;
}

/** `http://host/path?q` (absolute-form, which servers must accept) to `/path?q`. */
export function originForm(url: string): string {
  if (url.charCodeAt(0) === 47 /* "/" */) return url;
  const m = /^https?:\/\/[^/?#]*/i.exec(url);
  if (m === null) return url;
  const rest = url.slice(m[0].length);
  return rest === "" || rest.startsWith("?") ? `/${rest}` : rest;
}

export function truncate(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}

export function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
