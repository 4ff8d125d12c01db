/**
 * The route table: the one place pages are added. A route has a path pattern (`/properties/:id`), the page component
 * (loaded lazily), a document title, and optionally a label for the top navigation. The first route whose path
 * matches wins; the not-found page is the shell's fallback.
 *
 * Adding a page: create `pages/<name>/page.tsx` exporting the page as `default` (it receives `{ params }`), then add
 * one entry here.
 */

import type { ComponentType } from 'preact';
import { lazyPage } from './lazy.js';
import type { RouteParams, RouteProps } from './router.js';

/** One page of the UI. */
export interface Route {
  /** Path pattern: literal segments, `:name` parameters, a final `*`. */
  readonly path: string;
  readonly page: ComponentType<RouteProps>;
  /** The document title (a function of the parameters when it names something). */
  readonly title: string | ((params: RouteParams) => string);
  /** Shown in the top navigation with this label when set. */
  readonly nav?: string;
  /** Paths under which this route's navigation entry is current (`/properties` for `/properties/3`). */
  readonly navPrefix?: string | readonly string[];
}

/** Every page, in matching order. */
export const routes: readonly Route[] = [
  {
    path: '/',
    page: lazyPage(() => import('./pages/tester/page.js')),
    title: 'robots.txt tester',
    nav: 'Tester',
  },
  {
    path: '/properties',
    page: lazyPage(() => import('./pages/properties/page.js')),
    title: 'Properties',
    nav: 'Properties',
    navPrefix: ['/properties', '/files'],
  },
  {
    path: '/alerts',
    page: lazyPage(() => import('./pages/alerts/page.js')),
    title: 'Alerts',
    nav: 'Alerts',
  },
  {
    path: '/webhooks',
    page: lazyPage(() => import('./pages/webhooks/page.js')),
    title: 'Webhooks',
    nav: 'Webhooks',
  },
  {
    path: '/properties/:id/activity',
    page: lazyPage(() => import('./pages/activity/page.js')),
    title: 'Crawler activity',
  },
  {
    path: '/properties/:id',
    page: lazyPage(() => import('./pages/property/page.js')),
    title: 'Property',
  },
  {
    path: '/files/:id/impact',
    page: lazyPage(() => import('./pages/impact/page.js')),
    title: 'Impact of a change',
  },
  {
    path: '/files/:id',
    page: lazyPage(() => import('./pages/file/page.js')),
    title: 'robots.txt file',
  },
];
