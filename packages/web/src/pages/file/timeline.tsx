/**
 * A file's fetches over time: the size of each fetched body as a step line, each attempt's outcome as a coloured
 * strip underneath, and the fetches that started a new version marked. SVG drawn here: one chart of one kind does not
 * need a charting library, and SVG keeps every mark a real element with a tooltip (`<title>`). The same facts are
 * in the summary sentence (the chart's accessible name) and in the fetch log table below it.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { FetchPoint } from '../../api-types.js';
import { formatBytes, formatDay, formatTime, plural } from '../../components/format.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TICK_STEPS = [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];

const PLOT_HEIGHT = 120;
const STRIP_HEIGHT = 14;
const AXIS_HEIGHT = 22;
const LEFT = 64;
const RIGHT = 14;
const TOP = 10;

/** The engine's report status of each fetch (`fetchStatusOf`), in words. */
const STATUS_LABEL = { fetched: 'fetched', 'not-found': 'not found', error: 'error' } as const;

/** 1, 2 or 5 × 10^k at or above `n` (bytes): the top of the size axis. */
function niceCeiling(n: number): number {
  if (n <= 0) return 1024;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * power >= n) return m * power;
  return 10 * power;
}

function describe(fetch: FetchPoint): string {
  const parts = [formatTime(fetch.startedAt), STATUS_LABEL[fetch.status]];
  // The engine's words (server error (HTTP 503), host not found…) say the status too.
  if (fetch.summary !== null) parts.push(fetch.summary);
  else if (fetch.reply !== null) parts.push(fetch.reply);
  if (fetch.size !== null && fetch.outcome === 'rules') parts.push(formatBytes(fetch.size));
  // A failure starts no version of the content: it is an event (the version list shows content versions only).
  if (fetch.versionId !== null) parts.push(fetch.outcome === 'disallow-all' ? 'failures began' : 'new version');
  return parts.join(' · ');
}

/** The chart's facts in one sentence. */
function timelineSummary(fetches: readonly FetchPoint[]): string {
  if (fetches.length === 0) return 'No fetches yet.';
  const count = (s: FetchPoint['status']) => fetches.filter((f) => f.status === s).length;
  const oldest = fetches[fetches.length - 1]!;
  const sizes = fetches.filter((f) => f.outcome === 'rules' && f.size !== null).map((f) => f.size as number);
  // Content versions as the version list counts them; a run of failures that began is an event, said apart.
  const versions = fetches.filter((f) => f.versionId !== null && f.outcome !== 'disallow-all').length;
  const outages = fetches.filter((f) => f.versionId !== null && f.outcome === 'disallow-all').length;
  const parts = [
    `${plural(fetches.length, 'fetch', 'fetches')} since ${formatTime(oldest.startedAt)}:`,
    `${count('fetched')} fetched, ${count('not-found')} not found, ${plural(count('error'), 'error')};`,
    `${plural(versions, 'new version')}${outages > 0 ? `, ${plural(outages, 'run', 'runs')} of failures` : ''}.`,
  ];
  if (sizes.length > 0) parts.push(`Size ${formatBytes(Math.min(...sizes))} to ${formatBytes(Math.max(...sizes))}.`);
  return parts.join(' ');
}

