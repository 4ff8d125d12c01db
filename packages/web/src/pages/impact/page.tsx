/**
 * Impact of a change: before a robots.txt goes live (a draft, edited here with the linter running as you type) or
 * after (a stored version), which of the site's URLs change verdict, for which crawlers: exactly (every region of
 * URLs decided differently, with a shortest example and the deciding lines, by the engine's comparison) and for the
 * URLs of the sitemaps the versions list (`POST /api/impact`); a list typed here replaces the sitemaps' URLs. The form
 * is `form.tsx`, the result `report.tsx`.
 */

import type { FileDetail, Version } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { Breadcrumbs, Missing } from '../../components/report-frame.js';
import { useApi, useDocumentTitle } from '../../components/use-api.js';
import type { RouteProps } from '../../router.js';
import { ImpactForm } from './form.js';

/** The impact page of file `params.id`. */
export default function ImpactPage({ params }: RouteProps) {
  const id = params.id ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const file = useApi<FileDetail>(valid ? `/api/files/${id}?content=false` : null);
  const versions = useApi<{ versions: Version[] }>(valid ? `/api/files/${id}/versions` : null);
  useDocumentTitle(file.data ? `Impact · ${file.data.url}` : null);
  if (!valid || file.error?.code === 'not-found') {
    return (
      <Missing title="File not found">
        There is no robots.txt file <code>{id}</code>.
      </Missing>
    );
  }
  const f = file.data;
  const list = versions.data?.versions;
  return (
    <section class="page report">
      <Breadcrumbs
        trail={[
          { label: 'Properties', href: '/properties' },
          f?.properties[0] && { label: f.properties[0].name, href: `/properties/${f.properties[0].id}` },
          { label: 'robots.txt', href: `/files/${id}` },
          { label: 'Impact' },
        ]}
      />
      <div class="page-head">
        <h1>Impact of a change</h1>
        <p class="lede">
          Which of the site’s URLs would change verdict, for which crawlers, if {f ? <code>{f.url}</code> : 'the file'}{' '}
          changed: exactly, for every URL (each region of URLs decided differently, with an example), and for the URLs
          of the sitemaps the file lists.
        </p>
      </div>
      {file.error && <ApiErrorNotice error={file.error} onRetry={file.reload} />}
      {versions.error && <ApiErrorNotice error={versions.error} onRetry={versions.reload} />}
      {f && list ? <ImpactForm file={f} versions={list} /> : <p class="empty">Loading…</p>}
    </section>
  );
}
