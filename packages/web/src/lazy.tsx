/**
 * Pages load on demand (`lazyPage(() => import('./pages/x.js'))`), so the report pages do not download the editor and
 * the tester does not download the report pages. Each page module exports `Page` as its default.
 */

import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { RouteProps } from './router.js';

type PageModule = { default: ComponentType<RouteProps> };

/** A component that loads a page module the first time it renders, showing a quiet placeholder meanwhile. */
export function lazyPage(load: () => Promise<PageModule>): ComponentType<RouteProps> {
  let loaded: ComponentType<RouteProps> | null = null;
  let pending: Promise<PageModule> | null = null;
  return function LazyPage(props: RouteProps) {
    const [, setTick] = useState(0);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (loaded) return;
      pending ??= load();
      let live = true;
      pending.then(
        (module) => {
          loaded = module.default;
          if (live) setTick((n) => n + 1);
        },
        (cause: unknown) => {
          pending = null;
          if (live) setError(cause instanceof Error ? cause.message : String(cause));
        },
      );
      return () => {
        live = false;
      };
    }, []);
    if (error !== null) {
      return (
        <div class="notice notice-error" role="alert">
          This page could not be loaded ({error}). Reload to try again.
        </div>
      );
    }
    if (!loaded) return <div class="page-loading" aria-busy="true" />;
    const Page = loaded;
    return <Page {...props} />;
  };
}
