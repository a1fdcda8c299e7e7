// The chart's Web Worker: an algorithm's signals and an indicator group's values are computed here
// with the engine, so a long series never stalls the page while the user pans and zooms.
import type { ChartWorkerRequest, ChartWorkerResponse, IndicatorsResult } from './chart-worker-protocol';
import { indicatorLines, parseIndicatorGroup } from './indicator-groups';
import { signalMarks } from './signal-marks';

function indicatorsResult(indicators: unknown, candles: Extract<ChartWorkerRequest, { kind: 'indicators' }>['candles']): IndicatorsResult {
  const parsed = parseIndicatorGroup(indicators);
  return parsed.ok ? { ok: true, lines: indicatorLines(parsed.indicators, candles) } : { ok: false, error: parsed.errors.join('\n') };
}

function answer(request: ChartWorkerRequest): { response: ChartWorkerResponse; transfer: Transferable[] } {
  try {
    if (request.kind === 'signals') return { response: { id: request.id, kind: 'signals', result: signalMarks(request.graph, request.candles) }, transfer: [] };
    const result = indicatorsResult(request.indicators, request.candles);
    const transfer = result.ok ? result.lines.map((line) => line.values.buffer) : [];
    return { response: { id: request.id, kind: 'indicators', result }, transfer };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { response: { id: request.id, kind: request.kind, result: { ok: false, error: message } } as ChartWorkerResponse, transfer: [] };
  }
}

self.addEventListener('message', (event: MessageEvent<ChartWorkerRequest>) => {
  const { response, transfer } = answer(event.data);
  (self as unknown as { postMessage(message: unknown, transfer: Transferable[]): void }).postMessage(response, transfer);
});
