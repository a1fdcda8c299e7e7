// The basket editor's state: the rows, name and product as loaded from the saved basket, what the
// user changed, the last preview, and the server's refusals mapped onto the editor's fields.
import { istDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { useEffect, useMemo, useState } from 'react';
import type { CombinedError } from 'urql';
import { legsOfRows, newLegRow, rowOfLeg, type LegRow, type RowIssue } from './basket-form';
import type { BasketPreviewData, BasketRow } from './basket-documents';

/** The server's field names of a leg and the editor's. */
const FIELD_OF: Readonly<Record<string, string>> = { lots: 'size', quantity: 'size', price_paise: 'price', trigger_price_paise: 'trigger' };

/** A refusal's issues (extensions.issues) as editor fields: `legs[1].lots` becomes `legs[1].size`. */
export function serverIssues(error: CombinedError | undefined): RowIssue[] {
  const issues = (error?.graphQLErrors[0]?.extensions as { issues?: Array<{ field: string; message: string }> } | undefined)?.issues ?? [];
  return issues.map((issue) => {
    const match = /^(legs\[\d+\])\.(\w+)$/.exec(issue.field);
    return match === null ? issue : { field: `${match[1]}.${FIELD_OF[match[2] ?? ''] ?? match[2]}`, message: issue.message };
  });
}

export interface BasketEditor {
  readonly today: IsoDate;
  readonly name: string;
  readonly product: 'MIS' | 'NRML';
  readonly rows: readonly LegRow[];
  readonly dirty: boolean;
  readonly localIssues: readonly RowIssue[];
  readonly preview: { readonly data: BasketPreviewData; readonly at: number } | undefined;
  setName(name: string): void;
  setProduct(product: 'MIS' | 'NRML'): void;
  setRows(rows: LegRow[]): void;
  setPreview(preview: { readonly data: BasketPreviewData; readonly at: number } | undefined): void;
  markSaved(): void;
}

export function useBasketEditor(basket: BasketRow | undefined): BasketEditor {
  const today = useMemo(() => istDate(Date.now()), []);
  const [name, setName] = useState('');
  const [product, setProduct] = useState<'MIS' | 'NRML'>('MIS');
  const [rows, setRowsState] = useState<LegRow[]>([newLegRow(today)]);
  const [dirty, setDirty] = useState(false);
  const [preview, setPreview] = useState<BasketEditor['preview']>(undefined);
  useEffect(() => {
    if (basket === undefined) return;
    setName(basket.name);
    setProduct(basket.config.basket?.product ?? 'MIS');
    const legs = basket.config.basket?.legs ?? [];
    setRowsState(legs.length === 0 ? [newLegRow(today)] : legs.map((leg) => rowOfLeg(leg, today)));
    setDirty(false);
  }, [basket, today]);
  const localIssues = useMemo(() => legsOfRows(rows).issues, [rows]);
  return {
    today, name, product, rows, dirty, localIssues, preview, setPreview,
    setName: (next) => { setName(next); setDirty(true); },
    setProduct: (next) => { setProduct(next); setDirty(true); setPreview(undefined); },
    setRows: (next) => { setRowsState(next); setDirty(true); setPreview(undefined); },
    markSaved: () => setDirty(false),
  };
}
