/**
 * The shell: a header with the product name and the navigation built from {@link routes}, then the matched page in
 * `<main>`. Pages own everything inside `<main>`; the shell sets the document title, offers a skip link to `<main>`,
 * and after an in-page navigation moves focus to the new page's heading (else `<main>`), so keyboard and screen
 * reader users start on the page they went to rather than on the body.
 */

import { useEffect, useRef } from 'preact/hooks';
import { TopBarAlerts } from './components/alert-badges.js';
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

/**
 * Focuses the page's first heading once it has rendered (pages load lazily). A page still without a heading after a
 * while (slow to load, or failed) gets `<main>` focused meanwhile; its heading still takes the focus when it comes,
 * unless the user has moved it elsewhere.
 */
function focusPage(main: HTMLElement): () => void {
  let waited = false;
  const tryFocus = (): boolean => {
    const heading = main.querySelector<HTMLElement>('h1');
    if (!heading) return false;
    if (waited && document.activeElement !== main) return true;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: false });
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(() => {
    waited = true;
    main.focus();
  }, 3000);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  return stop;
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
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(true);
  useEffect(() => {
    // The first page keeps the browser's own focus (the top of the document); later ones are focused.
    if (firstPath.current) {
      firstPath.current = false;
      return;
    }
    if (main.current) return focusPage(main.current);
  }, [path]);
  const Page = found?.route.page;
  return (
    <div class="shell">
      {/* A button, not a link to #main: the tester keeps its shared state in the address's hash. */}
      <button type="button" class="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
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
        <TopBarAlerts />
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {Page && found ? <Page key={found.route.path} params={found.params} /> : <NotFoundPage />}
      </main>
    </div>
  );
}
