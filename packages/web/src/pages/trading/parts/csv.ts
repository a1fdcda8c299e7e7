// Client-side CSV files (docs/PRODUCT.md section 7: "CSV download is made client side").

/** One CSV field, quoted when it holds a comma, quote or line break. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text with a header row and CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Hands a text file to the browser as a download. */
export function downloadText(fileName: string, text: string, mimeType = 'text/csv;charset=utf-8'): void {
  downloadBlob(fileName, new Blob([text], { type: mimeType }));
}

/** Hands any file (a CSV, a chart's PNG) to the browser as a download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
