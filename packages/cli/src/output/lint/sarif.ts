/**
 * `robotskit lint --format sarif`: SARIF 2.1.0, the format code-scanning tools (GitHub code scanning, IDE viewers)
 * read. Every rule is listed with its documentation link; each result points at a region with 1-based lines and
 * UTF-16 columns (the end column is exclusive, as SARIF defines it); fixes are included as replacements.
 */

import { type Diagnostic, LINT_RULES, type Severity } from 'robotskit/lint';
import { CLI_HOME } from '../../about.js';
import { type BytePositions, spanOf } from './positions.js';

/** The SARIF 2.1.0 schema. */
export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** `unknown-field` → `UnknownField`, the identifier form SARIF recommends for rule names. */
function pascal(code: string): string {
  return code.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

function region(positions: BytePositions, range: { start: number; end: number }) {
  const { start, end } = spanOf(positions, range);
  return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
}

/** Where the linted file is, as a SARIF artifact location. */
interface SarifArtifact {
  /** A relative or absolute URI (`robots.txt`, `file:///…`, `https://…`). */
  readonly uri: string;
  readonly length: number;
}

/** One linted file, as the SARIF log shows it. */
interface SarifFile {
  readonly diagnostics: readonly Diagnostic[];
  readonly positions: BytePositions;
  readonly artifact: SarifArtifact;
}

/** The SARIF log, as text: one run (code scanning wants one per tool), one artifact per file. */
export function formatSarif(files: readonly SarifFile[], version: string): string {
  const ruleIndex = new Map<string, number>(LINT_RULES.map((r, i) => [r.code, i]));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'robotskit',
            semanticVersion: version,
            informationUri: CLI_HOME,
            rules: LINT_RULES.map((rule) => ({
              id: rule.code,
              name: pascal(rule.code),
              shortDescription: { text: rule.name },
              fullDescription: { text: rule.description },
              helpUri: rule.docs,
              help: { text: `${rule.description} See ${rule.docs}` },
              defaultConfiguration: { level: LEVEL[rule.severity] },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        artifacts: files.map(({ artifact }) => ({
          location: { uri: artifact.uri },
          length: artifact.length,
          mimeType: 'text/plain',
        })),
        results: files.flatMap(({ diagnostics, positions, artifact }, index) => {
          const location = { uri: artifact.uri, index };
          return diagnostics.map((d) => ({
            ruleId: d.code,
            ruleIndex: ruleIndex.get(d.code) ?? -1,
            level: LEVEL[d.severity],
            message: { text: d.message },
            locations: [{ physicalLocation: { artifactLocation: location, region: region(positions, d.range) } }],
            ...(d.fix
              ? {
                  fixes: [
                    {
                      description: { text: d.fix.description },
                      artifactChanges: [
                        {
                          artifactLocation: location,
                          replacements: d.fix.edits.map((e) => ({
                            deletedRegion: region(positions, e.range),
                            insertedContent: { text: e.text },
                          })),
                        },
                      ],
                    },
                  ],
                }
              : {}),
          }));
        }),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