export function Timeline({ fetches, now }: { fetches: readonly FetchPoint[]; now: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const ordered = useMemo(() => [...fetches].reverse(), [fetches]);
  const summary = timelineSummary(fetches);

  if (fetches.length === 0) {
    return <p class="empty">No fetches yet: the chart fills in as the file is fetched.</p>;
  }
  return (
    <div class="timeline">
      <div class="timeline-chart" ref={box}>
        {width > 0 && <Chart fetches={ordered} width={width} now={now} summary={summary} />}
      </div>
      <ul class="legend" aria-hidden="true">
        <li>
          <span class="swatch swatch-fetched" />
          Fetched
        </li>
        <li>
          <span class="swatch swatch-not-found" />
          Not found
        </li>
        <li>
          <span class="swatch swatch-error" />
          Error
        </li>
        <li>
          <span class="swatch swatch-version" />
          New version
        </li>
        <li>
          <span class="swatch swatch-size" />
          Size
        </li>
      </ul>
      <p class="hint">{summary}</p>
      <details class="fetch-log">
        <summary>Fetch log</summary>
        <div class="table-wrap">
          <table class="data-table compact">
            <caption class="visually-hidden">Every fetch, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Size
                </th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {fetches.map((f) => (
                <tr key={f.id}>
                  <td>{formatTime(f.startedAt)}</td>
                  <td>
                    {STATUS_LABEL[f.status]}
                    {f.reply !== null && <span class="muted"> · {f.reply}</span>}
                  </td>
                  <td class="num">{f.size === null ? '—' : formatBytes(f.size)}</td>
                  <td>
                    {f.summary ??
                      (f.versionId !== null ? (f.outcome === 'disallow-all' ? 'failures began' : 'new version') : '')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function Chart(props: { fetches: readonly FetchPoint[]; width: number; now: number; summary: string }) {
  const { fetches, width, now, summary } = props;
  const times = fetches.map((f) => Date.parse(f.startedAt));
  let start = Math.min(...times);
  let end = Math.max(now, ...times);
  if (end - start < HOUR) {
    const middle = (start + end) / 2;
    start = middle - HOUR / 2;
    end = middle + HOUR / 2;
  }
  const plotWidth = Math.max(40, width - LEFT - RIGHT);
  const x = (t: number) => LEFT + ((t - start) / (end - start)) * plotWidth;
  const sizes = fetches.filter((f) => f.outcome === 'rules' && f.size !== null).map((f) => f.size as number);
  const top = niceCeiling(Math.max(0, ...sizes));
  const y = (size: number) => TOP + PLOT_HEIGHT - (size / top) * PLOT_HEIGHT;
  const stripY = TOP + PLOT_HEIGHT + 8;
  const axisY = stripY + STRIP_HEIGHT + 4;
  const height = axisY + AXIS_HEIGHT;

  const step = TICK_STEPS.find((s) => (end - start) / s <= plotWidth / 90) ?? 30 * DAY;
  const ticks: number[] = [];
  const offset = new Date(start).getTimezoneOffset() * 60_000;
  for (let t = Math.ceil((start - offset) / step) * step + offset; t <= end; t += step) ticks.push(t);
  const tickLabel = (t: number) =>
    step >= DAY ? formatDay(t) : new Date(t).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

  // The size line steps at each fetched body and holds through failures (the last good size still applies).
  let path = '';
  for (const f of fetches) {
    if (f.outcome !== 'rules' || f.size === null) continue;
    const px = x(Date.parse(f.startedAt));
    const py = y(f.size);
    path += path === '' ? `M${px},${py}` : `H${px}V${py}`;
  }
  if (path !== '') path += `H${x(end)}`;
  const barWidth = Math.max(2, Math.min(10, (plotWidth / fetches.length) * 0.6));

  return (
    <svg width={width} height={height} role="img" aria-label={`Fetch timeline. ${summary}`} class="chart">
      {(sizes.length > 0 ? [0, 0.5, 1] : [0]).map((fraction) => (
        <g key={fraction}>
          <line
            x1={LEFT}
            x2={LEFT + plotWidth}
            y1={y(top * fraction)}
            y2={y(top * fraction)}
            class={fraction === 0 ? 'chart-baseline' : 'chart-grid'}
          />
          {sizes.length > 0 && (
            <text x={LEFT - 8} y={y(top * fraction) + 4} class="chart-label" text-anchor="end">
              {formatBytes(top * fraction)}
            </text>
          )}
        </g>
      ))}
      {fetches.map((f) =>
        f.versionId === null ? null : (
          <line
            key={`v${f.id}`}
            x1={x(Date.parse(f.startedAt))}
            x2={x(Date.parse(f.startedAt))}
            y1={TOP}
            y2={stripY + STRIP_HEIGHT}
            class="chart-version"
          />
        ),
      )}
      {path !== '' && <path d={path} class="chart-size" />}
      {fetches.map((f) => {
        const px = x(Date.parse(f.startedAt));
        return (
          <g key={f.id} class={`mark mark-${f.status}`}>
            <title>{describe(f)}</title>
            <rect x={px - barWidth / 2} y={stripY} width={barWidth} height={STRIP_HEIGHT} rx={1.5} />
            {f.outcome === 'rules' && f.size !== null && (
              <circle
                cx={px}
                cy={y(f.size)}
                r={f.versionId === null ? 2.5 : 4.5}
                class={f.versionId ? 'dot-version' : 'dot'}
              />
            )}
          </g>
        );
      })}
      <line x1={LEFT} x2={LEFT + plotWidth} y1={axisY} y2={axisY} class="chart-baseline" />
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={axisY} y2={axisY + 4} class="chart-baseline" />
          <text x={x(t)} y={axisY + 16} class="chart-label" text-anchor="middle">
            {tickLabel(t)}
          </text>
        </g>
      ))}
      <text x={LEFT - 8} y={stripY + STRIP_HEIGHT - 3} class="chart-label" text-anchor="end">
        outcome
      </text>
    </svg>
  );
}
