/**
 * The shell: a header with the product name and the navigation built from {@link routes}, then the matched page in
 * `<main>`. Pages own everything inside `<main>`; the shell sets the document title.
 */

import { useEffect } from 'preact/hooks';
import NotFoundPage from './pages/not-found.js';
import type { RouteParams } from './router.js';
import { compilePath, Link, usePath } from './router.js';
import { type Route, routes } from './routes.js';

const compiled = routes.map((route) => ({ route, match: compilePath(route.path) }));

function resolve(path: string): { route: Route; params: RouteParams } | null {
  for (const { route, match } of compiled) {
    const params = match(path);
    if (params) return { route, params };
  }
  return null;
}

function isCurrent(route: Route, path: string): boolean {
  if (route.path === path) return true;
  const prefixes =
    route.navPrefix === undefined ? [] : typeof route.navPrefix === 'string' ? [route.navPrefix] : route.navPrefix;
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The shell around the page the address matches. */
export function App() {
  const path = usePath();
  const found = resolve(path);
  const title = found
    ? typeof found.route.title === 'function'
      ? found.route.title(found.params)
      : found.route.title
    : 'Not found';
  useEffect(() => {
    document.title = `${title} · robotskit`;
  }, [title]);
  const Page = found?.route.page;
  return (
    <div class="shell">
      <header class="topbar">
        <Link href="/" class="brand">
          <span class="brand-mark" aria-hidden="true" />
          robotskit
        </Link>
        <nav aria-label="Main">
          <ul>
            {routes
              .filter((route) => route.nav !== undefined)
              .map((route) => (
                <li key={route.path}>
                  <Link href={route.path} aria-current={isCurrent(route, path) ? 'page' : undefined}>
                    {route.nav}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
      </header>
      <main id="main">{Page && found ? <Page key={found.route.path} params={found.params} /> : <NotFoundPage />}</main>
    </div>
  );
}
