/**
 * A small client-side router over the History API: paths like `/properties/:id` matched in order, `navigate()` for
 * code, `<Link>` for markup. The hash is left to pages (the tester keeps its state there). The service answers every
 * non-API path with `index.html`, so any route survives a reload.
 */

import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Parameters taken from the path (`/properties/:id` → `{ id: '3' }`), decoded. */
export type RouteParams = Readonly<Record<string, string>>;

/** What a matched route receives. */
export interface RouteProps {
  readonly params: RouteParams;
}

/** Compiles `/a/:b/c` to a matcher; `*` at the end matches the rest of the path. */
export function compilePath(pattern: string): (path: string) => RouteParams | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (part === '*') {
        names.push('rest');
        return '(.*)';
      }
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const re = new RegExp(`^${source}/?$`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return null;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? '');
    });
    return params;
  };
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** Goes to `href` (a path on this site) without reloading; `replace` keeps the history length. */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  for (const listener of listeners) listener();
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path (without query or hash), re-rendering the caller when it changes. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return path;
}

/** A link to a path on this site: a plain `<a>` that navigates without a reload (modified clicks open as usual). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren }) {
  const { href, onClick, ...rest } = props;
  return (
    <a
      href={href}
      onClick={(event) => {
        if (typeof onClick === 'function') onClick(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(href);
      }}
      {...rest}
    />
  );
}
