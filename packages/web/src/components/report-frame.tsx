/** What the report's pages share around their content: the breadcrumb trail, and the page for a missing thing. */

import { type ComponentChildren, Fragment } from 'preact';
import { Link } from '../router.js';

interface Crumb {
  readonly label: string;
  /** Absent for the current page (the last crumb). */
  readonly href?: string;
}

/** `Properties › example.com › robots.txt`: links up to the current page, which is named but not linked. */
export function Breadcrumbs({ trail }: { trail: readonly (Crumb | null | undefined)[] }) {
  const crumbs = trail.filter((c): c is Crumb => c != null);
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumbs">
      {crumbs.map((crumb, i) => (
        <Fragment key={crumb.href ?? crumb.label}>
          {i > 0 && <span aria-hidden="true">›</span>}
          {crumb.href === undefined ? (
            <span aria-current="page">{crumb.label}</span>
          ) : (
            <Link href={crumb.href} class="crumb">
              {crumb.label}
            </Link>
          )}
        </Fragment>
      ))}
    </nav>
  );
}

/** A page for a property or file that does not exist (deleted, or a mistyped address). */
export function Missing({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="page page-narrow">
      <h1>{title}</h1>
      <p>
        {children} See all <Link href="/properties">properties</Link>.
      </p>
    </section>
  );
}
