import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_BEGIN, GENERATED_END, permissionMatrixMarkdown, replaceGeneratedSection, vyuhaMetadata,
} from '../../src/graphql/metadata/index';
import type { Metadata } from '../../src/graphql/metadata/types';

const DOCUMENT = fileURLToPath(new URL('../../../../docs/GRAPHQL-PERMISSIONS.md', import.meta.url));

describe('docs/GRAPHQL-PERMISSIONS.md', () => {
  it('holds the matrix generated from the metadata (VYUHA_UPDATE_DOCS=1 rewrites it)', () => {
    const current = readFileSync(DOCUMENT, 'utf8');
    const expected = replaceGeneratedSection(current, permissionMatrixMarkdown(vyuhaMetadata([])));
    if (process.env.VYUHA_UPDATE_DOCS === '1' && expected !== current) writeFileSync(DOCUMENT, expected);
    else expect(current, 'the document is stale: run with VYUHA_UPDATE_DOCS=1').toBe(expected);
  });

  it('marks each cell from the permissions and groups identical rules', () => {
    const metadata: Metadata = {
      actions: [],
      tables: [{
        name: 'things',
        permissions: {
          trial: { select: { filter: { user_id: { _eq: 'X-Hasura-User-Id' } }, columns: ['id'], allowAggregations: true } },
          basic: { select: { filter: { user_id: { _eq: 'X-Hasura-User-Id' } }, columns: ['id'], allowAggregations: true } },
          superadmin: { select: { filter: {}, columns: 'all' }, update: { filter: {}, columns: ['name'] }, delete: { filter: {} } },
        },
      }],
    };
    const markdown = permissionMatrixMarkdown(metadata);
    expect(markdown).toContain('| table | trial | basic | superadmin |');
    expect(markdown).toContain('| things | SA | SA | SUD |');
    expect(markdown).toContain('| select | trial, basic | rows `{"user_id":{"_eq":"X-Hasura-User-Id"}}`');
    expect(markdown).toContain('| delete | superadmin | rows `{}` |');
  });

  it('replaces only the text between the markers', () => {
    const document = `intro\n${GENERATED_BEGIN}\nold\n${GENERATED_END}\noutro\n`;
    expect(replaceGeneratedSection(document, 'new\n')).toBe(`intro\n${GENERATED_BEGIN}\nnew\n${GENERATED_END}\noutro\n`);
    expect(() => replaceGeneratedSection('no markers', 'x')).toThrow(/markers/);
  });
});
