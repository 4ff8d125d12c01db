/** Shown for paths no route matches. */

import { Link } from '../router.js';

/** The not-found page, naming the path. */
export default function NotFoundPage() {
  return (
    <section class="page page-narrow">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{location.pathname}</code>. Try the <Link href="/">robots.txt tester</Link>.
      </p>
    </section>
  );
}
